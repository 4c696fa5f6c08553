package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
)

// shadow-check-skipped: Kokua skips the shadow check of an agent with a
// resident toolset no agent builds at startup, and logs that at INFO rather
// than reporting the agent clean (R138). Startup builds only the entry
// agent and the workers reachable from it.
var shadowCheckSkippedRule = &Rule{
	ID:       "shadow-check-skipped",
	Severity: diag.Info,
	Phase:    diag.PhaseAlert,
	Refs:     []string{"R138", "R77", "A3"},
	Summary:  "an agent's shadow check is skipped: a resident toolset of it is built by no agent at startup",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		for _, a := range w.Agents {
			if !a.Known {
				continue
			}
			t := w.UnbuiltResident(a)
			if t == nil {
				continue
			}
			why := "No chain of delegates_to from the entry agent reaches the agent."
			if a.Reachable {
				why = "The agent is reachable, yet no startup build holds the toolset."
			}
			p.Report(Finding{Span: a.Span, Key: a.Path,
				Message: fmt.Sprintf("shadow check skipped for agent %s: its resident toolset %s is built by no agent at startup", q(a.Name), q(t.Name)),
				Notes:   []string{why, "Kokua logs the skip at INFO and checks none of the agent's resident tools for shadowing."}})
		}
	},
}
