package ghrunner

import (
	"slices"
	"testing"
)

// TestCommands holds the reading to the runner's rules: leading white
// space (Unicode's too) trimmed before "::", "##[" anywhere, every line
// break .NET's ReadLine splits at, and stop-commands until its token.
func TestCommands(t *testing.T) {
	for _, c := range []struct {
		out  string
		want []int
	}{
		{"plain\n", nil},
		{"::error::x\n", []int{1}},
		{"a\n   ::add-mask::x\n", []int{2}},
		{"\t::warning::x", []int{1}},
		{"\u00a0\u2003::notice::x", []int{1}},
		{"x ::error::y", nil},
		{"\u200b::error::y", nil}, // a zero-width space is no white space
		{"text ##[error]x", []int{1}},
		{"a\r::error::x", []int{2}},
		{"a\r\n::error::x", []int{2}},
		{"::stop-commands::t\n::error::x\n##[error]x\n  ::t::  \n::error::y", []int{1, 5}},
		{"::stop-commands::t\n::error::x\n::other::\n::error::y", []int{1}},
	} {
		var got []int
		for _, cmd := range Commands(c.out) {
			got = append(got, cmd.Line)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Commands(%q) at lines %v, want %v", c.out, got, c.want)
		}
	}
}
