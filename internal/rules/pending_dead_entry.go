package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
)

// pending-dead-entry: an approval entry on a toolset startup does not
// build, which matches nothing once the toolset is built (R121, R146,
// A8). Kokua starts, then refuses that toolset's every build (load,
// compose, preload) until the entry is fixed and Kokua restarted. Checked
// statically from the manifest.
var pendingDeadEntryRule = &Rule{
	ID:       "pending-dead-entry",
	Severity: diag.Error,
	Phase:    diag.PhaseBuild,
	Refs:     []string{"R121", "R146", "R79", "R81", "R206", "A8"},
	Summary:  "an approval entry on a deferred toolset matches nothing, so every load of it is refused",
	Needs:    NeedsWorld,
	Fixes:    SafeFixes,
	Check: func(p *Pass) {
		w := p.World
		ln := newLoaderNotes(w)
		for _, d := range deadEntries(w, model.AtBuild) {
			l, t := d.list, d.r.Toolset.Name
			fault, more := deadFault(d.r, true)
			p.Report(Finding{Span: d.item.Span, Key: l.Path, Suggestion: d.suggestion(), Fixes: d.fixes(p),
				Message: fmt.Sprintf("%s has an entry that %s once %s is built: %s", l.Path, l.effect(), q(t), fault),
				Notes: append(append(more,
					fmt.Sprintf("Kokua starts, but refuses every build of the %s toolset (Could not load %s) until the entry is fixed and Kokua restarted.", q(t), q(t)),
					ln.note(t)), builtinNotes(l)...)})
		}
	},
}
