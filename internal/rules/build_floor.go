package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
)

// build-floor: with auto-approval enabled, a build after which some
// policy's review reaches the floor, an overlap no text reveals (R148,
// R125, R88). Kokua refuses that build, every time.
var buildFloorRule = &Rule{
	ID:       "build-floor",
	Severity: diag.Error,
	Phase:    diag.PhaseBuild,
	Refs:     []string{"R148", "R125", "R88", "R206"},
	Summary:  "with auto-approval on, building a deferred toolset would let review reach never_auto_approve",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		ln := newLoaderNotes(w)
		if !w.Config.Auto.Enabled {
			return
		}
		for _, pol := range w.Policies() {
			for _, o := range overlaps(w, w.Config.Floor, pol.Review, model.AtBuild) {
				p.Report(Finding{Span: o.second.Span, Key: pol.Review.Path,
					Message:    onceBuilt(o) + ", " + reaches(o, w.Config.Floor.Path, pol.Review.Path) + ", which no reviewer may answer for",
					Notes:      append(append([]string{sharedNote(o), floorWhy}, refusedBuilds(ln, o)...), builtinNotes(approvalList{List: w.Config.Floor})...),
					Suggestion: dropFromFloor(w.Config.Floor, o.first.Value)})
			}
		}
	},
}
