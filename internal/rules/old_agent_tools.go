package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// old-agent-tools: [agents.<name>].tools written as a list (or any value
// but a table), the layout from before the tool-access split (R101, R19).
var oldAgentToolsRule = &Rule{
	ID:       "old-agent-tools",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R101", "R19"},
	Summary:  "[agents.<name>].tools is the pre-split list; declare [agents.<name>.tools] available",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		agents := p.Config.Root.Get("agents")
		if agents == nil || agents.Kind != tomlpos.KindTable {
			return
		}
		for _, f := range agents.Fields {
			tools := f.Value.Get("tools")
			if tools == nil || tools.Kind == tomlpos.KindTable {
				continue
			}
			table := config.TablePath([]string{"agents", f.Name, "tools"})
			if tools.ArrayOfTables {
				// [[agents.coder.tools]] is the new table with one bracket
				// too many, not the pre-split list: migrate has nothing to
				// rewrite.
				p.Report(Finding{
					Span:       tools.Span(),
					Key:        config.KeyPath([]string{"agents", f.Name}, "tools"),
					Message:    fmt.Sprintf("agent %s writes [%s], an array of tables; an agent's tools are one table, %s", q(f.Name), table, table),
					Suggestion: fmt.Sprintf("write the header %s, with single brackets, once", table),
				})
				continue
			}
			p.Report(Finding{
				Span: tools.Span(),
				Key:  config.KeyPath([]string{"agents", f.Name}, "tools"),
				Message: fmt.Sprintf("agent %s writes tools as %s, the layout from before the tool-access split"+migrateHint,
					q(f.Name), tools.Kind),
				Notes:      []string{fmt.Sprintf("Toolsets are now declared in %s as available = [...], with resident, confirm and review beside it.", table)},
				Suggestion: oldToolsFix(table, tools),
			})
		}
	},
}

// oldToolsFix says what to write instead. tools = "all" (or a list naming
// all) becomes available = "all", which needs a resident list (R47, R50);
// available = ["all"] would only trade this error for all-spelling's.
func oldToolsFix(table string, tools *tomlpos.Node) string {
	if namesAll(tools) {
		return fmt.Sprintf("replace it with a %s table: available = \"all\" and resident = [...], the toolsets it should hold from its first turn", table)
	}
	return fmt.Sprintf("replace it with a %s table: available = %s", table, listLiteral(tools))
}

// namesAll reports whether a pre-split tools value is "all", or a list
// naming it, in any casing.
func namesAll(n *tomlpos.Node) bool {
	if n.Kind == tomlpos.KindString {
		return config.IsAllWord(n.Str)
	}
	for _, it := range n.Items {
		if it.Kind == tomlpos.KindString && config.IsAllWord(it.Str) {
			return true
		}
	}
	return false
}

// listLiteral writes a list of strings back as TOML, each toolset Kokua
// renamed by its new name (kokua.Renamed), or [...] for any other value.
func listLiteral(n *tomlpos.Node) string {
	if n.Kind == tomlpos.KindString {
		name := n.Str
		if r, ok := kokua.Renamed(name); ok {
			name = r
		}
		return "[" + tomlString(name) + "]"
	}
	if n.Kind != tomlpos.KindArray {
		return "[...]"
	}
	names := make([]string, 0, len(n.Items))
	for _, it := range n.Items {
		if it.Kind != tomlpos.KindString {
			return "[...]"
		}
		name := it.Str
		if r, ok := kokua.Renamed(name); ok {
			name = r
		}
		names = append(names, name)
	}
	return "[" + tomlStrings(names) + "]"
}
