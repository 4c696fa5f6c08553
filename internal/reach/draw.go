package reach

import (
	"fmt"
	"io"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/format"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Formats are the formats of the drawing: Graphviz DOT, or a Mermaid
// flowchart (which GitHub renders in markdown).
var Formats = format.New("graph",
	format.Format[*Graph]{Info: format.Info{Name: "dot", Summary: "Graphviz"}, Write: WriteDOT},
	format.Format[*Graph]{Info: format.Info{Name: "mermaid"}, Write: WriteMermaid},
)

// Write draws the graph in a format of Formats.
func Write(w io.Writer, format string, g *Graph) error { return Formats.Write(w, format, g) }

// Title is a node's first line: its name and its marks.
func (a *Agent) Title() string {
	switch {
	case a.Composed:
		return "composed workers (default tier)"
	case a.Entry:
		return a.Name + " (entry agent)"
	case !a.Reachable:
		return a.Name + " (not reachable)"
	}
	return a.Name
}

// Names are the names to show people for the agent's tools: the tool's
// own name, or toolset.tool where two of its toolsets offer that name.
func (a *Agent) Names() map[Key]string {
	count := make(map[string]int, len(a.Answers))
	for k := range a.Answers {
		count[k.Tool]++
	}
	out := make(map[Key]string, len(a.Answers))
	for k := range a.Answers {
		out[k] = k.Tool
		if count[k.Tool] > 1 {
			out[k] = k.String()
		}
	}
	return out
}

// Lines are a node's lines after its title: how many tools run unasked,
// and the gated tools, one line per kind of gate: confirm, review a
// reviewer may approve, review that asks the user.
func (a *Agent) Lines() []string {
	runs, onDemand := 0, 0
	var confirm, reviewer, review []string
	names := a.Names()
	for _, k := range SortedKeys(a.Answers) {
		ans, tool := a.Answers[k], names[k]
		switch {
		case ans.Level == Runs:
			runs++
			if ans.OnDemand {
				onDemand++
			}
		case ans.Decision == policy.Confirm:
			confirm = append(confirm, tool)
		case ans.Level == Reviewer:
			reviewer = append(reviewer, tool)
		default:
			review = append(review, tool)
		}
	}
	line := fmt.Sprintf("runs unasked: %d %s", runs, plural(runs, "tool"))
	if onDemand > 0 {
		line += fmt.Sprintf(" (%d on demand)", onDemand)
	}
	out := []string{line}
	if len(confirm) > 0 {
		out = append(out, "confirm (asks the user): "+strings.Join(confirm, ", "))
	}
	if len(reviewer) > 0 {
		out = append(out, "review (reviewer, then the user): "+strings.Join(reviewer, ", "))
	}
	if len(review) > 0 {
		out = append(out, "review (asks the user): "+strings.Join(review, ", "))
	}
	return out
}

// EdgeLabel says how the edge makes its target run and how much it
// carries: every tool the target and the agents it reaches can run.
func (g *Graph) EdgeLabel(e Edge) string {
	r := g.Reach(e.To)
	gated := 0
	for _, x := range r {
		if x.Level < Runs {
			gated++
		}
	}
	return fmt.Sprintf("%s: reaches %d %s, %d gated", e.Via, len(r), plural(len(r), "tool"), gated)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// WriteDOT draws the graph in Graphviz's DOT language: one box per agent,
// the entry agent bold, composed workers dashed, an agent nothing reaches
// grey, and every edge labelled with what it carries.
func WriteDOT(w io.Writer, g *Graph) error {
	var b strings.Builder
	b.WriteString("digraph kokua {\n")
	b.WriteString("  rankdir=LR;\n")
	b.WriteString("  node [shape=box, fontname=\"Helvetica\", fontsize=11];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=10];\n")
	for _, a := range g.Agents {
		label := DOTString(a.Title()) + `\n`
		for _, l := range a.Lines() {
			label += DOTString(l) + `\l`
		}
		attrs := ""
		switch {
		case a.Entry:
			attrs = ", penwidth=2, style=bold"
		case a.Composed:
			attrs = ", style=dashed"
		case !a.Reachable:
			attrs = ", color=gray50, fontcolor=gray35"
		}
		fmt.Fprintf(&b, "  \"%s\" [label=\"%s\"%s];\n", DOTString(a.Name), label, attrs)
	}
	for _, e := range g.Edges {
		style := ""
		if e.Via == kokua.ComposeSubagent {
			style = ", style=dashed"
		}
		fmt.Fprintf(&b, "  \"%s\" -> \"%s\" [label=\"%s\"%s];\n", DOTString(e.From), DOTString(e.To), DOTString(g.EdgeLabel(e)), style)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// DOTString escapes text for a double-quoted DOT string.
// Control and bidirectional characters are escaped first
// (printable.Lines), so that the escape shows as text.
func DOTString(s string) string {
	return dotEscape.Replace(printable.Lines(s))
}

var dotEscape = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// WriteMermaid draws the graph as a Mermaid flowchart: the same boxes and
// labels as WriteDOT, the entry agent's box thick and composed workers'
// dashed.
func WriteMermaid(w io.Writer, g *Graph) error {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	ids := map[string]string{}
	for i, a := range g.Agents {
		ids[a.Name] = fmt.Sprintf("n%d", i)
		text := "<b>" + MermaidText(a.Title()) + "</b>"
		for _, l := range a.Lines() {
			text += "<br/>" + MermaidText(l)
		}
		fmt.Fprintf(&b, "  %s[\"%s\"]\n", ids[a.Name], text)
	}
	for _, e := range g.Edges {
		arrow := "-->"
		if e.Via == kokua.ComposeSubagent {
			arrow = "-.->"
		}
		to := ids[e.To]
		if to == "" {
			continue
		}
		fmt.Fprintf(&b, "  %s %s|\"%s\"| %s\n", ids[e.From], arrow, MermaidText(g.EdgeLabel(e)), to)
	}
	b.WriteString("  classDef entry stroke-width:3px\n")
	b.WriteString("  classDef composed stroke-dasharray:5 5\n")
	b.WriteString("  classDef unreachable stroke:#999,color:#666\n")
	for _, a := range g.Agents {
		switch {
		case a.Entry:
			fmt.Fprintf(&b, "  class %s entry\n", ids[a.Name])
		case a.Composed:
			fmt.Fprintf(&b, "  class %s composed\n", ids[a.Name])
		case !a.Reachable:
			fmt.Fprintf(&b, "  class %s unreachable\n", ids[a.Name])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// MermaidText escapes text for a quoted Mermaid label: the characters
// that would end the label or be read as markup become entity codes.
func MermaidText(s string) string {
	return mermaidEscape.Replace(printable.Lines(s))
}

var mermaidEscape = strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "|", "#124;", "\n", " ")
