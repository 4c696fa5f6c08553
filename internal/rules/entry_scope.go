package rules

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// entry-scope: an approval entry naming a toolset outside its reach. A
// declared pair may name only its agent's toolsets (R74); the default pair
// and the floor only toolsets some agent declares (R75). Inherited default
// entries are never checked per agent (R76).
var entryScopeRule = &Rule{
	ID:       "entry-scope",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R123", "R74", "R75", "R76", "A4", "A5", "A9"},
	Summary:  "an approval entry names a toolset its agent (or every agent) does not declare",
	Needs:    NeedsWorld,
	Fixes:    SafeFixes | UnsafeFixes,
	Check: func(p *Pass) {
		// With no agent read (no [agents.<name>] table, or [agents]
		// written as an array of tables or a value), no-agents or
		// wrong-type says why, at parse, where Kokua stops before approval
		// entries are checked at validate. Scope cannot be judged without
		// agents: every entry would name a toolset "no agent declares", a
		// cascade of that one problem, not a finding the linter can make
		// (R207 asks for every finding it can). The built-in pair is left
		// out the same way (builtinPair.report).
		// An agent written as something other than a table
		// ([[agents.coder]]) may hold the toolset, and which it holds
		// cannot be read: the same cascade, so the same silence.
		if len(p.Config.Agents) == 0 || len(p.Config.Unreadable) > 0 {
			return
		}
		w := p.World
		var builtin builtinPair
		for _, l := range approvalLists(w) {
			for _, it := range l.Items {
				r := w.Resolve(it.Value)
				if r.Shape() || inScope(w, l, r) {
					continue
				}
				t := r.Toolset.Name
				if l.Policy != nil && l.Policy.Agent != nil {
					a := l.Policy.Agent
					why := fmt.Sprintf("which agent %s does not declare", q(a.Name))
					more := notes("a declared pair may name only the toolsets its agent declares in available")
					fix := fmt.Sprintf("add %s to %s.available, or drop the entry", tomlName(t), l.Policy.Table())
					// A worker never holds an entry_point_only toolset: "all"
					// leaves it out, and a list naming it is refused (R52,
					// R60, R119). Adding it to available would not help.
					if r.Toolset.EntryPointOnly && !a.Entry {
						why = "which only the entry agent can hold"
						never := fmt.Sprintf("agent %s never holds it", q(a.Name))
						switch {
						case a.All:
							never += `: available = "all" leaves it out on a worker`
						case a.Tools != nil && slices.ContainsFunc(a.Tools.Available.Items, func(s config.Str) bool { return s.Value == t }):
							never += ", though its available list names it"
						}
						more = notes(never)
						fix = "drop the entry"
					}
					p.Report(Finding{Span: it.Span, Key: l.Path,
						Message: fmt.Sprintf("%s has an entry that %s: %s names toolset %s, %s",
							l.Path, l.effect(), q(it.Value), q(t), why),
						Notes:      more,
						Suggestion: fix})
					continue
				}
				if l.Builtin {
					builtin.add(l, it.Value, t)
					continue
				}
				// Declaring the toolset comes first in the help: dropping
				// the entry, then declaring the toolset, would leave its
				// tools ungated.
				if w.Composable(t) {
					// Composed workers can build it: Kokua refuses the
					// entry all the same (R75, A4), and "builds no tools"
					// would be false. Say how to get out.
					p.Report(Finding{Span: it.Span, Key: l.Path,
						Suggestion: fmt.Sprintf("list %s in the available list of the agent that should hold it and keep the entry, or drop capabilities so that no agent composes workers; dropping the entry alone leaves composed workers' calls to it unasked", q(t)),
						Message: fmt.Sprintf("%s has an entry Kokua refuses: %s names toolset %s, which no agent declares",
							l.Path, q(it.Value), q(t)),
						Notes: notes(composedHold(t), composedWaysOut(t))})
					continue
				}
				p.Report(Finding{Span: it.Span, Key: l.Path,
					Suggestion: fmt.Sprintf("list %s in the available list of the agent that should hold it, or drop the entry", q(t)),
					Message: fmt.Sprintf("%s has an entry that %s: %s names toolset %s, which no agent declares",
						l.Path, l.effect(), q(it.Value), q(t)),
					Notes: notes("a toolset no agent declares builds no tools, so the entry holds nothing back")})
			}
		}
		builtin.report(p)
		builtin.reportFloor(p)
	},
}

// reportFloor writes the one finding of the built-in floor's entries that
// name a toolset no agent declares: the file writes no
// [security].never_auto_approve and enables auto-approval, so Kokua
// applies its own (R2, R86, R75). It is one problem with one fix, writing
// the key, so it is one finding, at what makes the floor apply, that
// names the key, where it goes and what the floor holds.
func (b *builtinPair) reportFloor(p *Pass) {
	n := len(b.floor)
	if n == 0 {
		return
	}
	floor := p.World.Config.Floor
	what := fmt.Sprintf("%d of its entries name toolsets no agent declares", n)
	hold := fmt.Sprintf("Toolsets no agent declares (%s) build no tools, so %s hold nothing back.", andList(b.floorToolsets), andList(b.floor))
	if n == 1 {
		what = "1 of its entries names a toolset no agent declares"
		hold = fmt.Sprintf("A toolset no agent declares (%s) builds no tools, so %s holds nothing back.", andList(b.floorToolsets), q(b.floor[0]))
	}
	var waysOut []string
	if held := composedHeld(p, b.floorToolsets); held != nil {
		hold, waysOut = held[0], held[1:]
	}
	var keep []string
	for _, v := range floor.Values() {
		if !slices.Contains(b.floor, v) {
			keep = append(keep, v)
		}
	}
	f := Finding{Span: floor.Span, Key: floor.Path,
		Message:    "auto-approval is on and no [security].never_auto_approve is written, so Kokua's built-in floor applies, and " + what,
		Notes:      append([]string{fmt.Sprintf("The built-in floor is never_auto_approve = [%s].", tomlStrings(floor.Values())), hold, floorWhy}, waysOut...),
		Suggestion: fmt.Sprintf("%s, with the entries you want; the built-in floor without these is never_auto_approve = [%s]", writeFloor, tomlStrings(keep))}
	// The fix takes the entries off the floor: it waits while a reading
	// of an unresolved name declares their toolsets (readings.go).
	if wait := p.waits(b.floorToolsets); wait != "" {
		f.Notes = append(f.Notes, wait)
	} else {
		f.Fixes = p.floorFix(keep, waysOut == nil && !mayCompose(p))
	}
	p.Report(f)
}

// floorFix writes never_auto_approve with the built-in floor's entries
// that hold something back, which Kokua then applies in place of its own,
// into [security] as the file writes it (internal/tomledit): after the
// keys of a [security] header; under a [security] header of its own
// written above [security.auto_approval] when the file has none; in the
// braces of a [security] written as an inline table, or as a dotted key
// after those that make it. It is safe: the entries left out name
// toolsets no agent declares, which build no tools, so no call asks less
// than before (and it is not offered while a reading of an unresolved
// name declares one: readings.go). When composed workers could hold one
// of the toolsets left out, they would call its tools through a floor
// without the entry, so the fix is unsafe (safe is false): the ways out
// the finding gives are the choice to make.
func (p *Pass) floorFix(keep []string, safe bool) []diag.Fix {
	value := "[" + tomlStrings(keep) + "]"
	e := p.edit()
	if !e.WriteKeys([]string{"security"}, []tomledit.Key{{Key: "never_auto_approve", Value: value}}, tomledit.Where{}) {
		return nil
	}
	return []diag.Fix{{Title: "Write never_auto_approve = " + value + " in [security]", Safe: safe, Edits: e.Done()}}
}

// builtinPair gathers the entries of Kokua's built-in default pair, which
// applies when the file has no [assistant.tools] table (R9, A2), and of its
// built-in floor, which applies when auto-approval is enabled and the file
// writes no [security].never_auto_approve (R2, R86), that name a toolset
// no agent declares. They are one problem with one fix, writing
// the table, so they make one finding.
type builtinPair struct {
	confirm, review, toolsets []string
	// floor and floorToolsets are the same for the built-in floor.
	floor, floorToolsets []string
	// out marks the entries gathered, to write the table without them.
	out map[string]bool
}

func (b *builtinPair) add(l approvalList, entry, toolset string) {
	if l.floor() {
		b.floor = append(b.floor, entry)
		if !slices.Contains(b.floorToolsets, toolset) {
			b.floorToolsets = append(b.floorToolsets, toolset)
		}
		return
	}
	if b.out == nil {
		b.out = map[string]bool{}
	}
	b.out[l.Path+"\x00"+entry] = true
	if l.Policy.Review.Path == l.Path {
		b.review = append(b.review, entry)
	} else {
		b.confirm = append(b.confirm, entry)
	}
	if !slices.Contains(b.toolsets, toolset) {
		b.toolsets = append(b.toolsets, toolset)
	}
}

// report writes the one finding, after the file's own problems: at the end
// of the file, where the table it asks for can be pasted. It writes none
// when the file's own problems explain it and stop Kokua at parse, before
// the pair is ever checked at validate: a file with no agents (R114), or
// one still writing the old approval list that the table replaces (R102,
// R103).
func (b *builtinPair) report(p *Pass) {
	n := len(b.confirm) + len(b.review)
	if n == 0 {
		return
	}
	cfg := p.Config
	security := cfg.Root.Get("security")
	if len(cfg.Agents) == 0 || security.Get("confirm_tools") != nil || security.Get("auto_approval").Get("tools") != nil {
		return
	}
	def := p.World.Default
	var lists []string
	for _, l := range []struct {
		path    string
		entries []string
	}{{def.Confirm.Path, b.confirm}, {def.Review.Path, b.review}} {
		if len(l.entries) > 0 {
			lists = append(lists, fmt.Sprintf("%s %s", l.path, andList(l.entries)))
		}
	}
	what := fmt.Sprintf("%d of its entries name toolsets no agent declares", n)
	entries := "The entries: " + strings.Join(lists, "; ") + "."
	if n == 1 {
		what = "1 of its entries names a toolset no agent declares"
		entries = "The entry: " + strings.Join(lists, "; ") + "."
	}
	toolsets := "Toolsets no agent declares build no tools and hold nothing back: " + andList(b.toolsets) + "."
	if len(b.toolsets) == 1 {
		toolsets = "A toolset no agent declares builds no tools and holds nothing back: " + q(b.toolsets[0]) + "."
	}
	var waysOut []string
	if held := composedHeld(p, b.toolsets); held != nil {
		toolsets, waysOut = held[0], held[1:]
	}
	keep := func(l config.List) string {
		var out []string
		for _, it := range l.Items {
			if !b.out[l.Path+"\x00"+it.Value] {
				out = append(out, it.Value)
			}
		}
		return "[" + tomlStrings(out) + "]"
	}
	f := Finding{Span: endOfFile(cfg), Key: "[assistant.tools]",
		Message: "the file has no [assistant.tools] table, so Kokua applies its built-in default pair, and " + what,
		Notes:   append([]string{toolsets, entries}, waysOut...),
		Suggestion: fmt.Sprintf("%s with the entries you want; the built-in pair without these is confirm = %s and review = %s",
			pairPlace(cfg.Root.Get("assistant")), keep(def.Confirm), keep(def.Review))}
	// The fix drops the entries from the pair: it waits while a reading
	// of an unresolved name declares their toolsets (readings.go).
	if wait := p.waits(b.toolsets); wait != "" {
		f.Notes = append(f.Notes, wait)
	} else {
		f.Fixes = b.pairFix(p, keep(def.Confirm), keep(def.Review), waysOut == nil && !mayCompose(p))
	}
	p.Report(f)
}

// pairPlace says where the [assistant.tools] table goes in a file that
// writes assistant as the node a says.
func pairPlace(a *tomlpos.Node) string {
	switch {
	case a.Inline():
		return "add tools = { confirm = [...], review = [...] } inside the braces of assistant = { ... },"
	case a.Dotted():
		return "add assistant.tools.confirm = [...] and assistant.tools.review = [...] after the dotted keys that make [assistant],"
	}
	return "paste an [assistant.tools] table at the end of the file"
}

// pairFix writes the [assistant.tools] table the finding asks for,
// holding the built-in pair without the entries that hold nothing back:
// at the end of the file, or in an [assistant] written as an inline table
// or as dotted keys, in its form, next to its other keys
// (internal/tomledit). It is safe for the same reason as floorFix: no
// call asks less than before; and unsafe (safe is false) for the same
// reason too, when composed workers could hold a toolset left out: their
// calls to it would run unasked.
func (b *builtinPair) pairFix(p *Pass, confirm, review string, safe bool) []diag.Fix {
	e := p.edit()
	keys := []tomledit.Key{{Key: "confirm", Value: confirm}, {Key: "review", Value: review}}
	if !e.WriteKeys([]string{"assistant", "tools"}, keys, tomledit.Where{End: true}) {
		return nil
	}
	return []diag.Fix{{Title: "Write the [assistant.tools] table: confirm = " + confirm + ", review = " + review, Safe: safe, Edits: e.Done()}}
}

// endOfFile is the position just after the file's last character that is
// not white space.
func endOfFile(cfg *config.Config) diag.Span {
	end := len(bytes.TrimRight(cfg.Source, " \t\r\n"))
	return cfg.Lines.Span(end, end)
}

// composedHold says what composed workers hold of toolset t, a toolset no
// declared agent lists, when some agent Kokua builds can compose them
// (model.World.Composable).
func composedHold(t string) string {
	return fmt.Sprintf("composed workers hold every registered toolset but capabilities and entry-point-only ones, and get [assistant.tools]'s pair, so they can build %s and call its tools, unasked unless that pair gates them; but an entry there must name a toolset a declared agent lists", q(t))
}

// composedWaysOut is the ways out Kokua allows for an entry on toolset t
// that composed workers hold and no declared agent lists: the entry stays
// refused until one is taken (docs/readings.md).
func composedWaysOut(t string) string {
	return fmt.Sprintf("the ways out Kokua allows: declare %s on the agent that should hold it (its available list) and keep this entry, which then holds for composed workers too; or drop capabilities from every agent Kokua builds, so that no agent composes workers", q(t))
}

// composedHeld is, for toolsets no agent declares that the built-in pair
// or floor names, what to say when composed workers can build some of
// them (model.World.Composable): "builds no tools" would be false. It is
// the note on what composed workers hold and the ways out, or nil when
// they hold none of them.
func composedHeld(p *Pass, toolsets []string) []string {
	var held []string
	for _, t := range toolsets {
		if p.World.Composable(t) {
			held = append(held, t)
		}
	}
	if held == nil {
		return nil
	}
	return notes(
		fmt.Sprintf("no agent declares %s, so Kokua refuses the entries on them; composed workers still hold %s and can call their tools, unasked unless a pair Kokua accepts gates them", andList(toolsets), andList(held)),
		"the ways out Kokua allows: declare them on the agents that should hold them (their available lists) and keep the entries, which then hold for composed workers too; or drop capabilities from every agent Kokua builds, so that no agent composes workers")
}

// mayCompose reports whether some agent holds capabilities, whether or
// not Kokua builds it now: once a name the linter cannot resolve is
// corrected (the entry agent, a delegate), that agent may be built and
// compose workers holding the toolsets a fix leaves ungated, so a fix
// that drops gates is not safe in every reading.
func mayCompose(p *Pass) bool { return len(p.World.Loaders(kokua.Capabilities)) > 0 }
