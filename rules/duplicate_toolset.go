package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/model"
)

// duplicate-toolset: two providers register one toolset name (R115, R168).
// Names share one namespace across Kokua's own toolsets, plugins, skills
// and MCP servers, so a skill named web or an MCP server named memory stops
// Kokua at startup. The first provider named is the one registered first.
var _ = register(&Rule{
	ID:       "duplicate-toolset",
	Severity: diag.Error,
	Phase:    diag.PhaseRegister,
	Refs:     []string{"R115", "R16", "R24", "R168"},
	Summary:  "two providers register the same toolset name",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		first := map[string]model.Candidate{}
		for _, c := range p.World.Candidates {
			if _, reserved := model.Reserved[c.Name]; reserved {
				continue
			}
			prev, seen := first[c.Name]
			if !seen {
				first[c.Name] = c
				continue
			}
			p.Report(Finding{Span: c.Span, Key: keyOf(c),
				Message: fmt.Sprintf("toolset name %s is registered twice: by the %s (%s) and by the %s (%s); a name carries no provider, so it must be unique",
					q(c.Name), prev.Provider, q(trimPeriod(prev.Description)), c.Provider, q(trimPeriod(c.Description))),
				Suggestion: "rename or drop one of the two"})
		}
	},
})

func trimPeriod(s string) string { return strings.TrimSuffix(s, ".") }

// keyOf is the config key that defines a candidate: an MCP server's name.
func keyOf(c model.Candidate) string {
	if c.Kind == "mcp" {
		return "[[mcp.server]].name"
	}
	return ""
}
