package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/escape"
	"github.com/kokua-policy/kokua-policy/internal/format"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// Formats are the formats of kokua-compile diff's report: human (for a
// terminal), markdown (for a pull-request comment or a job summary), json
// (one object, the Report's fields) and github (annotations).
var Formats = format.New("diff",
	format.Format[*Report]{Info: format.Info{Name: "human"}, Write: text(func(r *Report) string { return escape.LogText(human(r)) })},
	format.Format[*Report]{Info: format.Info{Name: "markdown"}, Write: text(markdown)},
	format.Format[*Report]{Info: format.Info{Name: "json"}, Write: writeJSON[*Report]},
	format.Format[*Report]{Info: format.Info{Name: "github", Summary: "annotations"}, Write: text(github)},
)

// Write writes a report in one of Formats.
func Write(w io.Writer, format string, r *Report) error { return Formats.Write(w, format, r) }

// text is a writer of what write returns as a string.
func text[T any](write func(T) string) func(io.Writer, T) error {
	return func(w io.Writer, v T) error {
		_, err := io.WriteString(w, write(v))
		return err
	}
}

// writeJSON writes v as the JSON reports are written: indented, every
// string printable (printable.JSON), one line feed at the end.
func writeJSON[T any](w io.Writer, v T) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, string(printable.JSON(data))+"\n")
	return err
}

// summary is the report's first line after the two files: the count of
// changes of each grade, then what widened and narrowed.
func summary(r *Report) string {
	var s string
	if r.Empty() {
		s = "no change to what any agent can do"
		if len(r.Residency) > 0 {
			s += fmt.Sprintf("; residency changes for %d %s", len(r.Residency), plural2(len(r.Residency), "agent", "agents"))
		}
		if len(r.Reviewers) > 0 {
			s += fmt.Sprintf("; %d %s to the reviewer", len(r.Reviewers), plural2(len(r.Reviewers), "change", "changes"))
		}
	} else {
		s = fmt.Sprintf("%d widened, %d narrowed", r.WidenedCount, r.NarrowedCount)
	}
	s += manifestSummary(r)
	if r.Grade == reach.NoGrade {
		return s
	}
	return r.Grades.String() + "; " + s
}

// group is tool changes or reached tools that read alike, shown as one
// line: one grade, one toolset, one cause.
type group struct {
	grade reach.Grade
	tools []string
	head  string // what follows the tools: the answers
	tail  string // the cause and place, or the agent
}

// groupChanges merges consecutive tool changes of one grade, toolset,
// old and new answer, cause and place, so that a toolset gained whole
// is one line.
func groupChanges(ts []ToolChange) []group {
	var out []group
	for _, t := range ts {
		head := fmt.Sprintf("%s -> %s", t.Old.Describe(), t.New.Describe())
		tail := fmt.Sprintf("%s (%s)", t.Because, t.At)
		if n := len(out); n > 0 && out[n-1].grade == t.Grade && out[n-1].head == head && out[n-1].cause() == tail &&
			toolsetOf(t) == out[n-1].toolset() {
			out[n-1].tools = append(out[n-1].tools, t.Tool)
			continue
		}
		out = append(out, group{grade: t.Grade, tools: []string{t.Tool}, head: head, tail: tail + "\x00" + toolsetOf(t)})
	}
	return out
}

func toolsetOf(t ToolChange) string {
	if t.New.Toolset != "" {
		return t.New.Toolset
	}
	return t.Old.Toolset
}

func (g group) toolset() string {
	_, ts, _ := strings.Cut(g.tail, "\x00")
	return ts
}

func (g group) cause() string {
	c, _, _ := strings.Cut(g.tail, "\x00")
	return c
}

// groupReached merges the tools an edge carries by grade, toolset, answer
// and the agent that runs them: "[high] compute: execute_python,
// run_command (review: asks the user, by coder)".
func groupReached(g *reach.Graph, xs []Reached) []string {
	var out []string
	var last string
	for _, x := range xs {
		key := fmt.Sprintf("%s %s: ", gradeWord(toolGrade(g, x.Answer)), x.Answer.Toolset)
		suffix := fmt.Sprintf(" (%s, by %s)", x.Answer.Describe(), x.By)
		if n := len(out); n > 0 && last == key+suffix {
			out[n-1] = strings.TrimSuffix(out[n-1], suffix) + ", " + x.Tool + suffix
			continue
		}
		last = key + suffix
		out = append(out, key+x.Tool+suffix)
	}
	return out
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
		p("\n%sentry agent: %s -> %s (%s)\n", markOf(r.EntryAgent.Grade), r.EntryAgent.Old, r.EntryAgent.New, r.EntryAgent.At)
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
			for _, gr := range groupChanges(g.xs) {
				mark := ""
				if gr.grade != reach.NoGrade {
					mark = gradeWord(gr.grade) + " "
				}
				p("    %s%s: %s\n", mark, strings.Join(gr.tools, ", "), gr.head)
				p("      %s\n", gr.cause())
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
			mark := ""
			if e.Grade != reach.NoGrade {
				mark = gradeWord(e.Grade) + " "
			}
			p("  %s%s %s -> %s (%s), %s: %s\n", mark, sign, agentTitle(e.From), agentTitle(e.To), e.Via, edgeMark(e), e.At)
			p("      %s %d %s, %d gated\n", verb, len(e.Carries), tools(len(e.Carries)), gatedCount(e.Carries))
			if len(e.New) > 0 {
				p("      new to %s (%d %s):\n", e.From, len(e.New), tools(len(e.New)))
				for _, line := range groupReached(r.newGraph, e.New) {
					p("        %s\n", line)
				}
			}
		}
	}
	if a := r.AutoApproval; a != nil {
		p("\n%sauto-approval: %s -> %s, %s (%s)\n", markOf(a.Grade), onOff(a.Old), onOff(a.New), autoMark(a), a.At)
		if len(a.Unprotected) > 0 {
			p("  %d %s some agent can reach %s off the floor: a review entry naming one lets a reviewer answer for the user\n",
				len(a.Unprotected), tools(len(a.Unprotected)), plural2(len(a.Unprotected), "is", "are"))
		}
	}
	if f := r.Floor; f != nil {
		p("\n%sfloor (never_auto_approve), auto-approval %s -> %s: %s\n", markOf(f.Grade), onOff(f.OldActive), onOff(f.NewActive), floorMark(f))
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
	if len(r.Risks) > 0 {
		p("\nrisk paths new or raised (untrusted content to power; kokua-compile risks lists them all)\n")
		for _, c := range r.Risks {
			p("  %s agent %s: %s; %s\n", gradeWord(c.Grade), agentTitle(c.Agent), pathTitle(c.Path), riskMove(c))
			for _, line := range c.Path.hopLines(humanHop, hopsLeftOut) {
				p("    %s\n", line)
			}
		}
	}
	if len(r.Reviewers) > 0 {
		p("\nreviewer (what answers review calls)\n")
		for _, c := range r.Reviewers {
			p("  %s %s: %s (%s)\n", gradeWord(c.Grade), reviewerField(c), reviewerValues(c), c.At)
			if c.Diff != "" {
				for _, l := range strings.Split(strings.TrimSuffix(c.Diff, "\n"), "\n") {
					p("      %s\n", l)
				}
			}
			p("    %s\n", reviewerReach(c))
		}
	}
	humanManifest(p, r)
	if len(r.Info) > 0 {
		p("\norder and comments (nothing an agent can do changes)\n")
		for _, c := range r.Info {
			p("  %s %s (%s)\n", gradeWord(reach.Info), c.What, c.At)
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
// a name, a reason that quotes one) goes through printable.String, so that
// no control or bidirectional character reaches the terminal and a line
// feed in a name cannot start a line; the format's own line feeds stay.
func printer(b *strings.Builder) func(format string, args ...any) {
	return func(format string, args ...any) {
		for i, a := range args {
			switch v := a.(type) {
			case string:
				args[i] = printable.String(v)
			case fmt.Stringer:
				args[i] = printable.String(v.String())
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

// markOf is a grade beside a change, "" for an ungraded one.
func markOf(g reach.Grade) string {
	if g == reach.NoGrade {
		return ""
	}
	return gradeWord(g) + " "
}

// riskLevel is a path's old level: "none" when the old side had none.
// riskMove says how a risk path changed: raised from the old side's best
// level for its end, or, where the old side already reached that end as
// permissively, a new way to it (another entry or other hops).
func riskMove(c RiskChange) string {
	if c.Old >= c.Path.Level && c.Old != reach.Unavailable {
		return fmt.Sprintf("%s by a new way (already %s by another)", c.Path.Level.Phrase(), c.Old.Phrase())
	}
	return riskLevel(c.Old) + " -> " + c.Path.Level.Phrase()
}

func riskLevel(l reach.Level) string {
	if l == reach.Unavailable {
		return "none"
	}
	return l.Phrase()
}

func reviewerField(c ReviewerChange) string {
	if c.Reviewer == "" {
		return "[security.auto_approval]." + c.Field
	}
	return fmt.Sprintf("reviewer %s's %s", tomlpos.QuoteKey(c.Reviewer), c.Field)
}

// reviewerValues shows the old and new value, and which way a limit
// moved; instructions are shown as the diff below instead, which only a
// person can weigh.
func reviewerValues(c ReviewerChange) string {
	if c.Field == "system_message" {
		return "the instructions changed; stricter or laxer: read the text"
	}
	s := reviewerValue(c, c.Old, c.OldSource, true) + " -> " + reviewerValue(c, c.New, c.NewSource, false)
	switch {
	case c.Direction == Widens && c.Field == "max_per_turn":
		s += "; widens: the reviewer may approve more calls in a turn"
	case c.Direction == Narrows && c.Field == "max_per_turn":
		s += "; narrows: the reviewer may approve fewer calls in a turn"
	case c.Direction == Widens:
		s += "; widens: the reviewer has longer to approve a call before it goes to the user"
	case c.Direction == Narrows:
		s += "; narrows: a call goes to the user sooner when the reviewer has not approved it"
	}
	return s
}

// reviewerValue shows one side's value of a reviewer change, and where a
// model or thinking value comes from when the reviewer's table does not
// write it. thinking and generation are TOML values in one form
// (policy.Reviewer), shown as they are: false, "high", {temperature =
// 0.0}; every other value is a string, shown quoted.
func reviewerValue(c ReviewerChange, v string, from kokua.Origin, old bool) string {
	inherits := c.Field == "model" || c.Field == "thinking"
	shown := fmt.Sprintf("%q", v)
	if c.Field == "thinking" || c.Field == "generation" || c.Field == "reviewers" {
		shown = printable.String(v)
	}
	switch {
	case inherits && from == kokua.Inherited:
		return fmt.Sprintf("%s (from [assistant].%s)", shown, c.Field)
	case inherits && from == kokua.Builtin && c.Field == "model":
		return "unset (the default model)"
	case inherits && from == "" && old && c.Reviewer != "":
		return "unset (not a reviewer)"
	case v == "":
		return "unset"
	}
	return shown
}

func reviewerReach(c ReviewerChange) string {
	if len(c.Tools) == 0 {
		return "no reviewer may approve any tool on the new side"
	}
	return fmt.Sprintf("a reviewer may approve %d %s: %s", len(c.Tools), tools(len(c.Tools)), strings.Join(c.Tools, ", "))
}
