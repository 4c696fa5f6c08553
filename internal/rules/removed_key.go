package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// removed-key: a key Kokua removed, which now fails startup with a message
// naming its replacement; Kokua has no migration code (R19, R20,
// R102-R104), so every message points at kokua-lint migrate, which
// rewrites the old keys.
var removedKeyRule = &Rule{
	ID:       "removed-key",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R102", "R103", "R104", "R19", "R20"},
	Summary:  "a removed key (confirm_tools, auto_approval.tools, [tools], [subagents], ...) names its replacement",
	Needs:    NeedsConfig,
	Fixes:    SafeFixes | UnsafeFixes,
	Check: func(p *Pass) {
		root := p.Config.Root
		var fixes []diag.Fix
		report := func(n *tomlpos.Node, key, msg, fix string, more ...string) {
			p.Report(Finding{Span: n.Key(), Key: key, Message: msg + migrateHint, Suggestion: fix, Notes: more, Fixes: fixes})
			fixes = nil
		}
		if n := root.Lookup("security", "confirm_tools"); n != nil {
			fixes = moveEntries(p, n, "confirm")
			report(n, "[security].confirm_tools",
				"[security].confirm_tools was split into the approval pairs",
				"run kokua-lint migrate, or move these entries to [assistant.tools].confirm, each bare tool name written toolset.tool",
				"The default approval pair is [assistant.tools].confirm (asks you) and review (asks a reviewer, then you); an agent's own pair is [agents.<name>.tools].confirm and review.")
		}
		if n := root.Lookup("security", "auto_approval", "tools"); n != nil {
			fixes = moveEntries(p, n, "review")
			report(n, "[security.auto_approval].tools",
				"[security.auto_approval].tools was replaced by the review lists",
				"run kokua-lint migrate, or move these entries to [assistant.tools].review, each bare tool name written toolset.tool",
				"The review lists are [assistant.tools].review, and an agent's own [agents.<name>.tools].review.")
		}
		if n := root.Get("tools"); n != nil {
			report(n, "[tools]",
				"the top-level [tools] section was removed: each agent declares its toolsets in [agents.<name>.tools].available",
				"delete [tools] and list the toolsets in each agent's [agents.<name>.tools].available")
		}
		if agents := root.Get("agents"); agents != nil && agents.Kind == tomlpos.KindTable {
			for _, f := range agents.Fields {
				for _, old := range []string{"groups", "tool_packs", "mcp_servers"} {
					if n := f.Value.Get(old); n != nil {
						path := []string{"agents", f.Name}
						report(n, config.KeyPath(path, old),
							config.KeyPath(path, old)+" was removed: list the names in "+config.KeyPath(append(path, "tools"), "available"),
							"move the names to "+config.KeyPath(append(path, "tools"), "available"))
					}
				}
			}
		}
		if sub := root.Get("subagents"); sub != nil && sub.Kind == tomlpos.KindTable {
			if n := sub.Get("concurrent"); n != nil {
				report(n, "[subagents].concurrent", "[subagents].concurrent was removed: it is now [assistant].concurrent_tools",
					"write concurrent_tools in [assistant]")
			}
			if roles := sub.Get("roles"); roles != nil && roles.Kind == tomlpos.KindTable {
				for _, f := range roles.Fields {
					report(f.Value, config.TablePath([]string{"subagents", "roles", f.Name}),
						config.TablePath([]string{"subagents", "roles", f.Name})+" was removed: declare each agent whole in "+config.TablePath([]string{"agents", f.Name}),
						"move it to "+config.TablePath([]string{"agents", f.Name}))
				}
			}
		}
		if n := root.Lookup("assistant", "memory"); n != nil {
			report(n, "[assistant].memory",
				"[assistant].memory was removed: declare the memory and documents toolsets in an agent's [agents.<name>.tools].available",
				`add "memory" and "documents" to the entry agent's available list`)
		}
	},
}

// oldLayout reports whether a file with no agents holds what kokua-lint
// migrate writes agents from: roles, the top-level [tools].groups, or
// [assistant].memory = true.
func oldLayout(root *tomlpos.Node) bool {
	memory, roles := root.Lookup("assistant", "memory"), root.Lookup("subagents", "roles")
	return root.Lookup("tools", "groups") != nil || roles != nil && len(roles.Fields) > 0 ||
		memory != nil && memory.Kind == tomlpos.KindBool && memory.Bool
}

// migrateHint ends the message of every old key: the command that
// rewrites it.
const migrateHint = " (kokua-lint migrate rewrites it)"

// moveEntries moves a removed approval list n, its comment with it, to
// the list that replaced it in [assistant.tools], when that list is not
// written yet (R19, R102, R103): the move migrate makes too, by the one
// TOML editor (internal/tomledit), into [assistant.tools] in whatever form
// the file writes it. Moved into a written [assistant.tools] table, whose
// pair already replaced the built-in one, the entries add gates: safe.
// Where the file has no [assistant.tools], writing one replaces the
// built-in default pair whole, dropping its other list: unsafe. The
// entries are moved as written; a bare tool name among them is then
// reported, and fixed, as entry-shape reports it. The other removed keys
// need a decision (which agent, which table) and get no fix.
func moveEntries(p *Pass, n *tomlpos.Node, target string) []diag.Fix {
	if n.Kind != tomlpos.KindArray {
		return nil
	}
	tools := p.Config.Root.Lookup("assistant", "tools")
	if tools != nil && (tools.Kind != tomlpos.KindTable || tools.Get(target) != nil) {
		return nil
	}
	e := p.edit()
	if !e.MoveKey(n, []string{"assistant", "tools"}, target, tomledit.PairWhere(p.Config.Root)) {
		return nil
	}
	from := n.Path()
	return []diag.Fix{{Title: "Move the entries to [assistant.tools]." + target, Safe: tools != nil, Edits: e.Done(),
		Touches: []string{config.TablePath(from[:len(from)-1]), "[assistant.tools]"}}}
}
