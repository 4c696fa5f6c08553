package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// unused-section: a config section owned by an installed toolset (the
// manifest lists its settings) that no agent's availability includes, so
// nobody reads its settings (R139, R22).
var unusedSectionRule = &Rule{
	ID:       "unused-section",
	Severity: diag.Warning,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R139", "R22"},
	Summary:  "a toolset's config section is set, but no agent declares the toolset",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		for _, a := range w.Agents {
			if !a.Known {
				return
			}
		}
		for _, f := range w.Config.Root.Fields {
			t := w.Toolset(f.Name)
			if t == nil || len(t.Settings) == 0 || len(w.Loaders(t.Name)) > 0 {
				continue
			}
			if f.Value.Kind == tomlpos.KindTable && len(f.Value.Fields) == 0 {
				// The section sets nothing: a header over settings all
				// commented out (Kokua's own examples write
				// [github_backup] so) leaves no setting unread.
				continue
			}
			p.Report(Finding{Span: f.Value.Span(), Key: "[" + f.Name + "]",
				Message:    fmt.Sprintf("section %s configures the %s toolset, which no agent declares, so nobody reads its settings", config.TablePath([]string{f.Name}), q(t.Name)),
				Suggestion: fmt.Sprintf("add %s to an agent's available list, or drop the section", tomlName(t.Name))})
		}
	},
}
