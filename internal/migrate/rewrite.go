package migrate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// run collects the edits of every old form. The order matters where two
// insertions meet at one offset: they are applied in the order made.
func (mg *migration) run() {
	root := mg.root
	agents := root.Get("agents")
	if agents != nil && (agents.Kind != tomlpos.KindTable || agents.Inline() && len(agents.Fields) == 0) {
		// agents = <a value> (Kokua refuses the file as it is: wrong-type),
		// or agents = {}, which is closed: the entry agent's table could
		// not be written under either.
		mg.flagAt(keyFrom(agents), "nothing was migrated: an [agents.<name>] header cannot extend agents as it is written; make it an [agents] table, then migrate again")
		return
	}
	hadAgents := agents != nil && len(agents.Fields) > 0
	assistant := root.Get("assistant")

	memory, memoryOn := mg.memory()
	mg.concurrent(assistant)

	roles := mg.roles()
	if hadAgents {
		for _, f := range agents.Fields {
			var extra []string
			if f.Name == mg.entry && memoryOn {
				extra = kokua.MemoryToolsets()
			}
			mg.agent(f.Name, f.Value, agentOptions{extra: extra, memory: memory})
		}
		if memoryOn && agents.Get(mg.entry) == nil {
			mg.memoryLeft()
			mg.flagAt(keyFrom(memory), "[assistant].memory was removed, and no [agents.%s] table is here to take it: add \"memory\" and \"documents\" to the entry agent's [agents.<name>.tools].available, then delete this line and this comment", mg.entry)
		}
		if t := root.Get("tools"); t != nil {
			mg.flagAt(valueFrom(t), "the top-level [tools] section was removed: list its groups in the available list of each agent that should hold them, then delete the section and this comment")
		}
	} else {
		mg.entryAgent(roles, memory, memoryOn)
	}
	mg.approval()
	mg.subagentsFlag(roles)
	if sub := root.Get("subagents"); mg.emptied(sub) {
		mg.dropHeader(sub)
	}
}

// memory reads [assistant].memory (R20): whether the entry agent is to
// gain the memory toolsets. A value it cannot read is flagged.
func (mg *migration) memory() (*tomlpos.Node, bool) {
	n := mg.root.Lookup("assistant", "memory")
	if n == nil {
		return nil, false
	}
	w, ok := mg.writtenOf(n)
	if n.Kind != tomlpos.KindBool || !ok {
		mg.flagAt(keyFrom(n), "[assistant].memory was removed: add \"memory\" and \"documents\" to the entry agent's available list if it should keep them, then delete this line and this comment")
		return nil, false
	}
	mg.drop(n, w, "[assistant].memory")
	if n.Bool {
		mg.change(n, "[assistant].memory = true became \"memory\" and \"documents\" in [agents.%s.tools].available", tomlpos.QuoteKey(mg.entry))
	} else {
		mg.change(n, "[assistant].memory = false was dropped: no agent declares the memory toolsets")
	}
	return n, n.Bool
}

// memoryLeft says, of an [assistant].memory = true whose toolsets the
// migration could not write into a list, that its line gave way to a
// comment for a person, rather than where they went.
func (mg *migration) memoryLeft() {
	for i, c := range mg.changes {
		if strings.HasPrefix(c.Message, "[assistant].memory = true became") {
			mg.changes[i].Message = "[assistant].memory = true was removed, and a comment where it was asks for \"memory\" and \"documents\" in the entry agent's available list"
		}
	}
}

// concurrent moves [subagents].concurrent to [assistant].concurrent_tools
// (R20).
func (mg *migration) concurrent(assistant *tomlpos.Node) {
	n := mg.root.Lookup("subagents", "concurrent")
	if n == nil {
		return
	}
	w, ok := mg.writtenOf(n)
	switch {
	case !ok || assistant == nil || !mg.doc.Addable(assistant):
		mg.flagAt(keyFrom(n), "[subagents].concurrent was removed: write it as concurrent_tools in [assistant], then delete this line and this comment")
		return
	case assistant.Get("concurrent_tools") != nil:
		if have := assistant.Get("concurrent_tools"); have.Kind != n.Kind || have.Bool != n.Bool {
			mg.flagAt(keyFrom(n), "[subagents].concurrent was removed and [assistant].concurrent_tools says otherwise: keep the one you mean, then delete this line and this comment")
			return
		}
		mg.drop(n, w, "[subagents].concurrent")
		mg.change(n, "[subagents].concurrent was dropped: [assistant].concurrent_tools already says the same")
		return
	}
	mg.remove(n, w)
	mg.ed.AddKeys(assistant, []tomledit.Key{{Key: "concurrent_tools", Value: string(mg.src.Data[valueFrom(n):valueTo(n)]), Trailing: w.line.Trailing}})
	mg.change(n, "[subagents].concurrent became [assistant].concurrent_tools")
}

// agentOptions are what an agent's migration adds to its own old keys.
type agentOptions struct {
	// extra are toolsets to add: the memory toolsets for the entry agent.
	extra []string
	// memory is the [assistant].memory key extra comes from, for a flag.
	memory *tomlpos.Node
	// role marks a [subagents.roles.<name>] table; ceiling is then
	// [tools].groups (nil when not written), which a role's groups were
	// cut down to, and clock whether [tools].groups held time, which
	// every role got.
	role    bool
	ceiling []string
	clock   bool
}

// oldAgentKeys are the keys of an agent (or role) table that listed its
// toolsets before the split (R19, R20), in the order their names join
// the available list.
var oldAgentKeys = []string{"tools", "groups", "tool_packs", "mcp_servers"}

// agent rewrites one agent's (or role's) old keys into a new
// [agents.<name>.tools] table after its own keys. It reports whether the
// table could be rewritten whole.
func (mg *migration) agent(name string, t *tomlpos.Node, o agentOptions) bool {
	if t.Kind != tomlpos.KindTable {
		return false
	}
	tools := t.Get("tools")
	var olds []*tomlpos.Node
	var keys []string
	for _, k := range oldAgentKeys {
		if n := t.Get(k); n != nil && !(k == "tools" && n.Kind == tomlpos.KindTable) {
			olds, keys = append(olds, n), append(keys, k)
		}
	}
	path := []string{"agents", name}
	table := config.TablePath(append(path, "tools"))
	if len(olds) == 0 {
		if len(o.extra) == 0 {
			return true
		}
		// Written in t's own form: a new [header] table after its keys,
		// tools = { ... } in its braces, or a dotted key after its last.
		// A tools table already there is left to a person.
		if tools == nil && mg.ed.WriteKeys(append(path, "tools"), []tomledit.Key{{Key: "available", Value: listText(o.extra)}}, tomledit.Where{}) {
			return true
		}
		mg.memoryLeft()
		mg.flagAt(keyFrom(o.memory), "[assistant].memory was removed: add \"memory\" and \"documents\" to %s's available list, then delete this comment", table)
		return false
	}
	oldPath := config.TablePath(t.Path())
	if tools != nil && tools.Kind == tomlpos.KindTable {
		mg.flagAt(keyFrom(olds[0]), "%s was removed: move these names into %s's available list by hand, then delete the key and this comment", config.KeyPath(t.Path(), keys[0]), table)
		return false
	}
	lines := make([]tomledit.Line, len(olds))
	forms := make([]written, len(olds))
	for i, n := range olds {
		w, ok := mg.writtenOf(n)
		if !ok {
			mg.flagAt(keyFrom(n), "%s was removed: move these names into %s's available list by hand, then delete the key and this comment", config.KeyPath(t.Path(), keys[i]), table)
			return false
		}
		forms[i], lines[i] = w, w.line
	}

	var flags []string
	plan := &listPlan{}
	value := ""        // the value written, when it is the old list's own text
	rewritten := false // the list is written afresh
	for i, n := range olds {
		key := config.KeyPath(t.Path(), keys[i])
		list := plan.list(n, key, lines[i].Trailing)
		if keys[i] == "tools" && n.Kind == tomlpos.KindString {
			if config.IsAllWord(n.Str) {
				value = `"all"`
				flags = append(flags, `available = "all" needs a resident list: before the split every toolset was resident, which for "all" is every tool the install offers on every request; write resident = [...] below, then delete this comment`)
				continue
			}
			plan.add(renamed(n.Str))
			rewritten = true
			continue
		}
		strs, ok := stringsOf(n)
		if !ok {
			mg.flagAt(keyFrom(n), "%s holds something other than a list of names: move them into %s's available list by hand, then delete the key and this comment", key, table)
			return false
		}
		switch keys[i] {
		case "tools":
			repl := map[int]string{}
			for j, s := range strs {
				if r := renamed(s); r != s {
					repl[j] = r
					mg.change(n, "%q in %s became %q, its name since Kokua renamed it", s, key, r)
				}
				if config.IsAllWord(s) {
					flags = append(flags, fmt.Sprintf(`%s names %q: "all" is now the whole value, available = "all", and needs a resident list; write the list you mean, then delete this comment`, key, s))
				}
				plan.add(renamed(s), itemRef{list, j})
			}
			value = mg.arrayText(n, repl)
		case "groups":
			for j, s := range strs {
				if o.role && o.ceiling != nil && !slices.Contains(o.ceiling, s) {
					mg.change(n, "%q in %s was left out: [tools].groups did not enable it, so the role never held it", s, key)
					plan.drop(itemRef{list, j}, "[tools].groups did not enable it, so it was left out")
					continue
				}
				plan.add(renamed(s), itemRef{list, j})
			}
			if o.clock {
				plan.add(kokua.RoleClock)
			}
			rewritten = true
		case "tool_packs":
			for j, s := range strs {
				plan.add(renamed(s), itemRef{list, j})
			}
			rewritten = true
		case "mcp_servers":
			for j, s := range strs {
				server, ok := mg.serverName(s)
				if !ok {
					flags = append(flags, fmt.Sprintf("%s names %q, which no [[mcp.server]] table names: add the server's name to available, then delete this comment", key, s))
					plan.drop(itemRef{list, j}, "no [[mcp.server]] table names it, so it was left out")
					continue
				}
				plan.add(server, itemRef{list, j})
			}
			rewritten = true
		}
	}
	if o.role && o.clock && !slices.Contains(plan.names, kokua.RoleClock) && value == "" {
		plan.add(kokua.RoleClock)
		rewritten = true
	}
	if len(o.extra) > 0 {
		for _, name := range o.extra {
			plan.add(name)
		}
		rewritten = true
	}
	var above []string
	if rewritten || value == "" {
		if value == `"all"` && len(plan.names) > 0 {
			flags = append(flags, fmt.Sprintf("%s also names %s: with available = \"all\" they need no listing", oldPath, and(plan.names)))
		}
		if value != `"all"` {
			value, above = mg.written(plan, table+".available")
		} else {
			above = mg.allComments(plan, table+".available", `available = "all" holds what it listed`)
		}
	}
	if !t.Header {
		mg.agentInPlace(olds, forms, value, above, flags)
		for i, n := range olds {
			mg.change(n, "%s became %s.available", config.KeyPath(t.Path(), keys[i]), table)
		}
		return true
	}
	for i, kl := range lines {
		mg.edit(kl.From, kl.To, "")
		mg.change(olds[i], "%s became %s.available", config.KeyPath(t.Path(), keys[i]), table)
	}
	var b strings.Builder
	b.WriteString(table + "\n")
	b.WriteString(commentLines("", above))
	for _, f := range flags {
		b.WriteString(flag("", "%s", f))
	}
	b.WriteString("available = " + value + lines[0].Trailing + "\n")
	mg.ed.InsertTable(t, b.String())
	return true
}

// agentInPlace writes the available list of an agent table made by
// dotted keys or written inline where its first old key is: the key
// becomes tools.available (a dotted key stays dotted) or, inside an
// inline table, tools = { available = [...] }; the other old keys are
// removed, and the comments that go above the list go above the line the
// first key is on, with the marker comments.
func (mg *migration) agentInPlace(olds []*tomlpos.Node, forms []written, value string, above, flags []string) {
	first := olds[0]
	kf, kt := first.KeyOffsets()
	text := "tools.available" + string(mg.src.Data[kt:valueFrom(first)]) + value
	if forms[0].inline && !mg.dottedKey(first) {
		text = "tools" + string(mg.src.Data[kt:valueFrom(first)]) + "{ available = " + value + " }"
	}
	at := mg.lineStart(mg.doc.StatementAt(first))
	if len(above) > 0 {
		mg.edit(at, at, commentLines(mg.indent(at), above))
	}
	for _, f := range flags {
		mg.flagAt(at, "%s", f)
	}
	mg.edit(kf, valueTo(first), text)
	for i, n := range olds[1:] {
		mg.remove(n, forms[i+1])
	}
}

// serverName is the toolset name of an MCP server a role named by name
// or by URL.
func (mg *migration) serverName(s string) (string, bool) {
	servers := mg.root.Lookup("mcp", "server")
	if servers == nil {
		return "", false
	}
	for _, srv := range servers.Items {
		name, url := srv.Get("name"), srv.Get("url")
		if name == nil || name.Kind != tomlpos.KindString {
			continue
		}
		if name.Str == s || url != nil && url.Kind == tomlpos.KindString && url.Str == s {
			return name.Str, true
		}
	}
	return "", false
}

// roles renames each [subagents.roles.<name>] table to [agents.<name>]
// and rewrites its lists (R20). It returns the names of the roles moved.
func (mg *migration) roles() []string {
	rs := mg.root.Lookup("subagents", "roles")
	if rs == nil || rs.Kind != tomlpos.KindTable {
		return nil
	}
	var ceiling []string
	if g := mg.root.Lookup("tools", "groups"); g != nil {
		ceiling, _ = stringsOf(g)
		if slices.ContainsFunc(ceiling, config.IsAllWord) {
			ceiling = nil
		}
	}
	clock := slices.Contains(ceiling, kokua.RoleClock)
	var moved []string
	for _, f := range rs.Fields {
		t := f.Value
		old := config.TablePath(t.Path())
		subs, whole := roleSubtables(t, true)
		if !t.Header || mg.root.Lookup("agents", f.Name) != nil || !whole {
			mg.flagAt(valueFrom(t), "%s was removed: declare the agent whole in %s, then delete this table and this comment", old, config.TablePath([]string{"agents", f.Name}))
			continue
		}
		if !mg.agent(f.Name, t, agentOptions{role: true, ceiling: ceiling, clock: clock}) {
			continue
		}
		mg.edit(valueFrom(t), valueTo(t), config.TablePath([]string{"agents", f.Name}))
		mg.change(t, "%s became %s", old, config.TablePath([]string{"agents", f.Name}))
		for _, s := range subs {
			to := config.TablePath(append([]string{"agents", f.Name}, s.Path()[len(t.Path()):]...))
			mg.edit(valueFrom(s), valueTo(s), to)
			mg.change(s, "%s became %s", config.TablePath(s.Path()), to)
		}
		moved = append(moved, f.Name)
	}
	if len(moved) == len(rs.Fields) {
		mg.gone[rs] = true
		mg.dropHeader(rs)
	}
	return moved
}

// roleSubtables are the tables under a role's table t written with
// [headers] of their own, which move with it to [agents.<name>], outermost
// first. whole is false when one cannot move so: an array of tables, or a
// role's own tools table, which the migration writes for the role itself.
func roleSubtables(t *tomlpos.Node, role bool) (subs []*tomlpos.Node, whole bool) {
	for _, f := range t.Fields {
		v := f.Value
		switch {
		case v.ArrayOfTables || role && f.Name == "tools" && (v.Header || v.Implicit()):
			return nil, false
		case v.Header || v.Implicit():
			if v.Header {
				subs = append(subs, v)
			}
			below, ok := roleSubtables(v, false)
			if !ok {
				return nil, false
			}
			subs = append(subs, below...)
		}
	}
	return subs, true
}

// emptied reports whether the migration took something out of t and left
// nothing written below its [header]: every key it held is gone, and what
// is left are tables under headers of their own (a role that could not
// move), which need no parent header.
func (mg *migration) emptied(t *tomlpos.Node) bool {
	if t == nil {
		return false
	}
	took := false
	for _, f := range t.Fields {
		switch v := f.Value; {
		case mg.gone[v]:
			took = true
		case !v.Header && !v.Implicit() && !v.ArrayOfTables:
			return false
		}
	}
	return took
}

// dropHeader deletes a [header] line left with nothing in it.
func (mg *migration) dropHeader(t *tomlpos.Node) {
	if t == nil || !t.Header {
		return
	}
	from, to := valueFrom(t), valueTo(t)
	end := mg.lineEnd(to)
	rest := string(mg.src.Data[to:end])
	switch before := strings.TrimSpace(string(mg.src.Data[mg.lineStart(from):from])); {
	case before == "" && strings.TrimSpace(rest) == "":
		from, to = mg.lineStart(from), end
	case before == "" && strings.HasPrefix(strings.TrimSpace(rest), "#"):
		// The comment after the header stays, where the header began.
		to += len(rest) - len(strings.TrimLeft(rest, " \t"))
	}
	mg.edit(from, to, "")
	mg.change(t, "%s was left empty and removed", config.TablePath(t.Path()))
}

// entryAgent writes the entry agent of a config from before [agents]:
// the assistant held the top-level [tools].groups (or, with roles, only
// the clock) and the memory toolsets, and delegated to every role.
func (mg *migration) entryAgent(roles []string, memory *tomlpos.Node, memoryOn bool) {
	tools := mg.root.Get("tools")
	if tools == nil && len(roles) == 0 && !memoryOn {
		mg.lean(nil, nil)
		return
	}
	var groups *tomlpos.Node
	if tools != nil {
		groups = tools.Get("groups")
	}
	groupsLine, groupsOK := mg.keyLineOf(groups)
	plan := &listPlan{}
	var flags []string
	if groups != nil {
		list := plan.list(groups, "[tools].groups", groupsLine.Trailing)
		strs, ok := stringsOf(groups)
		switch {
		case !ok:
			flags = append(flags, "[tools].groups holds something other than a list of names: list the entry agent's toolsets here by hand")
		case len(roles) > 0:
			for j, s := range strs {
				if s == kokua.RoleClock {
					plan.add(s, itemRef{list, j})
				} else {
					plan.drop(itemRef{list, j}, "with roles, the entry agent held only time of [tools].groups, and the roles the rest")
				}
			}
		case slices.ContainsFunc(strs, config.IsAllWord):
			flags = append(flags, `[tools].groups = ["all"] gave every AIMU group (web, fs, compute, time, misc, audio, speech, transcription): list the ones this agent should hold`)
			for j := range strs {
				plan.drop(itemRef{list, j}, `"all" is for a person to spell out`)
			}
		default:
			for j, s := range strs {
				if s == kokua.OldGroupsNone {
					plan.drop(itemRef{list, j}, fmt.Sprintf("%q named no group", s))
					continue
				}
				plan.add(renamed(s), itemRef{list, j})
			}
		}
	}
	if memoryOn {
		for _, name := range kokua.MemoryToolsets() {
			plan.add(name)
		}
	}
	if f := mg.lean(roles, groups); f != "" {
		flags = append(flags, f)
	}
	flags = append(flags, fmt.Sprintf("before [agents], Kokua gave the entry agent %q some of its own toolsets without a list (which ones depended on the version: memory, documents, skills, config, mcp, scheduling, conversations, time); list in available the ones it should hold, then delete this comment", mg.entry))

	agent := config.TablePath([]string{"agents", mg.entry})
	table := config.TablePath([]string{"agents", mg.entry, "tools"})
	head := ""
	if len(roles) > 0 {
		head = agent + "\ndelegates_to = " + listText(roles) + "\n\n"
	}
	var flagText strings.Builder
	for _, f := range flags {
		flagText.WriteString(flag("", "%s", f))
	}
	value, above := listText(plan.names), []string(nil)
	if groups != nil && groupsOK && groups.Kind == tomlpos.KindArray {
		value, above = mg.written(plan, table+".available")
	}
	available := "available = " + value
	switch {
	// A [tools] that already writes available would get a second one
	// when it becomes the agent's table: a person merges the two.
	case tools != nil && tools.Header && tools.Get("available") == nil:
		at := valueFrom(tools)
		mg.edit(mg.lineStart(at), mg.lineStart(at), head)
		mg.edit(at, valueTo(tools), table)
		mg.change(tools, "[tools] became %s", table)
		if kl, ok := groupsLine, groupsOK; ok {
			mg.edit(kl.From, kl.To, commentLines(kl.Indent, above)+flagText.String()+kl.Indent+available+kl.Trailing+"\n")
			mg.change(groups, "[tools].groups became %s.available", table)
		} else {
			end := mg.lineEnd(valueTo(tools))
			mg.edit(end, end, flagText.String()+available+"\n")
		}
	case tools != nil:
		mg.flagAt(keyFrom(tools), "the top-level [tools] section was removed: list its groups in %s's available list, then delete the key and this comment", table)
		if memoryOn { // its line is dropped: the comment takes its place
			mg.memoryLeft()
			mg.flagAt(keyFrom(memory), "[assistant].memory was removed: add \"memory\" and \"documents\" to %s's available list, then delete this comment", table)
		}
	case len(roles) > 0:
		first := mg.root.Lookup("subagents", "roles", roles[0])
		at := mg.lineStart(valueFrom(first))
		mg.edit(at, at, head+table+"\n"+flagText.String()+available+"\n\n")
	default:
		assistant := mg.root.Get("assistant")
		if assistant == nil || !assistant.Header {
			mg.memoryLeft()
			mg.flagAt(keyFrom(memory), "[assistant].memory was removed: add \"memory\" and \"documents\" to %s's available list, then delete this comment", table)
			return
		}
		mg.ed.InsertTable(assistant, table+"\n"+flagText.String()+available+"\n")
	}
	if len(roles) > 0 {
		mg.changes = append(mg.changes, Change{Line: 0, Message: fmt.Sprintf("%s delegates to the roles: %s", agent, and(roles))})
	}
}

// keyLineOf is keyLine for a node that may be nil.
func (mg *migration) keyLineOf(n *tomlpos.Node) (tomledit.Line, bool) {
	if n == nil {
		return tomledit.Line{}, false
	}
	return mg.doc.KeyLine(n)
}

// subagentsFlag handles [assistant].subagents, the switch of the layouts
// before roles were written in the file: once the roles are agents the
// entry agent delegates to, it says nothing more.
func (mg *migration) subagentsFlag(roles []string) {
	n := mg.root.Lookup("assistant", "subagents")
	if n == nil {
		return
	}
	if w, ok := mg.writtenOf(n); ok && len(roles) > 0 {
		mg.drop(n, w, "[assistant].subagents")
		mg.change(n, "[assistant].subagents was dropped: the entry agent delegates to the roles in delegates_to")
		return
	}
	if n.Kind == tomlpos.KindBool && !n.Bool {
		return
	}
	mg.flagAt(keyFrom(n), "[assistant].subagents let the assistant spawn workers Kokua defined in code: declare each as an [agents.<name>] table and list it in the entry agent's delegates_to, then delete this line and this comment")
}

// approval moves [security].confirm_tools and
// [security.auto_approval].tools into the [assistant.tools] pair (R19): a
// tool the reviewer could answer for (in both old lists, or in confirm
// and within a review entry) is in review, the rest of the old confirm
// list in confirm. The old keys may be written in any form; the pair is
// written into an [assistant.tools] already there when it lacks the key,
// else as a new table in the form of [assistant] (forms.go).
func (mg *migration) approval() {
	confirm := mg.root.Lookup("security", "confirm_tools")
	review := mg.root.Lookup("security", "auto_approval", "tools")
	if confirm == nil && review == nil {
		return
	}
	have := mg.root.Lookup("assistant", "tools")
	old := []*tomlpos.Node{confirm, review}
	keys := []string{"[security].confirm_tools", "[security.auto_approval].tools"}
	short := []string{"confirm", "review"}
	news := []string{"[assistant.tools].confirm", "[assistant.tools].review"}
	forms := make([]written, 2)
	entries := make([][]string, 2)
	for i, n := range old {
		if n == nil {
			continue
		}
		w, ok := mg.writtenOf(n)
		strs, isList := stringsOf(n)
		switch assistant := mg.root.Get("assistant"); {
		case assistant != nil && assistant.Kind != tomlpos.KindTable:
			// assistant = [] or a string: no [assistant.tools] can be
			// written below a value, and which table was meant is a
			// person's call.
			mg.flagAt(keyFrom(n), "%s was removed, and [assistant] is written as a value, not a table: make [assistant] a table, move these entries into %s by hand, then delete this line and this comment", keys[i], news[i])
			return
		case have != nil && (have.Get(short[i]) != nil || !mg.doc.Addable(have)):
			mg.flagAt(keyFrom(n), "%s was removed and [assistant.tools] is already written: move these entries into its %s by hand, then delete this line and this comment", keys[i], news[i])
			return
		case !ok || !isList:
			mg.flagAt(keyFrom(n), "%s was removed: move these entries into %s by hand, then delete this line and this comment", keys[i], news[i])
			return
		}
		forms[i], entries[i] = w, strs
	}

	var flags [2][]string
	qualified := [2][]string{}
	repl := [2]map[int]string{{}, {}}
	for i, list := range entries {
		for j, e := range list {
			q, problem := mg.qualify(e)
			if problem != "" {
				flags[i] = append(flags[i], problem)
			}
			if q != e {
				repl[i][j] = q
				mg.change(old[i], "%q in %s became %q", e, keys[i], q)
			}
			qualified[i] = append(qualified[i], q)
		}
	}
	// The review list the confirm entries meet: the old one, or the one
	// [assistant.tools] already holds.
	reviewed, reviewKey := qualified[1], "[security.auto_approval].tools"
	if review == nil && have != nil {
		reviewed, _ = stringsOf(have.Get("review"))
		reviewKey = "[assistant.tools].review"
	}
	// A tool in both lists, or one a review entry holds whole, went to
	// the reviewer: it leaves confirm.
	plan := &listPlan{}
	plan.list(confirm, keys[0], forms[0].line.Trailing)
	dropped := false
	for j, c := range qualified[0] {
		ce := kokua.ParseEntry(c)
		if r, ok := mg.coveredBy(ce, reviewed); ok {
			dropped = true
			if r == c {
				mg.change(confirm, "%q moved from confirm to review: %s let the reviewer answer for it", c, reviewKey)
			} else {
				mg.change(confirm, "%q moved from confirm to review: %s let the reviewer answer for all of %q, which holds it", c, reviewKey, r)
			}
			plan.drop(itemRef{0, j}, fmt.Sprintf("%q moved to review", c))
			continue
		}
		for _, r := range reviewed {
			if re := kokua.ParseEntry(r); kokua.EntriesOverlap(ce, re) {
				flags[0] = append(flags[0], mg.overlapNote(ce, re, reviewed))
				break
			}
		}
		plan.add(c, itemRef{0, j})
	}

	var kvs []tomledit.Key
	var lead []string // marker comments for the new table as a whole
	if confirm == nil && have == nil {
		lead = append(lead, strings.TrimSuffix(flag("", "%s", "[security].confirm_tools was not written, so Kokua's default list asked you; write confirm = [...] with what should ask you, then delete this comment"), "\n"))
	}
	if confirm != nil {
		text, above := mg.arrayText(confirm, repl[0]), []string(nil)
		if dropped {
			text, above = mg.written(plan, news[0])
		}
		kvs = append(kvs, tomledit.Key{Above: append(above, markers(flags[0])...), Key: "confirm", Value: text, Trailing: forms[0].line.Trailing})
	}
	if review != nil {
		kvs = append(kvs, tomledit.Key{Above: markers(flags[1]), Key: "review", Value: mg.arrayText(review, repl[1]), Trailing: forms[1].line.Trailing})
	}
	mg.writePair(lead, kvs)
	for i, n := range old {
		if n != nil {
			mg.remove(n, forms[i])
			mg.change(n, "%s became %s", keys[i], news[i])
		}
	}
}

// markers writes texts as marker comments, without line ends.
func markers(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = strings.TrimSuffix(flag("", "%s", t), "\n")
	}
	return out
}

// writePair writes the keys of the approval pair into [assistant.tools]
// with the one TOML editor (internal/tomledit), the move the linter's
// removed-key fix makes too: into the [assistant.tools] already there
// (approval checked it can take them), or as a new one in [assistant]'s
// form: inside its braces when inline, as dotted keys after its own when
// made by them, else as a new [assistant.tools] table after [assistant]'s
// keys, above [security], or at the end.
func (mg *migration) writePair(lead []string, kvs []tomledit.Key) {
	if len(kvs) > 0 {
		kvs[0].Above = append(slices.Clone(lead), kvs[0].Above...)
	}
	mg.ed.WriteKeys([]string{"assistant", "tools"}, kvs, tomledit.PairWhere(mg.root))
}

// coveredBy reports the review entry that holds every tool of the confirm
// entry c, if one does: the same entry, or c's whole toolset.
func (mg *migration) coveredBy(c kokua.Entry, reviewed []string) (string, bool) {
	for _, r := range reviewed {
		re := kokua.ParseEntry(r)
		if r == c.Text || kokua.EntriesOverlap(c, re) && re.Whole() && !c.Whole() {
			return r, true
		}
	}
	return "", false
}

// overlapNote says what a person must settle where a confirm entry holds
// a whole toolset some of whose tools the reviewer could answer for: the
// tools of it left to you, when the install says which.
func (mg *migration) overlapNote(c, r kokua.Entry, reviewed []string) string {
	tools, known := mg.toolsIn[c.Toolset]
	var rest []string
	for _, t := range tools {
		if _, ok := mg.coveredBy(kokua.ParseEntry(c.Toolset+"."+t), reviewed); !ok {
			rest = append(rest, c.Toolset+"."+t)
		}
	}
	switch {
	case !known:
		return fmt.Sprintf("%q and review's %q share tools: the reviewer answered for %q and you for %q's other tools; list them one by one here, or keep %q in one list only", c.Text, r.Text, r.Text, c.Text, c.Text)
	case len(rest) == 0:
		return fmt.Sprintf("%q and review's %q share tools: the reviewer answered for every tool %q has in this install, and a tool it gains later would ask you; keep %q in one list only", c.Text, r.Text, c.Text, c.Text)
	}
	return fmt.Sprintf("%q and review's %q share tools: the reviewer answered for %q and you for the rest of %q, which in this install is %s; list them here, or keep %q in one list only", c.Text, r.Text, r.Text, c.Text, and(rest), c.Text)
}

// qualify writes one old approval entry in today's vocabulary: a renamed
// toolset by its new name, and a bare tool name as toolset.tool when
// exactly one toolset (or core) provides it. problem says why an entry
// was left as it is for a person.
func (mg *migration) qualify(e string) (string, string) {
	p := kokua.ParseEntry(e)
	if p.Fault != kokua.EntryOK {
		return e, ""
	}
	ts, rest, dotted := strings.Cut(e, ".")
	if r := renamed(ts); r != ts {
		if dotted {
			return r + "." + rest, ""
		}
		return r, ""
	}
	if dotted || mg.known[ts] {
		return e, ""
	}
	homes := mg.toolsOf[e]
	switch len(homes) {
	case 0:
		return e, ""
	case 1:
		return homes[0] + "." + e, ""
	}
	forms := make([]string, len(homes))
	for i, h := range homes {
		forms[i] = h + "." + e
	}
	return e, fmt.Sprintf("%q is a tool of %s alike, and the old list gated it by name in all of them: write %s, then delete this comment", e, and(homes), and(forms))
}
