package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// resident-outside-available: a resident name the agent cannot hold. On a
// list agent it is missing from available (R59); on an "all" agent it is
// outside the expansion, because nothing installs it or because it is an
// entry-point-only toolset on a worker (R60). resident takes toolset names,
// never "all" (R7).
var residentOutsideAvailableRule = &Rule{
	ID:       "resident-outside-available",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R59", "R60", "R6", "R7", "A14"},
	Summary:  "resident names a toolset outside the agent's availability",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		for _, a := range w.Agents {
			if a.Tools == nil || !a.Known || a.Tools.Resident.State != config.Present {
				continue
			}
			listed := map[string]bool{}
			for _, it := range a.Tools.Available.Items {
				listed[it.Value] = true
			}
			res := a.Tools.Resident
			for _, it := range res.Items {
				var why, more string
				t := w.Toolset(it.Value)
				switch {
				case a.All && t == nil:
					why = fmt.Sprintf("it is outside the agent's available = \"all\": nothing installs a toolset named %s", q(it.Value))
				case a.All && !a.Holds(t.Name):
					why = fmt.Sprintf("it is outside the agent's available = \"all\": %s only works on the entry agent", q(it.Value))
					more = `on a worker, available = "all" leaves it out`
				case !a.All && !listed[it.Value]:
					why = fmt.Sprintf("%s does not list it", a.Tools.Available.Path)
					more = "a resident toolset is one the agent already holds"
				default:
					continue
				}
				f := Finding{Span: it.Span, Key: res.Path,
					Message: fmt.Sprintf("agent %s declares resident toolset %s, but %s", q(a.Name), q(it.Value), why),
					Notes:   notes(more)}
				switch {
				case config.IsAllWord(it.Value) && !a.All:
					f.Notes = append(f.Notes, `Resident takes toolset names, not "all" (leave resident out to make every available toolset resident).`)
				case config.IsAllWord(it.Value):
					// available = "all" requires resident (R50): leaving it
					// out is no way to hold everything.
					f.Notes = append(f.Notes, `Resident takes toolset names, not "all": name the toolsets the agent should hold from its first turn, and the rest load on demand.`)
				case !a.All:
					f.Suggestion = fmt.Sprintf("add %s to %s, or drop it from resident", tomlName(it.Value), a.Tools.Available.Path)
				default:
					f.Suggestion = "drop it from resident"
				}
				p.Report(f)
			}
		}
	},
}
