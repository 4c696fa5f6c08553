package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
)

// build-overlap: a tool in both confirm and review of one policy that only
// a build reveals: the same tool name reached through another toolset, one
// of them built on demand (R147, R88). Kokua refuses that build, every
// time. Checked statically from the manifest.
var buildOverlapRule = &Rule{
	ID:       "build-overlap",
	Severity: diag.Error,
	Phase:    diag.PhaseBuild,
	Refs:     []string{"R147", "R124", "R88", "R35", "R206"},
	Summary:  "building a deferred toolset would put one tool in both confirm and review",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		ln := newLoaderNotes(w)
		for _, pol := range w.Policies() {
			for _, o := range overlaps(w, pol.Confirm, pol.Review, model.AtBuild) {
				p.Report(Finding{Span: o.second.Span, Key: pol.Review.Path,
					Message:    fmt.Sprintf("%s, %s overlap: a tool may be in only one list", onceBuilt(o), pairBetween(o, pol)),
					Notes:      append([]string{sharedNote(o)}, refusedBuilds(ln, o)...),
					Suggestion: "keep the tool in one list: name it by one toolset only"})
			}
		}
	},
}
