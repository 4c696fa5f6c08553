package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
)

// dead-entry: an approval entry that matches no tool, on a toolset startup
// builds or in core (R120, R131, R132, R135, R40). A gate that holds
// nothing back has no symptom, so Kokua refuses to start.
var _ = register(&Rule{
	ID:       "dead-entry",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R131", "R120", "R132", "R135", "R33", "R34", "R40", "R41"},
	Summary:  "an approval entry on a toolset built at startup (or core) matches no tool",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		// R132 applies only when the manifest marks a server "connected":
		// false; one it does not describe is unknown, not known to be down
		// (R166), and mcp-disconnected says so.
		undescribed := map[*model.Toolset]bool{}
		for _, t := range w.UndescribedMCP {
			undescribed[t] = true
		}
		for _, l := range approvalLists(w) {
			for _, it := range l.Items {
				r := w.Resolve(it.Value)
				startup := r.Toolset == nil || !r.Pending
				dead := r.Dead() || (r.Status == model.Disconnected && !undescribed[r.Toolset])
				if !dead || !startup || !inScope(w, l, r) {
					continue
				}
				remedy := l.remedy()
				if r.Status == model.Disconnected {
					remedy = "a resident MCP server that is not connected at startup builds empty; connect it, or check its [[mcp.server]] table"
				}
				p.Report(Finding{Span: it.Span, Key: l.Path, Suggestion: fixFor(r),
					Message: fmt.Sprintf("%s has an entry that %s: %s. %s", l.Path, l.effect(), deadFault(r), capitalize(remedy))})
			}
		}
	},
})

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
