package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// declared-pair-drops-gates: an agent declares its own pair, which
// replaces [assistant.tools] whole (R10, R11), and so drops a gate the
// default pair held on a tool of class exec, write or self-modify that the
// agent can call: the tool now runs unasked. "The pair is inherited
// whole" (tool-access.md): the user may have meant to add a gate, not to
// drop the others. The finding is at the declared key; its fix repeats
// the dropped entries in the same lists of the declared pair, which only
// adds gates (safe).
var declaredPairDropsGatesRule = &Rule{
	ID:       "declared-pair-drops-gates",
	Severity: diag.Warning,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R10", "R11"},
	Summary:  "an agent's declared pair drops a gate the default pair holds on an exec, write or self-modify tool",
	Needs:    NeedsWorld,
	Fixes:    SafeFixes,
	Check: func(p *Pass) {
		w := p.World
		for _, a := range w.Agents {
			if !a.Known || a.Policy == nil || a.Policy.Agent == nil || a.Tools == nil {
				continue
			}
			p.dropsGates(a)
		}
	},
}

// dropped is one default-pair entry whose gate an agent's declared pair
// drops, with the tools it held that now run unasked.
type dropped struct {
	entry, list string
	tools       []string
}

// gatesOf are the tool names a list's entries hold: approval entries gate
// a tool name, whichever toolset offers it.
func gatesOf(w *model.World, l config.List) map[string]bool {
	out := map[string]bool{}
	for _, it := range l.Items {
		r := w.Resolve(it.Value)
		for _, t := range r.Tools {
			out[t] = true
		}
	}
	return out
}

func (p *Pass) dropsGates(a *model.Agent) {
	w := p.World
	declared := gatesOf(w, a.Policy.Confirm)
	for t := range gatesOf(w, a.Policy.Review) {
		declared[t] = true
	}
	var drops []dropped
	var classes []string
	// toolGrade and pathGrade are what kokua-compile diff gives the change:
	// each tool that now runs unasked is a widened tool (reach.ToolGrade),
	// and a risk path ending at one is graded by reach.EndGrade at the
	// level untrusted content reaches the agent, which the linter does not
	// follow; with no user in the way, it is the tool's own level, runs.
	toolGrade, pathGrade := reach.NoGrade, reach.NoGrade
	for _, l := range []struct {
		name string
		list config.List
	}{{"confirm", w.Default.Confirm}, {"review", w.Default.Review}} {
		for _, it := range l.list.Items {
			r := w.Resolve(it.Value)
			if r.Toolset == nil || !a.Holds(r.Toolset.Name) {
				continue
			}
			var tools []string
			for _, t := range r.Tools {
				cs := r.Toolset.ToolClasses(t)
				gated := slices.ContainsFunc(cs, func(c kokua.Class) bool {
					return c == kokua.Exec || c == kokua.Write || c == kokua.SelfModify
				})
				if gated && !declared[t] {
					tools = append(tools, t)
					toolGrade, pathGrade = max(toolGrade, reach.ToolGrade(cs)), max(pathGrade, reach.EndGrade(cs, reach.Runs))
					for _, c := range cs {
						if s := string(c); (c == kokua.Exec || c == kokua.Write || c == kokua.SelfModify) && !slices.Contains(classes, s) {
							classes = append(classes, s)
						}
					}
				}
			}
			if len(tools) > 0 {
				drops = append(drops, dropped{entry: it.Value, list: l.name, tools: tools})
			}
		}
	}
	if len(drops) == 0 {
		return
	}
	at := a.Tools.Confirm
	if at.State != config.Present {
		at = a.Tools.Review
	}
	span := at.Key
	if span.IsZero() {
		span = at.Span
	}
	var tools, entries []string
	for _, d := range drops {
		tools = append(tools, d.tools...)
		entries = append(entries, fmt.Sprintf("%s (%s)", q(d.entry), d.list))
	}
	table := config.TablePath([]string{"agents", a.Name, "tools"})
	f := Finding{
		Span: span, Key: at.Path,
		Message: fmt.Sprintf("%s's own pair replaces %s whole, so %d %s %s no longer gated for %s and now run unasked",
			table, kokua.DefaultTierLabel, len(tools), plural(len(tools), "tool", "tools"), plural(len(tools), "is", "are"), q(a.Name)),
		Suggestion: fmt.Sprintf("repeat the default pair's %s in %s, or say why dropping them is meant", listed(entries, plain, "and"), table),
		Notes: notes(fmt.Sprintf("No longer gated: %s (%s).", andList(tools), strings.Join(classes, ", ")),
			"The pair is inherited whole: an agent that writes confirm or review writes its whole policy, and a key it leaves out is empty (tool-access.md, The pair is inherited whole).",
			fmt.Sprintf("A diff of the change grades %s %s (kokua-compile diff), and a risk path to %s %s where untrusted content reaches %s with no user in the way; kokua-compile risks lists what untrusted content can reach through %s.",
				plural(len(tools), "the tool", "each tool"), toolGrade, plural(len(tools), "it", "them"), pathGrade, q(a.Name), plural(len(tools), "it", "them"))),
	}
	// The fix repeats what the pair does not gate; while an entry of the
	// pair gates nothing for want of a fix its own finding offers (a bare
	// tool name, a misspelt one), that entry, written as its help says,
	// may gate what the fix would add, and both made would fight (a tool
	// in confirm and review at once). It waits for that entry.
	if unresolved := unresolvedEntries(w, a.Policy.Confirm, a.Policy.Review); len(unresolved) > 0 {
		n := len(unresolved)
		f.Notes = append(f.Notes, fmt.Sprintf("No fix is offered yet: %s in %s %s nothing now, but written as %s help says %s may gate a tool the fix would repeat, and the two fixes would fight. Resolve %s first; the finding is then judged again.",
			andList(unresolved), table, plural(n, "gates", "gate"), plural(n, "its", "their"), plural(n, "it", "they"), plural(n, "it", "them")))
	} else {
		f.Fixes = p.repeatEntries(a, drops)
	}
	p.Report(f)
}

// unresolvedEntries are the entries of the lists that gate no tool but
// could, written as their finding's fix writes them: a bare tool name, a
// misfiled or misspelt entry.
func unresolvedEntries(w *model.World, lists ...config.List) []string {
	var out []string
	for _, l := range lists {
		for _, it := range l.Items {
			if r := w.Resolve(it.Value); len(r.Tools) == 0 && (len(shapeCandidates(r)) > 0 || len(entryCandidates(r)) > 0) {
				out = append(out, it.Value)
			}
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// repeatEntries is the fix: the dropped entries written into the declared
// pair's list of the same name, at the end of its array in the array's
// layout, or as a new key of the agent's tools table, in the form the file
// gives that table, when the pair does not write it (internal/tomledit).
// An entry whose tools the other declared list holds is left out (it
// would put one tool in both lists). It only adds gates, so it is safe.
func (p *Pass) repeatEntries(a *model.Agent, drops []dropped) []diag.Fix {
	w := p.World
	lists := map[string]config.List{"confirm": a.Tools.Confirm, "review": a.Tools.Review}
	table := p.Config.Root.Lookup("agents", a.Name, "tools")
	e := p.edit()
	made := false
	for _, name := range []string{"confirm", "review"} {
		other := "review"
		if name == "review" {
			other = "confirm"
		}
		otherTools := gatesOf(w, lists[other])
		var add []string
		for _, d := range drops {
			if d.list != name || slices.Contains(add, d.entry) {
				continue
			}
			if slices.ContainsFunc(w.Resolve(d.entry).Tools, func(t string) bool { return otherTools[t] }) {
				continue
			}
			add = append(add, d.entry)
		}
		if len(add) == 0 {
			continue
		}
		items := make([]string, len(add))
		for i, entry := range add {
			items[i] = tomlString(entry)
		}
		switch list := table.Get(name); {
		case list != nil && lists[name].State == config.Present:
			if !e.Append(list, items) {
				return nil
			}
		case list == nil:
			if !e.AddKeys(table, []tomledit.Key{{Key: name, Value: "[" + strings.Join(items, ", ") + "]"}}) {
				return nil
			}
		default:
			return nil
		}
		made = true
	}
	if !made {
		return nil
	}
	// It reads the default pair and writes the agent's.
	return []diag.Fix{{Title: "Repeat the default pair's dropped entries in the declared pair", Safe: true, Edits: e.Done(),
		Touches: []string{config.TablePath([]string{"agents", a.Name, "tools"}), "[assistant.tools]"}}}
}
