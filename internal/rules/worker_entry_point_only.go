package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
)

// worker-entry-point-only: a worker's available list names a toolset only
// the entry agent can host, such as skills (R119, R27). "all" leaves such a
// toolset out on a worker instead (R52).
var workerEntryPointOnlyRule = &Rule{
	ID:       "worker-entry-point-only",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R119", "R27", "R52"},
	Summary:  "a worker declares a toolset that only works on the entry agent (skills)",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		entry := w.Config.EntryAgent.Value
		for _, a := range w.Agents {
			if a.Entry || a.Tools == nil || a.Tools.Available.All {
				continue
			}
			for _, it := range a.Tools.Available.Items {
				t := w.Toolset(it.Value)
				if t == nil || !t.EntryPointOnly {
					continue
				}
				p.Report(Finding{Span: it.Span, Key: a.Tools.Available.Path,
					Message:    fmt.Sprintf("agent %s declares toolset %s, which only works on the entry point agent (%s). Spawned agents cannot host it", q(a.Name), q(t.Name), q(entry)),
					Suggestion: fmt.Sprintf("drop %s from %s", q(t.Name), a.Tools.Available.Path)})
			}
		}
	},
}
