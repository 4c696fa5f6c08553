package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
)

// review-reaches-floor: with auto-approval enabled, a review entry reaching
// a tool of [security].never_auto_approve, found at startup (R125, R136,
// R86, R87).
var reviewReachesFloorRule = &Rule{
	ID:       "review-reaches-floor",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R125", "R136", "R86", "R87"},
	Summary:  "with auto-approval on, a review entry reaches a tool of never_auto_approve",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		if !w.Config.Auto.Enabled {
			return
		}
		for _, pol := range w.Policies() {
			for _, o := range overlaps(w, w.Config.Floor, pol.Review, model.AtStartup) {
				p.Report(Finding{Span: o.second.Span, Key: pol.Review.Path,
					Message:    reaches(o, w.Config.Floor.Path, pol.Review.Path) + ", which no reviewer may answer for",
					Notes:      append([]string{sharedNote(o), floorWhy}, builtinNotes(approvalList{List: w.Config.Floor})...),
					Suggestion: dropFromFloor(w.Config.Floor, o.first.Value)})
			}
		}
	},
}
