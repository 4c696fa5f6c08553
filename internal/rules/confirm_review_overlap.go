package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
)

// confirm-review-overlap: a tool in both confirm and review of one policy,
// found at startup: the resolved lists share a tool, or the entries' text
// already settles that they would (R124, R133, R84, R87).
var confirmReviewOverlapRule = &Rule{
	ID:       "confirm-review-overlap",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R124", "R133", "R84", "R87"},
	Summary:  "a tool is in both confirm and review of one policy",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		for _, pol := range p.World.Policies() {
			for _, o := range overlaps(p.World, pol.Confirm, pol.Review, model.AtStartup) {
				p.Report(Finding{Span: o.second.Span, Key: pol.Review.Path,
					Message:    pairBetween(o, pol) + " overlap: a tool may be in only one list",
					Notes:      []string{sharedNote(o)},
					Suggestion: "keep the tool in one list: drop or narrow one of the two entries"})
			}
		}
	},
}
