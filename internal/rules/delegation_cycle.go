package rules

import (
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// delegation-cycle: agents that delegate to each other in a loop, an agent
// delegating to itself included (R127). A delegate is built by recursing
// into its targets, so the graph must be acyclic; a diamond is not a cycle.
var delegationCycleRule = &Rule{
	ID:       "delegation-cycle",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R127"},
	Summary:  "delegates_to forms a cycle",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		const (
			unseen = iota
			onPath
			done
		)
		cfg := p.Config
		state := map[string]int{}
		var path []*config.Agent
		var visit func(a *config.Agent)
		visit = func(a *config.Agent) {
			state[a.Name] = onPath
			path = append(path, a)
			for _, it := range a.DelegatesTo.Items {
				t := cfg.Agent(it.Value)
				switch {
				case t == nil:
				case state[t.Name] == onPath:
					reportCycle(p, path, t, it)
				case state[t.Name] == unseen:
					visit(t)
				}
			}
			path = path[:len(path)-1]
			state[a.Name] = done
		}
		for _, a := range cfg.Agents {
			if state[a.Name] == unseen {
				visit(a)
			}
		}
	},
}

// reportCycle reports the cycle that the edge at closing (to target)
// closes, at that edge.
func reportCycle(p *Pass, path []*config.Agent, target *config.Agent, closing config.Str) {
	start := 0
	for i, a := range path {
		if a == target {
			start = i
		}
	}
	names := make([]string, 0, len(path)-start+1)
	for _, a := range path[start:] {
		names = append(names, printable.Escape(a.Name))
	}
	names = append(names, printable.Escape(target.Name))
	last := path[len(path)-1]
	p.Report(Finding{Span: closing.Span, Key: last.DelegatesTo.Path,
		Message:    "delegation cycle in [agents.*]: " + cyclePath(names),
		Notes:      []string{"A delegate is built by recursing into its targets, so delegation must not loop."},
		Suggestion: "drop " + q(target.Name) + " from " + last.DelegatesTo.Path})
}

// cyclePath joins the names of a cycle, its first named again at its
// end, with " -> ". A cycle of more than maxListed agents shows its first
// three and its last two, and counts those between: "a -> b -> c -> 2,994
// more -> y -> z -> a". Each back edge of a long chain closes a cycle of
// its own, so n agents could otherwise write n squared names.
func cyclePath(names []string) string {
	if len(names) <= maxListed+1 {
		return strings.Join(names, " -> ")
	}
	head, tail := names[:3], names[len(names)-3:]
	return strings.Join(head, " -> ") + " -> " + printable.Thousands(len(names)-6) + " more -> " + strings.Join(tail, " -> ")
}
