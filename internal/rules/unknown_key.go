package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// unknown-key: a key that a tool-access table does not accept (R21,
// R108-R110, R113). The message lists the keys the table accepts, suggests
// a close match, and names the table where the key does belong.
var unknownKeyRule = &Rule{
	ID:       "unknown-key",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R21", "R108", "R109", "R110", "R113", "R3"},
	Summary:  "a tool-access table holds a key it does not accept",
	Needs:    NeedsConfig,
	Fixes:    SafeFixes | UnsafeFixes,
	Check: func(p *Pass) {
		config.Walk(p.Config.Root, func(v config.Visit) {
			if v.Schema != nil || v.Table.Open {
				return
			}
			table := v.Node.Path()
			name := v.Field.Name
			accepted := v.Table.Accepted()
			msg := fmt.Sprintf("unknown key %s in %s", q(name), tableTitle(v))
			accepts := tableTitle(v) + " accepts " + strings.Join(accepted, ", ") + "."
			more := []string{accepts}
			switch {
			case isAgentTools(table) && agentKey(name):
				msg += fmt.Sprintf(": it belongs to %s", config.TablePath(table[:2]))
				more = append(more, "Keys of [agents.<name>] must come before its [agents.<name>.tools] header.")
			case len(table) == 2 && table[0] == "assistant" && (name == "available" || name == "resident"):
				msg += ": availability and residency are declared per agent, in [agents.<name>.tools]"
			default:
				if other := otherTable(table, name); other != "" {
					msg += fmt.Sprintf(" (did you mean %s.%s?)", other, name)
				}
			}
			f := Finding{Span: v.Field.Value.Key(), Key: config.KeyPath(table, name), Message: msg, Notes: more}
			if isAgentTools(table) && agentKey(name) {
				f.Fixes = moveAgentKey(p, v)
			}
			if matches := similar.Suggest(name, accepted); len(matches) > 0 {
				f.Suggestion = fmt.Sprintf("did you mean %s?", q(matches[0]))
				// Unsafe: a key that Kokua ignored until now would take
				// effect, and which key was meant decides whether it grants
				// (available) or gates (confirm).
				k := v.Field.Value.Key()
				for _, m := range matches {
					f.Fixes = append(f.Fixes, diag.Fix{Title: "Rename the key to " + m, Local: true, Edits: []diag.Edit{{Start: k.Start.Offset, End: k.End.Offset, New: tomlpos.QuoteKey(m)}}})
				}
			}
			p.Report(f)
		})
	},
}

// moveAgentKey moves a key of [agents.<name>] written below its
// [agents.<name>.tools] header, where Kokua reads it as a key of the tools
// table (R3), to the agent's table (internal/tomledit): after the keys of
// the [agents.<name>] header, or, where the file writes none, under one
// written for it above the tools header. The key moves with its value as
// written and its comment. The move is safe, as the agent's description
// or model grants nothing, except for delegates_to, which earns
// spawn_subagent and reaches the named agents.
func moveAgentKey(p *Pass, v config.Visit) []diag.Fix {
	tools, name := v.Node, v.Field.Name
	agent := tools.Path()[:2]
	if !tools.Header || p.Config.Root.Lookup(agent...).Get(name) != nil {
		return nil
	}
	e := p.edit()
	if !e.MoveKey(v.Field.Value, agent, tomledit.Bare(name), tomledit.Where{}) {
		return nil
	}
	return []diag.Fix{{Title: "Move " + name + " to " + config.TablePath(agent), Safe: name != "delegates_to", Edits: e.Done(),
		Touches: []string{config.TablePath(tools.Path()), config.TablePath(agent)}}}
}

func tableTitle(v config.Visit) string {
	path := v.Node.Path()
	if len(path) == 2 && path[0] == "mcp" && path[1] == "server" {
		if url := v.Node.Get("url"); url != nil && url.Kind == tomlpos.KindString {
			return fmt.Sprintf("[[mcp.server]] (server %s)", url.Str)
		}
		return "[[mcp.server]]"
	}
	return config.TablePath(path)
}

func isAgentTools(path []string) bool {
	return len(path) == 3 && path[0] == "agents" && path[2] == "tools"
}

func agentKey(name string) bool {
	ks := config.SchemaFor([]string{"agents", "*"}).Key(name)
	return ks != nil && !ks.Removed
}

// otherTable names another tool-access table that accepts the key, spelled
// with <name> for a wildcard.
func otherTable(table []string, key string) string {
	for _, ts := range config.Schema {
		k := ts.Key(key)
		if k == nil || k.Removed || k.Name == "" || config.SchemaFor(table) == ts {
			continue
		}
		path := make([]string, len(ts.Pattern))
		for i, s := range ts.Pattern {
			if s == "*" {
				s = "<name>"
			}
			path[i] = s
		}
		if len(path) == 2 && path[0] == "mcp" && path[1] == "server" {
			return "[[mcp.server]]"
		}
		return "[" + strings.Join(path, ".") + "]"
	}
	return ""
}
