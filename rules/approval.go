package rules

import (
	"fmt"
	"strings"

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

// deadFault writes why a dead entry matches nothing, in the forms of R131.
func deadFault(r model.Resolution) string {
	e := r.Entry
	switch {
	case r.Status == model.NoTools && e.IsCore():
		return fmt.Sprintf("%s names the core tools, and none exists in this config", q(e.Text))
	case r.Status == model.NoTools:
		return fmt.Sprintf("%s names the %s toolset, which provides no tools, so there is nothing under it to hold back", q(e.Text), q(r.Toolset.Name))
	case r.Status == model.Disconnected:
		return fmt.Sprintf("%s names the MCP server %s, which is not connected and builds empty", q(e.Text), q(r.Toolset.Name))
	case len(r.Homes) > 0:
		return fmt.Sprintf("%s is filed under the wrong toolset: %s comes from %s", q(e.Text), q(e.Tool), orList(r.Homes))
	case e.IsCore():
		return fmt.Sprintf("%s names no core tool that exists in this config%s%s", q(e.Text), coreWhy(e.Tool), didYouMean(r.Close))
	}
	return fmt.Sprintf("%s names no tool the %s toolset provides%s", q(e.Text), q(r.Toolset.Name), didYouMean(r.Close))
}

func coreWhy(tool string) string {
	switch tool {
	case kokua.SpawnSubagent:
		return " (spawn_subagent exists only when some agent has a non-empty delegates_to)"
	case kokua.ActivateSkill:
		return " (activate_skill exists only when a skill is installed)"
	case kokua.AvailableTools, kokua.LoadTools:
		return " (" + tool + " exists only when some agent defers a toolset)"
	}
	return ""
}

// fixFor suggests the corrected entry for a dead or misfiled one.
func fixFor(r model.Resolution) string {
	switch {
	case len(r.Homes) > 0:
		return "write " + orList(r.Homes)
	case len(r.Close) > 0 && r.Entry.Tool != "":
		return "write " + q(r.Entry.Toolset+"."+r.Close[0])
	case len(r.Close) > 0:
		return "write " + q(r.Close[0])
	}
	return "fix or drop the entry"
}

// loaders names the agents whose builds of a toolset a pending entry would
// refuse, and composed workers when some agent can compose (R206).
func loaders(w *model.World, toolset string) string {
	var names []string
	for _, a := range w.Loaders(toolset) {
		names = append(names, q(a.Name))
	}
	if w.Composes {
		names = append(names, "composed workers")
	}
	if len(names) == 0 {
		return "no agent"
	}
	return strings.Join(names, ", ")
}

// overlap is a tool two entries of different lists would both hold.
type overlap struct {
	first, second config.Str
	// textual: the entries' text settles the overlap without a build (R87).
	textual bool
	// tools are the shared tool names, when a build reveals them.
	tools []string
	// pending are the toolsets whose build reveals the overlap; empty when
	// startup already does (R88).
	pending []string
}

// overlaps finds every pair of entries, one from each list, that would
// hold a tool in common (R84, R87, R88, R35: entries match tool names).
func overlaps(w *model.World, first, second config.List) []overlap {
	var out []overlap
	for _, x := range first.Items {
		rx := w.Resolve(x.Value)
		if rx.Shape() {
			continue
		}
		for _, y := range second.Items {
			ry := w.Resolve(y.Value)
			if ry.Shape() {
				continue
			}
			if kokua.EntriesOverlap(rx.Entry, ry.Entry) {
				o := overlap{first: x, second: y, textual: true}
				if !rx.Pending && !ry.Pending {
					o.tools = intersect(rx.Tools, ry.Tools) // known at startup: name them
				}
				out = append(out, o)
				continue
			}
			shared := intersect(rx.Tools, ry.Tools)
			if len(shared) == 0 {
				continue
			}
			o := overlap{first: x, second: y, tools: shared}
			for _, r := range []model.Resolution{rx, ry} {
				if r.Toolset != nil && r.Pending {
					o.pending = append(o.pending, r.Toolset.Name)
				}
			}
			out = append(out, o)
		}
	}
	return out
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if x == y {
				out = append(out, x)
				break
			}
		}
	}
	return out
}
