package diff

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/escape"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// code writes text as a markdown code span that is safe in a table cell.
func code(s string) string { return escape.MarkdownCode(s) }

// cell escapes plain text for a table cell, or any other inline place.
func cell(s string) string { return escape.MarkdownText(s) }

func at(p Place) string {
	if p.Line == 0 {
		return code(p.File) + " " + code(p.Key)
	}
	return code(fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)) + " " + code(p.Key)
}

func badge(widened bool) string {
	if widened {
		return "⚠️ widened"
	}
	return "narrowed"
}

// mdMark flags a widening for the eye.
func mdMark(m string) string {
	if m == "widened" {
		return "⚠️ widened"
	}
	return m
}

func markdown(r *Report) string {
	var b strings.Builder
	p := printer(&b)
	p("### Policy diff: %s → %s\n\n", code(r.Old), code(r.New))
	if r.Widened {
		p("**%s**: this change gives some agent more power.\n", summary(r))
	} else {
		p("%s.\n", strings.ToUpper(summary(r)[:1])+summary(r)[1:])
	}
	if r.EntryAgent != nil {
		p("\nThe entry agent changes from %s to %s (%s).\n", code(r.EntryAgent.Old), code(r.EntryAgent.New), at(r.EntryAgent.At))
	}
	if len(r.plan) > 0 {
		p("\nWhat each agent can cause to run (its own tools and its workers'), before → after:\n\n| agent | runs unasked | a reviewer may approve | asks the user |\n| --- | --- | --- | --- |\n")
		for _, row := range r.plan {
			p("| %s | %s | %s | %s |\n", code(agentTitle(row.agent)), beforeAfter(row.old[reach.Runs], row.new[reach.Runs]),
				beforeAfter(row.old[reach.Reviewer], row.new[reach.Reviewer]), beforeAfter(row.old[reach.Asks], row.new[reach.Asks]))
		}
	}
	for _, a := range r.Agents {
		p("\n#### Agent %s", code(agentTitle(a.Agent)))
		if a.Change != "changed" {
			p(" (%s)", a.Change)
		}
		p("\n\n")
		if a.At != nil {
			p("Its table: %s.\n\n", at(*a.At))
		}
		lists := []struct {
			name string
			xs   []Item
		}{
			{"available, gained", a.Available.Gained}, {"available, lost", a.Available.Lost},
		}
		for _, l := range lists {
			for _, it := range l.xs {
				p("- %s: %s (%s)\n", l.name, code(it.Name), at(it.At))
			}
		}
		if len(a.Widened)+len(a.Narrowed) > 0 {
			if len(a.Available.Gained)+len(a.Available.Lost) > 0 {
				p("\n")
			}
			p("| | grade | tools | was | now | because | at |\n| --- | --- | --- | --- | --- | --- | --- |\n")
			for _, g := range []struct {
				widened bool
				xs      []ToolChange
			}{{true, a.Widened}, {false, a.Narrowed}} {
				for _, gr := range groupChanges(g.xs) {
					t := g.xs[0]
					for _, x := range g.xs {
						if x.Tool == gr.tools[0] {
							t = x
							break
						}
					}
					names := make([]string, len(gr.tools))
					for i, n := range gr.tools {
						names[i] = code(n)
					}
					p("| %s | %s | %s | %s | %s | %s | %s |\n", badge(g.widened), gradeCell(gr.grade), strings.Join(names, ", "),
						cell(t.Old.Describe()), cell(t.New.Describe()), cell(t.Because), at(t.At))
				}
			}
		}
	}
	if len(r.Delegation) > 0 {
		p("\n#### Delegation\n\n| | edge | carries | new to the delegating agent | at |\n| --- | --- | --- | --- | --- |\n")
		for _, e := range r.Delegation {
			what := "gained, " + mdMark(edgeMark(e))
			if e.Change == "lost" {
				what = "lost"
			}
			newTo := ""
			if len(e.New) > 0 {
				lines := groupReached(r.newGraph, e.New)
				for i, l := range lines {
					lines[i] = cell(l)
				}
				newTo = strings.Join(lines, "<br>")
			}
			p("| %s | %s → %s (%s) | %d %s, %d gated | %s | %s |\n", what, code(agentTitle(e.From)), code(agentTitle(e.To)), e.Via,
				len(e.Carries), tools(len(e.Carries)), gatedCount(e.Carries), newTo, at(e.At))
		}
		// The drawing escapes its own labels (reach.MermaidText), and is
		// lines: it goes in as it is.
		b.WriteString("\n```mermaid\n" + edgeMermaid(r.Delegation) + "```\n")
	}
	if a := r.AutoApproval; a != nil {
		p("\n#### Auto-approval\n\n%s: turned %s (%s).", mdMark(autoMark(a)), onOff(a.New), at(a.At))
		if len(a.Unprotected) > 0 {
			p(" %d %s some agent can reach %s off the floor: a review entry naming one lets a reviewer answer for the user.",
				len(a.Unprotected), tools(len(a.Unprotected)), plural2(len(a.Unprotected), "is", "are"))
		}
		p("\n")
	}
	if f := r.Floor; f != nil {
		p("\n#### Floor (`never_auto_approve`)\n\n%s; auto-approval %s → %s.\n\n", mdMark(floorMark(f)), onOff(f.OldActive), onOff(f.NewActive))
		for _, it := range f.Dropped {
			p("- dropped: %s (%s)\n", code(it.Name), at(it.At))
		}
		for _, it := range f.Added {
			p("- added: %s (%s)\n", code(it.Name), at(it.At))
		}
		if len(f.Unprotected) > 0 {
			p("- off the floor now: %s\n", cell(strings.Join(f.Unprotected, ", ")))
		}
	}
	if len(r.Risks) > 0 {
		p("\n#### Risk paths new or raised\n\nUntrusted content to power, as `kokua-compile risks` lists it.\n\n| grade | agent | path | was | now | hops |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, c := range r.Risks {
			hops := c.Path.hopLines(markdownHop, hopsLeftOut)
			p("| %s | %s | %s | %s | %s | %s |\n", gradeCell(c.Grade), code(agentTitle(c.Agent)), cell(pathTitle(c.Path)),
				cell(riskLevel(c.Old)), cell(c.Path.Level.Phrase()), strings.Join(hops, "<br>"))
		}
	}
	if len(r.Reviewers) > 0 {
		p("\n#### Reviewer\n\n")
		for _, c := range r.Reviewers {
			p("- %s %s: %s (%s); %s\n", gradeCell(c.Grade), cell(reviewerField(c)), cell(reviewerValues(c)), at(c.At), cell(reviewerReach(c)))
			if c.Diff != "" {
				// A fence longer than any run of backticks in the text keeps
				// the instructions from closing it.
				fence := escape.MarkdownFence(c.Diff)
				lines := strings.Split(strings.TrimSuffix(c.Diff, "\n"), "\n")
				for i, l := range lines {
					lines[i] = printable.String(l)
				}
				b.WriteString("\n" + fence + "diff\n" + strings.Join(lines, "\n") + "\n" + fence + "\n\n")
			}
		}
	}
	markdownManifest(p, r)
	if len(r.Info) > 0 {
		p("\n#### Order and comments\n\nNothing an agent can do changes.\n\n")
		for _, c := range r.Info {
			p("- info: %s (%s)\n", cell(c.What), at(c.At))
		}
	}
	if r.Digest != "" {
		// The digest of what widened, for the GitHub Action's acceptance
		// label; an HTML comment, so a rendered report does not show it.
		p("\n<!-- kokua-widenings: %s -->\n", r.Digest)
	}
	if len(r.Residency) > 0 {
		p("\n#### Residency\n\nWhat each agent holds in context from its first turn, never counted as widened or narrowed: a deferred toolset is one its agent's `available` already names, and the loaders load only those.\n\n")
		for _, a := range r.Residency {
			for _, l := range []struct {
				name string
				xs   []Item
			}{{"resident, gained", a.Resident.Gained}, {"resident, lost", a.Resident.Lost}} {
				for _, it := range l.xs {
					p("- %s, %s: %s (%s)\n", code(a.Agent), l.name, code(it.Name), at(it.At))
				}
			}
			for _, t := range a.Loaders {
				p("- %s, loader %s: %s → %s; %s (%s)\n", code(a.Agent), code(t.Tool), cell(t.Old.Describe()), cell(t.New.Describe()), cell(t.Because), at(t.At))
			}
		}
	}
	return b.String()
}

// edgeMermaid draws the changed part of the delegation graph: the edges
// gained (thick) and lost (dotted), labelled with what they carry.
func edgeMermaid(edges []EdgeChange) string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	ids := map[string]string{}
	id := func(name string) string {
		if ids[name] == "" {
			ids[name] = fmt.Sprintf("n%d", len(ids))
			fmt.Fprintf(&b, "  %s[\"%s\"]\n", ids[name], reach.MermaidText(agentTitle(name)))
		}
		return ids[name]
	}
	for _, e := range edges {
		from, to := id(e.From), id(e.To)
		arrow, sign := "==>", "+"
		if e.Change == "lost" {
			arrow, sign = "-.->", "−"
		}
		label := fmt.Sprintf("%s %s: %d %s", sign, e.Via, len(e.Carries), tools(len(e.Carries)))
		if e.Widened {
			label += fmt.Sprintf(", %d new", len(e.New))
		}
		fmt.Fprintf(&b, "  %s %s|\"%s\"| %s\n", from, arrow, reach.MermaidText(label), to)
	}
	return b.String()
}

// gradeCell flags a grade for the eye.
func gradeCell(g reach.Grade) string {
	switch g {
	case reach.Critical:
		return "🛑 critical"
	case reach.High:
		return "⚠️ high"
	case reach.NoGrade:
		return ""
	}
	return g.String()
}

func beforeAfter(a, b int) string {
	if a == b {
		return fmt.Sprint(a)
	}
	return fmt.Sprintf("%d → **%d**", a, b)
}
