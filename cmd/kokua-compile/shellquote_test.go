package main

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestShellQuote holds shellQuote to the pattern it stands for, on a table
// and on generated strings: an argument of the safe bytes only is left as
// it is, any other is quoted, its quotes escaped.
func TestShellQuote(t *testing.T) {
	safe := regexp.MustCompile(`^[A-Za-z0-9_./@%+=:,-]+$`)
	want := func(s string) string {
		if safe.MatchString(s) {
			return s
		}
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	cases := []string{"", "config.toml", "a b", "it's", "dir/x-1_2@v%3+=:,", "é", "a\nb", "$HOME", "*", "-"}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aZ09_./@%+=:,- '\"$*\\\té"
	for range 5000 {
		b := make([]byte, r.IntN(6))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got := shellQuote(s); got != want(s) {
			t.Errorf("shellQuote(%q) = %q, want %q", s, got, want(s))
		}
	}
}
