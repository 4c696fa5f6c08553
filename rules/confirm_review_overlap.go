package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
)

// confirm-review-overlap: a tool in both confirm and review of one policy,
// found at startup: the resolved lists share a tool, or the entries' text
// already settles that they would (R124, R133, R84, R87).
var _ = register(&Rule{
	ID:       "confirm-review-overlap",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R124", "R133", "R84", "R87"},
	Summary:  "a tool is in both confirm and review of one policy",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		for _, pol := range p.World.Policies() {
			for _, o := range overlaps(p.World, pol.Confirm, pol.Review) {
				if len(o.pending) > 0 {
					continue // a build reveals it: build-overlap
				}
				p.Report(Finding{Span: o.second.Span, Key: pol.Review.Path,
					Message:    fmt.Sprintf("%s %s: a tool may be in only one list of the %s policy", overlapBetween(o, pol.Confirm.Path, pol.Review.Path), sharedWhat(o), pol.Table()),
					Suggestion: "keep the tool in one list: drop or narrow one of the two entries"})
			}
		}
	},
})

// overlapBetween names the two entries and their lists.
func overlapBetween(o overlap, firstPath, secondPath string) string {
	return fmt.Sprintf("%s in %s and %s in %s", q(o.first.Value), firstPath, q(o.second.Value), secondPath)
}

// sharedWhat says what two overlapping entries share.
func sharedWhat(o overlap) string {
	if o.textual && len(o.tools) == 0 {
		return "overlap by their own text (if the tool exists both lists hold it; if it does not, the tool entry is dead)"
	}
	if len(o.tools) == 1 {
		return "both hold " + q(o.tools[0])
	}
	return "both hold " + quoteAll(o.tools)
}

// onceBuilt says which builds reveal an overlap: "once 'files' is built",
// or, when both entries wait for a build, "once 'fs' and 'files' are both
// built".
func onceBuilt(o overlap) string {
	if len(o.pending) == 1 {
		return "once " + q(o.pending[0]) + " is built"
	}
	return "once " + strings.Join(quoted(o.pending), " and ") + " are both built"
}

// refusedBuilds says which builds Kokua refuses for an overlap only a build
// reveals, and which agents could trigger them (R206). When both entries
// wait for a build, the one that completes the overlap is refused: whichever
// of the two toolsets is built second.
func refusedBuilds(w *model.World, o overlap) string {
	if len(o.pending) == 1 {
		t := o.pending[0]
		return fmt.Sprintf("Kokua refuses every build of %s; agents that could load it: %s", q(t), loaders(w, t))
	}
	var names []string
	seen := map[string]bool{}
	for _, t := range o.pending {
		for _, a := range w.Loaders(t) {
			if !seen[a.Name] {
				seen[a.Name] = true
				names = append(names, q(a.Name))
			}
		}
	}
	if w.Composes {
		names = append(names, "composed workers")
	}
	if len(names) == 0 {
		names = append(names, "no agent")
	}
	return fmt.Sprintf("Kokua refuses the build of whichever comes second, and every later one; agents that could load them: %s", strings.Join(names, ", "))
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = q(n)
	}
	return out
}
