package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// duplicate-toolset: two providers register one toolset name (R115, R168).
// Names share one namespace across Kokua's own toolsets, plugins, skills
// and MCP servers, so a skill named web or an MCP server named memory stops
// Kokua at startup. The first provider named is the one registered first;
// the finding points at the less trusted of the two (R51), the newcomer to
// rename: the skill, not Kokua's own toolset; the [[mcp.server]] name in
// the config, not the manifest entry it collides with. When more than two
// providers claim a name, each one but the most trusted is reported at its
// own position. Two manifest entries
// describing one MCP server are refused too (R168).
var duplicateToolsetRule = &Rule{
	ID:       "duplicate-toolset",
	Severity: diag.Error,
	Phase:    diag.PhaseRegister,
	Refs:     []string{"R115", "R16", "R24", "R168"},
	Summary:  "two providers register the same toolset name",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		// Registration keeps one candidate of each name that is not
		// reserved: when it kept them all, no two share a name.
		if unreserved(p.World.Candidates) != len(p.World.Toolsets) {
			sameName(p)
		}
		// The manifest's MCP entries are not candidates (the config decides
		// which servers exist, R166), but two of one name still break R168:
		// which tools the server builds would depend on which entry is read.
		described := map[string]bool{}
		for _, t := range p.World.Manifest.Toolsets {
			if t.Kind != kokua.KindMCP {
				continue
			}
			if !described[t.Name] {
				described[t.Name] = true
				continue
			}
			p.Report(Finding{Span: t.Span,
				Message:    fmt.Sprintf("the manifest describes MCP server %s twice; a toolset name must be unique", q(t.Name)),
				Notes:      []string{"Which tools the server builds would depend on which entry is read."},
				Suggestion: "drop one of the two entries, or regenerate the manifest from this install"})
		}
	},
}

// unreserved counts the candidates whose names are not reserved.
func unreserved(cs []model.Candidate) int {
	n := 0
	for _, c := range cs {
		if _, reserved := kokua.Reserved(c.Name); !reserved {
			n++
		}
	}
	return n
}

// sameName reports the candidates that share a name.
func sameName(p *Pass) {
	// Group the candidates by name, in registration order. Every
	// candidate but the most trusted one of its name is reported at its
	// own position, paired with that most trusted one; of the two, the
	// provider registered first is named first. Registration keeps one
	// candidate of each name that is not reserved: when it kept them
	// all, no two share a name.
	var names []string
	byName := map[string][]model.Candidate{}
	for _, c := range p.World.Candidates {
		if _, reserved := kokua.Reserved(c.Name); reserved {
			continue
		}
		if byName[c.Name] == nil {
			names = append(names, c.Name)
		}
		byName[c.Name] = append(byName[c.Name], c)
	}
	for _, name := range names {
		cs := byName[name]
		// The most trusted candidate (R51); of two of one kind, the
		// earlier one, since array order is trust order within a kind.
		ref := 0
		for i, c := range cs {
			if kokua.TrustRank(c.Kind) < kokua.TrustRank(cs[ref].Kind) {
				ref = i
			}
		}
		for i, c := range cs {
			if i == ref {
				continue
			}
			first, second := cs[ref], c
			if i < ref {
				first, second = c, cs[ref]
			}
			p.Report(Finding{Span: c.Span, Key: c.Key(),
				Message: fmt.Sprintf("toolset name %s is registered twice: by %s and by %s",
					q(name), first.Provider(), second.Provider()),
				Notes: []string{
					"A name carries no provider, so it must be unique.",
					fmt.Sprintf("Their descriptions: %s and %s.", q(trimPeriod(first.Description)), q(trimPeriod(second.Description))),
				},
				Suggestion: "rename or drop one of the two"})
		}
	}
}
