package rules

import (
	"slices"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// This file is not a check: it holds what a fix that takes a gate away
// must ask before it may call itself safe.
//
// A fix is judged on the file as written, but the file may hold a name
// the linter could not resolve (an unknown toolset, a misspelt table or
// key, an unknown entry agent), and its help line suggests another
// reading: "compte" read as "compute", [agent.coder.tools] as
// [agents.coder.tools]. A fix that drops an approval entry because "no
// agent declares" its toolset is safe only if no such reading declares
// it: once the user follows the help, the entry would have gated a tool,
// and the fix would have let it run unasked (issue 36). Such a fix waits:
// the finding gets no fix, and a note says which names it waits for. When
// they are resolved (by hand, or by --fix --unsafe-fixes, which renames
// them in one round and judges the rest in the next), the finding is
// judged again.

// readings are the toolsets some reading of the file's unresolved names
// would declare that the file as written does not, each with the names
// that would, as a note quotes them.
type readings struct {
	// every is set when some reading declares every toolset: an "all"
	// misspelt, or written inside a list, or in a table the linter does
	// not read.
	every []string
	// declares maps a toolset to the unresolved names that would declare
	// it, in file order.
	declares map[string][]string
}

// readings walks the config once per pass, at the first rule that asks.
func (p *Pass) readings() *readings {
	if p.read != nil {
		return p.read
	}
	r := &readings{declares: map[string][]string{}}
	p.read = r
	cfg, w := p.Config, p.World
	if cfg == nil || w == nil {
		return r
	}
	var names []string
	for _, t := range w.Toolsets {
		names = append(names, t.Name)
	}
	index := similar.NewIndex(names)
	// With the entry agent unresolved, a reading makes another agent the
	// entry agent, which holds what only the entry agent can: every name
	// of every list counts then, not only those the lists fail to declare.
	entryUnresolved := cfg.Agent(cfg.EntryAgent.Value) == nil
	add := func(toolset, why string) {
		if !slices.Contains(r.declares[toolset], why) {
			r.declares[toolset] = append(r.declares[toolset], why)
		}
	}
	var walk func(n *tomlpos.Node)
	walk = func(n *tomlpos.Node) {
		if n.ArrayOfTables {
			for _, it := range n.Items {
				walk(it)
			}
			return
		}
		for _, f := range n.Fields {
			v := f.Value
			if v.Kind == tomlpos.KindTable {
				walk(v)
				continue
			}
			if v.ArrayOfTables {
				walk(v)
				continue
			}
			path := v.Path()
			if !declaringKey(path) {
				continue
			}
			read := p.readAvailable(path)
			where := config.KeyPath(path[:len(path)-1], f.Name)
			values := []*tomlpos.Node{v}
			if v.Kind == tomlpos.KindArray {
				values = v.Items
			}
			for _, it := range values {
				if it.Kind != tomlpos.KindString {
					continue
				}
				name := it.Str
				switch {
				case config.IsAllWord(name):
					// "all" read as a toolset list, or misspelt, or in a table
					// the linter does not read: the reading grants everything.
					if !(read && v.Kind == tomlpos.KindString && name == "all") {
						r.every = append(r.every, q(name)+" in "+where)
					}
				case w.Toolset(name) != nil:
					if !read || entryUnresolved {
						add(name, q(name)+" in "+where)
					}
				default:
					for _, c := range index.Suggest(name) {
						add(c, q(name)+" in "+where+" read as "+q(c))
					}
				}
			}
		}
	}
	walk(cfg.Root)
	return r
}

// declaringKey reports whether the key at path could declare toolsets in
// some reading: available however spelt, wherever written, and the old
// keys migrate rewrites to it (tools, groups and tool_packs of an agent,
// of a role, or of the top-level [tools]) in a table of those or in a
// top-level table Kokua does not know, which may be a misspelt one.
func declaringKey(path []string) bool {
	name := path[len(path)-1]
	switch name {
	case "available":
		return true
	case "tools", "groups", "tool_packs":
		return !slices.Contains(knownTopLevel, path[0]) || slices.Contains([]string{"agents", "subagents", "tools"}, path[0])
	}
	return len(similar.Suggest(name, []string{"available"})) > 0
}

// knownTopLevel are the top-level tables whose keys the linter reads.
var knownTopLevel = []string{"assistant", "security", "reviewers", "mcp", "agents", "subagents", "tools"}

// readAvailable reports whether path is the available list of an agent
// the linter reads: [agents.<name>.tools].available of a declared agent.
func (p *Pass) readAvailable(path []string) bool {
	return len(path) == 4 && path[0] == "agents" && path[2] == "tools" && path[3] == "available" &&
		p.Config.Agent(path[1]) != nil
}

// waits says, for a fix that would drop the entries naming toolsets,
// which unresolved names it waits for: a note for the finding, or ""
// when no reading declares any of the toolsets and the fix may be made.
func (p *Pass) waits(toolsets []string) string {
	r := p.readings()
	var why []string
	if len(r.every) > 0 {
		why = append(why, r.every...)
	}
	var held []string
	for _, t := range toolsets {
		if len(r.declares[t]) > 0 || len(r.every) > 0 {
			held = append(held, t)
		}
		for _, n := range r.declares[t] {
			if !slices.Contains(why, n) {
				why = append(why, n)
			}
		}
	}
	if len(held) == 0 {
		return ""
	}
	return "No fix is offered yet: read as the file's unresolved names suggest (" + listed(why, plain, "and") +
		"), an agent declares " + andList(held) + ", and the fix would drop their entries, letting the tools they gate run unasked. " +
		"Resolve those names first; the finding is then judged again."
}
