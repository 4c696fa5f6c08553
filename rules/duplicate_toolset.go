package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/config"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/model"
)

// duplicate-toolset: two providers register one toolset name (R115, R168).
// Names share one namespace across Kokua's own toolsets, plugins, skills
// and MCP servers, so a skill named web or an MCP server named memory stops
// Kokua at startup. The first provider named is the one registered first;
// the finding points at the less trusted of the two (R51), the newcomer to
// rename: the skill, not Kokua's own toolset; the [[mcp.server]] name in
// the config, not the manifest entry it collides with.
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
			at := c
			if kindTrust[prev.Kind] > kindTrust[c.Kind] {
				at = prev
			}
			p.Report(Finding{Span: at.Span, Key: keyOf(at),
				Message: fmt.Sprintf("toolset name %s is registered twice: by the %s (%s) and by the %s (%s); a name carries no provider, so it must be unique",
					q(c.Name), prev.Provider, q(trimPeriod(prev.Description)), c.Provider, q(trimPeriod(c.Description))),
				Suggestion: "rename or drop one of the two"})
		}
	},
})

// kindTrust ranks the provider kinds in trust order (R51), most trusted
// first. Within a kind, array order is trust order, so of two same-kind
// candidates the later one is the less trusted.
var kindTrust = map[string]int{config.KindKokua: 0, config.KindPlugin: 1, config.KindSkill: 2, config.KindMCP: 3}

func trimPeriod(s string) string { return strings.TrimSuffix(s, ".") }

// keyOf is the config key that defines a candidate: an MCP server's name.
func keyOf(c model.Candidate) string {
	if c.Kind == "mcp" {
		return "[[mcp.server]].name"
	}
	return ""
}
