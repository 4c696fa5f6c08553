package lint

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/rules"
)

// Rule is what a host may know of one rule without running it: the
// metadata `kokua-lint --list-rules` prints, in every format, and the
// rule's page under docs/rules/ gives. The JSON form is the one
// `--list-rules --format json` writes, in a list under "rules".
type Rule struct {
	// ID is the kebab-case name every finding of the rule carries
	// (diag.Diagnostic.Rule), and the name a suppression comment uses.
	ID       string        `json:"id"`
	Severity diag.Severity `json:"severity"`
	// Phase is when Kokua meets the problem: at startup, or at a toolset's
	// build.
	Phase diag.Phase `json:"phase"`
	// Summary is the rule in one line.
	Summary string `json:"summary"`
	// Fixes are the kinds of fix the rule's findings may carry, "safe"
	// then "unsafe", each at most once; empty when it offers none. A safe
	// fix can only tighten what an agent may do; an unsafe one could widen
	// it, so Fix makes it only when asked to.
	Fixes []string `json:"fixes"`
	// Refs are the numbers of docs/semantics.md the rule implements
	// (R118, A8).
	Refs []string `json:"refs"`
	// HelpURI is the address of the rule's page.
	HelpURI string `json:"help_uri"`
}

// Rules returns every rule Lint runs, sorted by ID, in a slice of the
// caller's own.
func Rules() []Rule {
	all := rules.All()
	out := make([]Rule, 0, len(all))
	for _, r := range all {
		fixes := []string{}
		if r.Fixes.Allows(true) {
			fixes = append(fixes, "safe")
		}
		if r.Fixes.Allows(false) {
			fixes = append(fixes, "unsafe")
		}
		out = append(out, Rule{ID: r.ID, Severity: r.Severity, Phase: r.Phase, Summary: r.Summary,
			Fixes: fixes, Refs: append([]string{}, r.Refs...), HelpURI: SARIFRuleHelpURI(r.ID)})
	}
	return out
}
