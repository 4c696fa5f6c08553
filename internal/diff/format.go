package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// Formats are the formats Write takes.
var Formats = []string{"human", "markdown", "json"}

// Write writes a report in one of Formats: human (for a terminal),
// markdown (for a pull-request comment or a job summary) or json (one
// object, the Report's fields).
func Write(w io.Writer, format string, r *Report) error {
	var out string
	switch format {
	case "human":
		out = human(r)
	case "markdown":
		out = markdown(r)
	case "json":
		data, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		out = string(diag.PrintableJSON(data)) + "\n"
	default:
		return fmt.Errorf("unknown diff format %q (want human, markdown or json)", format)
	}
	_, err := io.WriteString(w, out)
	return err
}

// summary is the report's first line after the two files.
func summary(r *Report) string {
	if r.Empty() {
		if len(r.Residency) > 0 {
			return fmt.Sprintf("no change to what any agent can do; residency changes for %d %s", len(r.Residency), plural2(len(r.Residency), "agent", "agents"))
		}
		return "no change to what any agent can do"
	}
	return fmt.Sprintf("%d widened, %d narrowed", r.WidenedCount, r.NarrowedCount)
}

// floorMark says what a floor change does: nothing while auto-approval
// is off on either side, since only then is the floor read (R86).
func floorMark(f *FloorChange) string {
	switch {
	case f.Widened:
		return "widened"
	case !f.OldActive || !f.NewActive:
		return "no effect while auto-approval is off"
	case len(f.Added) > 0:
		return "narrowed"
	}
	return "nothing new"
}

// autoMark says what switching auto-approval does.
func autoMark(a *AutoChange) string {
	switch {
	case a.Widened:
		return "widened"
	case !a.New:
		return "narrowed"
	}
	return "nothing new"
}

// edgeMark says what an edge change does.
func edgeMark(e EdgeChange) string {
	switch {
	case e.Widened:
		return "widened"
	case e.Change == "lost":
		return "narrowed"
	}
	return "nothing new"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// agentTitle names a node for people.
func agentTitle(name string) string {
	if name == reach.ComposedNode {
		return "composed workers (" + name + ")"
	}
	return name
}

// reachList writes tools with their answers: "write_file (review: a
// reviewer may approve, by coder)".
func reachList(xs []Reached) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%s (%s, by %s)", x.Tool, x.Answer.Describe(), x.By)
	}
	return strings.Join(parts, ", ")
}

func gatedCount(xs []Reached) int {
	n := 0
	for _, x := range xs {
		if x.Answer.Level < reach.Runs {
			n++
		}
	}
	return n
}

func items(xs []Item) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%s (%s)", x.Name, x.At)
	}
	return out
}

func human(r *Report) string {
	var b strings.Builder
	p := printer(&b)
	p("%s -> %s: %s\n", r.Old, r.New, summary(r))
	if r.EntryAgent != nil {
		p("\nentry agent: %s -> %s (%s)\n", r.EntryAgent.Old, r.EntryAgent.New, r.EntryAgent.At)
	}
	for _, a := range r.Agents {
		p("\nagent %s", agentTitle(a.Agent))
		if a.Change != "changed" {
			p(": %s (%s)", a.Change, a.At)
		}
		p("\n")
		for _, l := range []struct {
			name string
			xs   []Item
		}{
			{"available gained", a.Available.Gained}, {"available lost", a.Available.Lost},
		} {
			for _, it := range items(l.xs) {
				p("  %s: %s\n", l.name, it)
			}
		}
		for _, g := range []struct {
			name string
			xs   []ToolChange
		}{{"widened", a.Widened}, {"narrowed", a.Narrowed}} {
			if len(g.xs) == 0 {
				continue
			}
			p("  %s:\n", g.name)
			for _, t := range g.xs {
				p("    %s: %s -> %s\n", t.Tool, t.Old.Describe(), t.New.Describe())
				p("      %s (%s)\n", t.Because, t.At)
			}
		}
	}
	if len(r.Delegation) > 0 {
		p("\ndelegation\n")
		for _, e := range r.Delegation {
			sign, verb := "+", "carries"
			if e.Change == "lost" {
				sign, verb = "-", "carried"
			}
			p("  %s %s -> %s (%s), %s: %s\n", sign, agentTitle(e.From), agentTitle(e.To), e.Via, edgeMark(e), e.At)
			p("      %s %d %s, %d gated\n", verb, len(e.Carries), tools(len(e.Carries)), gatedCount(e.Carries))
			if len(e.New) > 0 {
				p("      new to %s: %s\n", e.From, reachList(e.New))
			}
		}
	}
	if a := r.AutoApproval; a != nil {
		p("\nauto-approval: %s -> %s, %s (%s)\n", onOff(a.Old), onOff(a.New), autoMark(a), a.At)
		if len(a.Unprotected) > 0 {
			p("  %d %s some agent can reach %s off the floor: a review entry naming one lets a reviewer answer for the user\n",
				len(a.Unprotected), tools(len(a.Unprotected)), plural2(len(a.Unprotected), "is", "are"))
		}
	}
	if f := r.Floor; f != nil {
		p("\nfloor (never_auto_approve), auto-approval %s -> %s: %s\n", onOff(f.OldActive), onOff(f.NewActive), floorMark(f))
		for _, it := range items(f.Dropped) {
			p("  dropped: %s\n", it)
		}
		for _, it := range items(f.Added) {
			p("  added: %s\n", it)
		}
		if len(f.Unprotected) > 0 {
			p("  off the floor now: %s\n", strings.Join(f.Unprotected, ", "))
		}
	}
	if len(r.Residency) > 0 {
		p("\nresidency (what sits in context from the first turn; never counted as widened or narrowed)\n")
		for _, a := range r.Residency {
			p("  agent %s\n", a.Agent)
			for _, l := range []struct {
				name string
				xs   []Item
			}{{"resident gained", a.Resident.Gained}, {"resident lost", a.Resident.Lost}} {
				for _, it := range items(l.xs) {
					p("    %s: %s\n", l.name, it)
				}
			}
			for _, t := range a.Loaders {
				p("    loader %s: %s -> %s\n", t.Tool, t.Old.Describe(), t.New.Describe())
				p("      %s (%s)\n", t.Because, t.At)
			}
		}
	}
	return b.String()
}

// printer returns the Fprintf of a report: each string or Stringer argument (a path,
// a name, a reason that quotes one) goes through diag.Printable, so that
// no control or bidirectional character reaches the terminal and a line
// feed in a name cannot start a line; the format's own line feeds stay.
func printer(b *strings.Builder) func(format string, args ...any) {
	return func(format string, args ...any) {
		for i, a := range args {
			switch v := a.(type) {
			case string:
				args[i] = diag.Printable(v)
			case fmt.Stringer:
				args[i] = diag.Printable(v.String())
			}
		}
		fmt.Fprintf(b, format, args...)
	}
}

// plural2 is one or many, as n asks.
func plural2(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// tools is "tool" or "tools", as n asks.
func tools(n int) string {
	if n == 1 {
		return "tool"
	}
	return "tools"
}
