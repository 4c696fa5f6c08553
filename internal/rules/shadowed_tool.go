package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// shadowed-tool: a resident tool hidden by a same-named tool of an earlier
// resident toolset (R137). Kokua starts and raises one alert per hidden
// tool, in exactly this format. The walk follows available order (a list's
// own order, or trust order for "all"); activate_skill is never counted,
// and the entry agent's SkillAgent skills are not part of it (A19).
var shadowedToolRule = &Rule{
	ID:       "shadowed-tool",
	Severity: diag.Warning,
	Phase:    diag.PhaseAlert,
	Refs:     []string{"R137", "R35", "R51", "A19"},
	Summary:  "a resident tool is shadowed by a same-named tool of an earlier resident toolset",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		holders := kokua.NewHolders(16) // one table, reset for each agent
		for _, a := range w.Agents {
			if !a.Known || w.UnbuiltResident(a) != nil {
				continue
			}
			holders.Reset()
			for _, t := range a.Resident {
				for _, tool := range t.Tools {
					s, kept := holders.Offer(tool, t.Name)
					if kept || s == (kokua.Shadow{}) {
						continue
					}
					span, key := toolsetSpan(a, t.Name)
					shown := kokua.Shadow{Tool: printable.Escape(s.Tool), Toolset: printable.Escape(s.Toolset), By: printable.Escape(s.By)}
					p.Report(Finding{Span: span, Key: key, Message: shown.Alert(printable.Escape(a.Name)),
						Suggestion: shadowFix(a, t.Name, s.By)})
				}
			}
		}
	},
}

// toolsetSpan finds where an agent's table names a toolset, and the key it
// is written under: for "all", its resident entry; for a list, its
// available entry, which sets the order the walk follows (R57); else the
// available value itself.
func toolsetSpan(a *model.Agent, name string) (diag.Span, string) {
	lists := []config.List{a.Tools.Available.List, a.Tools.Resident}
	if a.All {
		lists[0], lists[1] = lists[1], lists[0]
	}
	for _, l := range lists {
		for _, it := range l.Items {
			if it.Value == name {
				return it.Span, l.Path
			}
		}
	}
	return a.Tools.Available.Span, a.Tools.Available.Path
}

// shadowFix says how to settle a shadowed tool. The walk follows available
// order, never resident order (R57); on an "all" agent that is trust order,
// which the config cannot change (R51).
func shadowFix(a *model.Agent, later, first string) string {
	if a.All {
		return fmt.Sprintf("available = \"all\" walks in trust order, so %s keeps the name whatever resident says; defer one of the two to settle it by load order", q(first))
	}
	return fmt.Sprintf("if %s should win, name it before %s in available (resident order changes nothing); or defer one of them", q(later), q(first))
}
