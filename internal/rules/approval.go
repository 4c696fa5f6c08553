package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// This file is not a check: it holds what the approval-entry checks share.

// approvalList is one list of approval entries and what governs it.
type approvalList struct {
	config.List
	// Policy is the pair the list belongs to; nil for the floor.
	Policy *model.Policy
}

// floor reports whether the list is [security].never_auto_approve.
func (l approvalList) floor() bool { return l.Policy == nil }

// effect is what a dead entry of this list fails to do (R34).
func (l approvalList) effect() string {
	if l.floor() {
		return "would hold nothing back"
	}
	return "would gate nothing"
}

// remedy says what a dead entry of this list costs (R34).
func (l approvalList) remedy() string {
	if l.floor() {
		return "an entry matching no tool holds nothing back from a reviewer that can approve it"
	}
	return "the call it was written to stop runs with no prompt"
}

// builtinFloor is what a finding about an entry of Kokua's built-in floor
// says of it, since the user never wrote the list (R2, R86): the key that
// replaces it, where it goes, and what the floor holds.
func builtinFloor(floor config.List) string {
	return fmt.Sprintf("Kokua's built-in floor, which applies when auto-approval is enabled and the file writes no [security].never_auto_approve, is never_auto_approve = [%s].",
		tomlStrings(floor.Values()))
}

// writeFloor is where the key that replaces the built-in floor goes.
const writeFloor = "write never_auto_approve in the [security] table (add a [security] header above [security.auto_approval] if the file has none)"

// dropFromFloor is the suggestion of a review entry that reaches the floor
// entry reached (review-reaches-floor, build-floor): drop it from review,
// or the other from the floor, which for the built-in floor means writing
// the key.
func dropFromFloor(floor config.List, reached string) string {
	if floor.Builtin {
		return "drop the entry from review, or (knowingly) " + writeFloor + " without " + q(reached)
	}
	return "drop the entry from review, or (knowingly) from never_auto_approve"
}

// builtinNotes are the notes a finding about an entry of list adds when
// the list is the built-in floor: what it holds (builtinFloor); none
// otherwise.
func builtinNotes(l approvalList) []string {
	if l.floor() && l.Builtin {
		return []string{builtinFloor(l.List)}
	}
	return nil
}

// approvalLists returns every list of entries Kokua checks: the default
// pair, each declared pair, and the floor when auto-approval is enabled
// (R122, R86, R145).
func approvalLists(w *model.World) []approvalList {
	var out []approvalList
	for _, p := range w.Policies() {
		out = append(out, approvalList{List: p.Confirm, Policy: p}, approvalList{List: p.Review, Policy: p})
	}
	if w.Config.Auto.Enabled {
		out = append(out, approvalList{List: w.Config.Floor})
	}
	return out
}

// inScope reports whether a list may name the toolset (R74, R75): a
// declared pair only its agent's toolsets, the default pair and the floor
// any toolset some agent declares. It reports true when that cannot be
// decided because some availability could not be read.
func inScope(w *model.World, l approvalList, r model.Resolution) bool {
	if r.Toolset == nil {
		return true // core, or a shape fault reported elsewhere
	}
	if l.Policy != nil && l.Policy.Agent != nil {
		a := w.Agent(l.Policy.Agent.Name)
		return !a.Known || a.Holds(r.Toolset.Name)
	}
	for _, a := range w.Agents {
		if !a.Known || a.Holds(r.Toolset.Name) {
			return true
		}
	}
	return false
}

// deadEntry is an approval entry that matches no tool.
type deadEntry struct {
	list approvalList
	item config.Str
	r    model.Resolution
}

// fixes rewrite the entry to each one it can have meant. Each is safe: the
// entry gated nothing, and the rewritten one gates a tool. Dropping the
// entry instead is left to the user: a pending entry's toolset would then
// load with a gate fewer than its author wrote.
func (d deadEntry) fixes(p *Pass) []diag.Fix {
	if d.list.Builtin {
		return nil
	}
	return p.rewrites(d.item.Span, true, entryCandidates(d.r)...)
}

// suggestion is what to do about a dead entry: write it as one it can have
// meant (fixFor), or, for an entry of the built-in floor, which the file
// does not write, write the key without it.
func (d deadEntry) suggestion() string {
	if d.list.floor() && d.list.Builtin {
		return writeFloor + ", with the entries you want"
	}
	return fixFor(d.r)
}

// deadEntries returns the entries of every list that match no tool, found
// at the given time: at startup for an entry Kokua resolves at startup
// (R120, R131), at the first build of its toolset for a pending one (R121,
// R146). An entry outside its list's scope is left to entry-scope.
//
// At startup an entry naming an MCP server the manifest marks
// "connected": false is dead too, since the server builds empty (R132). A
// server the manifest does not describe is unknown, not known to be down
// (R166), and mcp-disconnected says so; a pending server that is not
// connected has its load refused instead (R149).
func deadEntries(w *model.World, found model.When) []deadEntry {
	undescribed := map[*model.Toolset]bool{}
	for _, t := range w.UndescribedMCP {
		undescribed[t] = true
	}
	var out []deadEntry
	for _, l := range approvalLists(w) {
		for _, it := range l.Items {
			r := w.Resolve(it.Value)
			dead := r.Dead() ||
				(found == model.AtStartup && r.Status == model.Disconnected && !undescribed[r.Toolset])
			if dead && r.Resolved() == found && inScope(w, l, r) {
				out = append(out, deadEntry{list: l, item: it, r: r})
			}
		}
	}
	return out
}

// deadFault writes why a dead entry matches nothing, in the forms of R131,
// and what follows it as notes: the close matches, or why a core tool is
// missing. When the message has just named the toolset (pending-dead-entry:
// "once 'mcp' is built"), named shortens R131's "names no tool the 'mcp'
// toolset provides" to "names no tool 'mcp' provides".
func deadFault(r model.Resolution, named bool) (fault string, more []string) {
	e := r.Entry
	switch {
	case r.Status == model.NoTools && e.IsCore():
		return fmt.Sprintf("%s names the core tools, and none exists in this config", q(e.Text)), nil
	case r.Status == model.NoTools:
		return fmt.Sprintf("%s names the %s toolset, which provides no tools", q(e.Text), q(r.Toolset.Name)),
			notes("so there is nothing under it to hold back")
	case r.Status == model.Disconnected:
		return fmt.Sprintf("%s names the MCP server %s, which is not connected and builds empty", q(e.Text), q(r.Toolset.Name)), nil
	case len(r.Homes) > 0:
		return fmt.Sprintf("%s is filed under the wrong toolset", q(e.Text)),
			notes(fmt.Sprintf("%s comes from %s", q(e.Tool), orList(r.Homes)))
	case e.IsCore():
		return fmt.Sprintf("%s names no core tool that exists in this config", q(e.Text)), notes(coreWhy(e.Tool), didYouMeanNote(r.Close))
	}
	if named {
		return fmt.Sprintf("%s names no tool %s provides", q(e.Text), q(r.Toolset.Name)), notes(didYouMeanNote(r.Close))
	}
	return fmt.Sprintf("%s names no tool the %s toolset provides", q(e.Text), q(r.Toolset.Name)), notes(didYouMeanNote(r.Close))
}

// coreWhy says when a core tool exists, or nothing.
func coreWhy(tool string) string {
	switch tool {
	case kokua.SpawnSubagent:
		return "spawn_subagent exists only when some agent has a non-empty delegates_to"
	case kokua.ActivateSkill:
		return "activate_skill exists only when a skill is installed"
	case kokua.AvailableTools, kokua.LoadTools:
		return tool + " exists only when some agent defers a toolset"
	}
	return ""
}

// fixFor suggests the corrected entry for a dead or misfiled one.
func fixFor(r model.Resolution) string {
	switch {
	case len(r.Homes) > 0:
		return "write " + listed(r.Homes, tomlName, "or")
	case len(r.Close) > 0 && r.Entry.Tool != "":
		return "write " + tomlName(r.Entry.Toolset+"."+r.Close[0])
	case len(r.Close) > 0:
		return "write " + tomlName(r.Close[0])
	}
	return "fix or drop the entry"
}

// loaders names the agents that could build any of the toolsets, so
// whose builds a pending entry would refuse: the agents holding one that
// Kokua builds, and composed workers when an agent it builds can compose
// one with it (R206, R43, R77). An agent nothing reaches by delegates_to
// is never built, so it is named only to say why no agent could. It is a
// note: "Agents that could load it: 'assistant', composed workers.", its
// names bounded as listed bounds them.
//
// A rule asks about the same toolsets for many entries, and each answer
// looks at every agent, so a rule asks through a loaderNotes, which
// answers each set of toolsets once.
func loaders(w *model.World, toolsets ...string) string {
	var names, idle []string
	seen := map[string]bool{}
	composed := false
	for _, t := range toolsets {
		for _, a := range w.Loaders(t) {
			if seen[a.Name] {
				continue
			}
			seen[a.Name] = true
			// Without an entry agent nothing is reached, and which agents
			// Kokua would build cannot be told: name every holder.
			if a.Reachable || w.EntryAgent == nil {
				names = append(names, q(a.Name))
			} else {
				idle = append(idle, a.Name)
			}
		}
		composed = composed || w.Composable(t)
	}
	it := "it"
	if len(toolsets) > 1 {
		it = "them"
	}
	head := "Agents that could load " + it + ": "
	switch {
	case len(names) > 0 && composed:
		return head + listed(names, plain, "") + ", composed workers."
	case len(names) > 0:
		return head + listed(names, plain, "") + "."
	case composed:
		return head + "composed workers."
	case len(idle) == 1:
		return head + fmt.Sprintf("none, since Kokua never builds %s, the one agent holding %s: no chain of delegates_to from the entry agent reaches it.", q(idle[0]), it)
	case len(idle) > 1:
		return head + fmt.Sprintf("none, since Kokua never builds %s, the agents holding %s: no chain of delegates_to from the entry agent reaches them.", andList(idle), it)
	}
	return head + "none."
}

// loaderNotes answers loaders once for each set of toolsets, for the
// findings of one rule.
type loaderNotes struct {
	w    *model.World
	done map[string]string
}

func newLoaderNotes(w *model.World) *loaderNotes {
	return &loaderNotes{w: w, done: map[string]string{}}
}

// note is loaders(w, toolsets...), computed at its first call.
func (l *loaderNotes) note(toolsets ...string) string {
	key := strings.Join(toolsets, "\x00")
	s, ok := l.done[key]
	if !ok {
		s = loaders(l.w, toolsets...)
		l.done[key] = s
	}
	return s
}
