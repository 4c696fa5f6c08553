package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// reserved-toolset-name: a toolset named core or all, from any provider
// (R16, R116, R168). Registration refuses both.
var reservedToolsetNameRule = &Rule{
	ID:       "reserved-toolset-name",
	Severity: diag.Error,
	Phase:    diag.PhaseRegister,
	Refs:     []string{"R116", "R16", "R168"},
	Summary:  "a toolset is named core or all, which are reserved",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		for _, c := range p.World.Candidates {
			why, reserved := kokua.Reserved(c.Name)
			if !reserved {
				continue
			}
			// The finding points at the toolset; an MCP server is named by
			// its table, since the config may hold several (R116).
			provider := "a " + c.ProviderLabel
			if c.Kind == kokua.KindMCP {
				provider = c.Provider()
			}
			p.Report(Finding{Span: c.Span, Key: c.Key(),
				Message:    fmt.Sprintf("%s may not be named %s: the name is reserved because %s", provider, q(c.Name), why),
				Suggestion: "give the toolset another name"})
		}
	},
}
