package diff

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// manifestSummary is the headline's word on the manifest: that it
// differs, how many MCP server changes, and the notes the sides carry;
// "" when there is nothing to say.
func manifestSummary(r *Report) string {
	m := r.Manifest
	if m == nil {
		return ""
	}
	var parts []string
	if m.Differs {
		parts = append(parts, "the manifest differs")
	}
	if n := len(m.Servers); n > 0 {
		parts = append(parts, fmt.Sprintf("%d MCP server %s", n, plural2(n, "change", "changes")))
	}
	parts = append(parts, m.Notes[:m.headNotes]...)
	if parts == nil {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}

// shortSum is a manifest's SHA-256 (hex, as a policy records it) as a
// report shows it: its first 12 digits.
func shortSum(s string) string {
	switch {
	case s == "":
		return "(no digest)"
	case len(s) > 12:
		s = s[:12]
	}
	return "sha256:" + s
}

// manifestFiles says which manifest each side was compiled against.
func manifestFiles(m *ManifestChange) string {
	if !m.Differs {
		if m.Old == m.New {
			return fmt.Sprintf("%s %s on both sides", m.New.File, shortSum(m.New.SHA256))
		}
		return fmt.Sprintf("%s -> %s, the same %s", m.Old.File, m.New.File, shortSum(m.New.SHA256))
	}
	return fmt.Sprintf("%s %s -> %s %s, differs", m.Old.File, shortSum(m.Old.SHA256), m.New.File, shortSum(m.New.SHA256))
}

// classText writes classes for people: "exec, write", or "none".
func classText(cs []kokua.Class) string {
	if len(cs) == 0 {
		return "none"
	}
	words := make([]string, len(cs))
	for i, c := range cs {
		words[i] = string(c)
	}
	return strings.Join(words, ", ")
}

// callerText says who can call what a change touches.
func callerText(who []string, many bool) string {
	it := "it"
	if many {
		it = "them"
	}
	if len(who) == 0 {
		return "no agent can call " + it
	}
	names := make([]string, len(who))
	for i, a := range who {
		names[i] = agentTitle(a)
	}
	return fmt.Sprintf("%s can call %s", strings.Join(names, ", "), it)
}

// toolGroup is manifest tool changes that read alike: one grade, toolset,
// change, classes and callers, shown as one line.
type toolGroup struct {
	first ManifestTool
	tools []string
}

func groupTools(ts []ManifestTool) []toolGroup {
	var out []toolGroup
	for _, t := range ts {
		if n := len(out); n > 0 {
			f := out[n-1].first
			if f.Grade == t.Grade && f.Toolset == t.Toolset && f.Change == t.Change && classText(f.OldClasses) == classText(t.OldClasses) &&
				classText(f.NewClasses) == classText(t.NewClasses) && strings.Join(f.Callers, "\x00") == strings.Join(t.Callers, "\x00") {
				out[n-1].tools = append(out[n-1].tools, t.Tool)
				continue
			}
		}
		out = append(out, toolGroup{first: t, tools: []string{t.Tool}})
	}
	return out
}

// text says one group of tool changes for people.
func (g toolGroup) text() string {
	t := g.first
	many := len(g.tools) > 1
	what := ""
	switch t.Change {
	case "classes":
		what = fmt.Sprintf("classes %s -> %s", classText(t.OldClasses), classText(t.NewClasses))
	case "added":
		what = fmt.Sprintf("added to the toolset (%s)", classText(t.NewClasses))
	case "removed":
		what = fmt.Sprintf("removed from the toolset (%s)", classText(t.OldClasses))
	}
	s := fmt.Sprintf("%s: %s: %s; %s", t.Toolset, strings.Join(g.tools, ", "), what, callerText(t.Callers, many))
	if t.Change != "classes" && len(t.Callers) > 0 {
		s += ", listed under each agent"
	}
	return s
}

// why says what a class change means for the grade, "" when it needs no
// word.
func (g toolGroup) why() string {
	t := g.first
	if t.Change != "classes" || len(classMinus(t.OldClasses, t.NewClasses)) == 0 {
		return ""
	}
	if len(t.Callers) == 0 {
		return "classes removed: a later change that grants it is graded by the classes left"
	}
	return "classes removed: from now on the gate judges it by fewer; this report grades it, risk paths included, by both sides' classes"
}

// toolsetText says a registry change for people.
func toolsetText(c ManifestToolset) string {
	var tools []string
	for _, t := range c.Tools {
		tools = append(tools, fmt.Sprintf("%s (%s)", t.Tool, classText(t.Classes)))
	}
	list := "no tools"
	if len(tools) > 0 {
		list = strings.Join(tools, ", ")
	}
	s := fmt.Sprintf("toolset %s (%s) %s: %s; %s", c.Toolset, c.Kind, c.Change, list, callerText(c.Callers, len(c.Tools) > 1))
	if len(c.Callers) > 0 && len(c.Tools) > 0 {
		s += ", listed under each agent"
	}
	return s
}

// serverText says an MCP server change for people, with both values.
func serverText(c ServerChange) string {
	q := func(s string) string {
		if s == "" {
			return "unset"
		}
		return fmt.Sprintf("%q", s)
	}
	if c.Old == c.New {
		return fmt.Sprintf("MCP server %s %s: %s, unchanged, newly called (the manifest lists none of its tools); %s",
			c.Server, c.Field, q(c.New), callerText(c.Callers, false))
	}
	s := fmt.Sprintf("MCP server %s %s: %s -> %s", c.Server, c.Field, q(c.Old), q(c.New))
	switch {
	case c.Field == "url" && c.Old == "":
		s += ", a server added"
	case c.Field == "url" && c.Moved == "host":
		s += ", another host answers"
	case c.Field == "url":
		s += ", the same host answers at another path"
	default:
		s += ", the server is sent another credential"
	}
	return s + "; " + callerText(c.Callers, false)
}

// humanManifest writes the manifest section of the human report.
func humanManifest(p func(string, ...any), r *Report) {
	m := r.Manifest
	if !m.shown() {
		return
	}
	p("\nmanifest and MCP servers (each side graded with its own manifest)\n")
	p("  manifest: %s\n", manifestFiles(m))
	for _, n := range m.Notes {
		p("  note: %s\n", n)
	}
	for _, g := range groupTools(m.Tools) {
		p("  %s%s (%s)\n", markOf(g.first.Grade), g.text(), g.first.At)
		if w := g.why(); w != "" {
			p("      %s\n", w)
		}
	}
	for _, c := range m.Toolsets {
		p("  %s%s (%s)\n", markOf(c.Grade), toolsetText(c), c.At)
	}
	for _, c := range m.Servers {
		p("  %s%s (%s)\n", markOf(c.Grade), serverText(c), c.At)
	}
}

// markdownManifest writes the manifest section of the markdown report.
func markdownManifest(p func(string, ...any), r *Report) {
	m := r.Manifest
	if !m.shown() {
		return
	}
	p("\n#### Manifest and MCP servers\n\nEach side is graded with its own manifest: %s.\n", mdText(manifestFiles(m)))
	if len(m.Notes) > 0 {
		p("\n")
	}
	for _, n := range m.Notes {
		p("- note: %s\n", mdText(n))
	}
	if m.empty() {
		return
	}
	p("\n| grade | change | why | at |\n| --- | --- | --- | --- |\n")
	for _, g := range groupTools(m.Tools) {
		p("| %s | %s | %s | %s |\n", gradeCell(g.first.Grade), mdText(g.text()), mdText(g.why()), at(g.first.At))
	}
	for _, c := range m.Toolsets {
		p("| %s | %s | | %s |\n", gradeCell(c.Grade), mdText(toolsetText(c)), at(c.At))
	}
	for _, c := range m.Servers {
		p("| %s | %s | | %s |\n", gradeCell(c.Grade), mdText(serverText(c)), at(c.At))
	}
}

// mdText is a line of the human report as a markdown table cell: its
// arrows drawn as the markdown report draws them.
func mdText(s string) string { return cell(strings.ReplaceAll(s, " -> ", " → ")) }

// githubManifest annotates the manifest's changes: each graded change,
// and a notice that the manifest differs or for each note.
func githubManifest(note func(reach.Grade, Place, string), r *Report) {
	m := r.Manifest
	if !m.shown() {
		return
	}
	if m.Differs {
		note(reach.Info, Place{File: m.New.File, Key: "manifest"}, "the manifest differs: "+manifestFiles(m))
	}
	for _, n := range m.Notes {
		note(reach.Info, Place{File: m.New.File, Key: "manifest"}, n)
	}
	for _, g := range groupTools(m.Tools) {
		if g.first.Grade != reach.NoGrade {
			msg := g.text()
			if w := g.why(); w != "" {
				msg += "; " + w
			}
			note(g.first.Grade, g.first.At, msg)
		}
	}
	for _, c := range m.Toolsets {
		if c.Grade != reach.NoGrade {
			note(c.Grade, c.At, toolsetText(c))
		}
	}
	for _, c := range m.Servers {
		note(c.Grade, c.At, serverText(c))
	}
}
