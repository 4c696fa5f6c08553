package diff

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/escape"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// github writes a report as GitHub Actions workflow commands: one
// annotation per graded change, on the line of the new config that
// caused it (critical and high as errors, medium as warnings, info as
// notices), so that a pull request shows each on its changed line. A
// change whose place is not a line of the new file (a line of the old
// one, the manifest, a policy's key) is annotated without a place, in
// the run's summary.
func github(r *Report) string {
	var b strings.Builder
	note := func(g reach.Grade, at Place, msg string) {
		level := "notice"
		switch g {
		case reach.Critical, reach.High:
			level = "error"
		case reach.Medium:
			level = "warning"
		}
		props := ""
		if at.File == r.New && at.Line > 0 {
			props = fmt.Sprintf(" file=%s,line=%d,col=%d,", ghProp(at.File), at.Line, at.Column)
		} else {
			props = " "
			msg += " (" + at.String() + ")"
		}
		fmt.Fprintf(&b, "::%s%stitle=%s::%s\n", level, props, ghProp("kokua-compile diff: "+g.String()), ghData(msg))
	}
	if r.EntryAgent != nil {
		note(r.EntryAgent.Grade, r.EntryAgent.At, fmt.Sprintf("the entry agent changes from %s to %s", r.EntryAgent.Old, r.EntryAgent.New))
	}
	for _, a := range r.Agents {
		for _, gr := range groupChanges(a.Widened) {
			at := a.Widened[0].At
			for _, t := range a.Widened {
				if t.Tool == gr.tools[0] {
					at = t.At
				}
			}
			note(gr.grade, at, fmt.Sprintf("agent %s: %s: %s; %s", agentTitle(a.Agent), strings.Join(gr.tools, ", "), gr.head, strings.TrimSuffix(gr.cause(), " ("+at.String()+")")))
		}
	}
	for _, e := range r.Delegation {
		if e.Widened {
			note(e.Grade, e.At, fmt.Sprintf("%s -> %s (%s) gives %s %d new %s: %s", agentTitle(e.From), agentTitle(e.To), e.Via, agentTitle(e.From),
				len(e.New), tools(len(e.New)), strings.Join(groupReached(r.newGraph, e.New), "; ")))
		}
	}
	if a := r.AutoApproval; a != nil && a.Grade != reach.NoGrade {
		note(a.Grade, a.At, fmt.Sprintf("auto-approval turned on: a reviewer may answer for the user on %d %s", len(a.Unprotected), tools(len(a.Unprotected))))
	}
	if f := r.Floor; f != nil && f.Grade != reach.NoGrade {
		at := Place{File: r.New, Key: "[security].never_auto_approve"}
		if len(f.Added) > 0 {
			at = f.Added[0].At
		}
		note(f.Grade, at, fmt.Sprintf("the floor (never_auto_approve) changes: %s", floorMark(f)))
	}
	for _, c := range r.Risks {
		at := c.Path.Hops[len(c.Path.Hops)-1].At
		for _, h := range c.Path.Hops {
			if h.At.File == r.New && h.At.Line > 0 {
				at = h.At
			}
		}
		note(c.Grade, at, fmt.Sprintf("agent %s: %s; %s", agentTitle(c.Agent), pathTitle(c.Path), riskMove(c)))
	}
	for _, c := range r.Reviewers {
		note(c.Grade, c.At, fmt.Sprintf("%s: %s; %s", reviewerField(c), reviewerValues(c), reviewerReach(c)))
	}
	githubManifest(note, r)
	for _, c := range r.Info {
		note(reach.Info, c.At, c.What+" changed; nothing an agent can do changes")
	}
	for _, res := range r.Residency {
		at := Place{File: r.New}
		for _, it := range append(append([]Item{}, res.Resident.Gained...), res.Resident.Lost...) {
			at = it.At
			break
		}
		note(reach.Info, at, fmt.Sprintf("agent %s: residency changes, never power", res.Agent))
	}
	return b.String()
}

// ghData escapes an annotation's message; ghProp a property's value.
func ghData(s string) string { return escape.GitHubData(printable.String(s)) }

func ghProp(s string) string { return escape.GitHubProperty(s) }
