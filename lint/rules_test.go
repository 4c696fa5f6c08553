package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/rules"
)

// TestRules holds lint.Rules to the rule set Lint runs: every rule, in ID
// order, with its severity, phase, summary, numbers and page, and the
// fixes it declares, which rules' own tests hold to the fixes it makes.
func TestRules(t *testing.T) {
	all := rules.All()
	got := Rules()
	if len(got) != len(all) {
		t.Fatalf("Rules() lists %d rules, want %d", len(got), len(all))
	}
	for i, r := range all {
		g := got[i]
		var fixes []string
		if r.Fixes&rules.SafeFixes != 0 {
			fixes = append(fixes, "safe")
		}
		if r.Fixes&rules.UnsafeFixes != 0 {
			fixes = append(fixes, "unsafe")
		}
		if g.ID != r.ID || g.Severity != r.Severity || g.Phase != r.Phase || g.Summary != r.Summary ||
			!slices.Equal(g.Refs, r.Refs) || !slices.Equal(g.Fixes, fixes) || g.Fixes == nil ||
			g.HelpURI != SARIFRuleDocBase+r.ID+".md" {
			t.Errorf("Rules()[%d] = %+v, want the metadata of %s (fixes %q)", i, g, r.ID, fixes)
		}
	}
	if !slices.IsSortedFunc(got, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) }) {
		t.Error("Rules() is not sorted by ID")
	}
	// A caller's changes stay its own.
	got[0].ID, got[0].Refs[0] = "changed", "changed"
	if again := Rules(); again[0].ID == "changed" || again[0].Refs[0] == "changed" {
		t.Error("a change to what Rules returned shows in its next answer")
	}
}
