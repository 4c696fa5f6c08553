package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
)

// mcp-disconnected: a configured MCP server the manifest marks disconnected
// or does not describe (R149, R166, R132). Kokua builds it empty when
// resident and refuses its load when deferred; its tools, and the approval
// entries naming them, cannot be checked. Runtime state, so information.
var mcpDisconnectedRule = &Rule{
	ID:       "mcp-disconnected",
	Severity: diag.Info,
	Phase:    diag.PhaseBuild,
	Refs:     []string{"R149", "R166", "R132", "R174"},
	Summary:  "an MCP server is not connected (or not described) in the manifest, so its tools are unknown",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		undescribed := map[string]bool{}
		for _, t := range p.World.UndescribedMCP {
			undescribed[t.Name] = true
		}
		for _, t := range p.World.Toolsets {
			if t.Connected {
				continue
			}
			why := "the manifest marks it \"connected\": false"
			if undescribed[t.Name] {
				why = "the manifest does not describe it, so it is taken as not connected"
			}
			p.Report(Finding{Span: t.Span, Key: "[[mcp.server]].name",
				Message: fmt.Sprintf("MCP server %s: %s, and entries naming its tools cannot be checked", q(t.Name), why),
				Notes:   []string{"Resident, it builds empty, and a load of it is refused until it connects."}})
		}
	},
}
