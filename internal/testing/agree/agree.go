// Package agree holds, in tests, a hand-written matcher to the regular
// expression it stands for. The caller's disagreement function gives an
// input to both and says how their answers differ, or returns "" when they
// agree. Only tests import it.
package agree

import (
	"regexp"
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
