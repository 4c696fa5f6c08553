package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// no-agents: a config with no [agents.<name>] table; Kokua cannot work
// without at least one (R114).
var noAgentsRule = &Rule{
	ID:       "no-agents",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R114"},
	Summary:  "the config declares no [agents.<name>] table",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		if len(p.Config.Agents) > 0 {
			return
		}
		// [agents] written as something other than a table ([[agents]],
		// agents = 5) is wrong-type's finding, at the same place: saying
		// again that it declares no agents would add nothing.
		if agents := p.Config.Root.Get("agents"); agents != nil && agents.Kind != tomlpos.KindTable {
			return
		}
		span := diag.Span{File: p.Config.File, Start: diag.Position{Line: 1, Column: 1}, End: diag.Position{Line: 1, Column: 1}}
		if agents := p.Config.Root.Get("agents"); agents != nil {
			span = agents.Span()
		}
		help := "copy the [agents.*] tables from config.example.toml, or run `kokua config init --force` to overwrite this file with it"
		if oldLayout(p.Config.Root) {
			// Overwriting a file from before [agents] would lose what
			// migrate carries over.
			help = "this file is written in the layout from before [agents]: run kokua-lint migrate, which writes the agents from it, or copy the [agents.*] tables from config.example.toml"
		}
		p.Report(Finding{Span: span, Key: "[agents]",
			Message:    "the config declares no agents: Kokua needs at least one [agents.<name>] table, the entry agent among them",
			Suggestion: help})
	},
}
