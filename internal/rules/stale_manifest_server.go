package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
)

// stale-manifest-server: the manifest describes an MCP server no
// [[mcp.server]] table configures (R166). The config decides which servers
// exist, so the entry is ignored; the manifest is likely stale.
var staleManifestServerRule = &Rule{
	ID:       "stale-manifest-server",
	Severity: diag.Warning,
	Phase:    diag.PhaseRegister,
	Refs:     []string{"R166"},
	Summary:  "the manifest describes an MCP server the config does not configure",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		for _, t := range p.World.StaleMCP {
			p.Report(Finding{Span: t.Span,
				Message:    fmt.Sprintf("the manifest describes MCP server %s, which no [[mcp.server]] table configures; the entry is ignored (the config decides which servers exist)", q(t.Name)),
				Suggestion: "regenerate the manifest from this install, or add the [[mcp.server]] table"})
		}
	},
}
