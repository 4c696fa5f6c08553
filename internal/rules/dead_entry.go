package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
)

// dead-entry: an approval entry that matches no tool, on a toolset startup
// builds or in core (R120, R131, R132, R135, R40). A gate that holds
// nothing back has no symptom, so Kokua refuses to start.
var deadEntryRule = &Rule{
	ID:       "dead-entry",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R131", "R120", "R132", "R135", "R33", "R34", "R40", "R41"},
	Summary:  "an approval entry on a toolset built at startup (or core) matches no tool",
	Needs:    NeedsWorld,
	Fixes:    SafeFixes,
	Check: func(p *Pass) {
		for _, d := range deadEntries(p.World, model.AtStartup) {
			l, r := d.list, d.r
			remedy := l.remedy()
			if r.Status == model.Disconnected {
				remedy = "a resident MCP server that is not connected at startup builds empty; connect it, or check its [[mcp.server]] table"
			}
			fault, more := deadFault(r, false)
			p.Report(Finding{Span: d.item.Span, Key: l.Path, Suggestion: d.suggestion(), Fixes: d.fixes(p),
				Message: fmt.Sprintf("%s has an entry that %s: %s", l.Path, l.effect(), fault),
				Notes:   append(append(more, notes(remedy)...), builtinNotes(l)...)})
		}
	},
}
