// Package agree holds, in tests, a hand-written matcher to the regular
// expression it stands for. The caller's disagreement function gives an
// input to both and says how their answers differ, or returns "" when they
// agree. Only tests import it.
package agree

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// Inputs fails t once for each input the two disagree on.
func Inputs(t testing.TB, inputs []string, disagree func(string) string) {
	t.Helper()
	for _, s := range inputs {
		if d := disagree(s); d != "" {
			t.Errorf("%q: %s", s, d)
		}
	}
}

// Share fails t when the pattern named name matched fewer than least of
// the inputs, or all but fewer than least: the two agreeing on generated
// inputs means something only when both answers are common among them.
func Share(t testing.TB, name string, inputs []string, pattern *regexp.Regexp, least int) {
	t.Helper()
	matched := 0
	for _, s := range inputs {
		if pattern.MatchString(s) {
			matched++
		}
	}
	if matched < least || len(inputs)-matched < least {
		t.Errorf("the %s pattern matched %d of %d generated inputs; each answer needs at least %d", name, matched, len(inputs), least)
	}
}

// Fuzz seeds f with every input of seeds and fuzzes the two with disagree.
func Fuzz(f *testing.F, disagree func(string) string, seeds ...[]string) {
	for _, set := range seeds {
		for _, s := range set {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := disagree(s); d != "" {
			t.Errorf("%q: %s", s, d)
		}
	})
}

// Gen makes the inputs a generator draws from pieces: a fixed seed, so that
// every run tests the same inputs.
type Gen struct{ r *rand.Rand }

// NewGen returns a generator seeded with seed.
func NewGen(seed uint64) *Gen { return &Gen{rand.New(rand.NewPCG(seed, 1))} }

// IntN is a number from 0 to n-1.
func (g *Gen) IntN(n int) int { return g.r.IntN(n) }

// Pick is one of the options.
func (g *Gen) Pick(options ...string) string { return options[g.r.IntN(len(options))] }

// Pieces is up to most pieces, put together.
func (g *Gen) Pieces(most int, pieces ...string) string {
	var b strings.Builder
	for range g.r.IntN(most + 1) {
		b.WriteString(g.Pick(pieces...))
	}
	return b.String()
}

// Mutate inserts a piece into s, or puts one in place of a byte, at a
// random place, as many times as a one-in-three chance allows in a row.
func (g *Gen) Mutate(s string, pieces ...string) string {
	for g.r.IntN(3) == 0 {
		at := g.r.IntN(len(s) + 1)
		s = s[:at] + g.Pick(pieces...) + s[min(at+g.r.IntN(2), len(s)):]
	}
	return s
}
