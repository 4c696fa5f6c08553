package diff

import (
	"fmt"
	"io"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/english"
	"github.com/kokua-policy/kokua-policy/internal/escape"
	"github.com/kokua-policy/kokua-policy/internal/format"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// RiskFormats are the formats of kokua-compile risks's report: human,
// markdown (one table per agent) and json (one object, the RiskReport's
// fields).
var RiskFormats = format.New("risks",
	format.Format[*RiskReport]{Info: format.Info{Name: "human"}, Write: text(func(r *RiskReport) string { return escape.LogText(risksHuman(r)) })},
	format.Format[*RiskReport]{Info: format.Info{Name: "markdown"}, Write: text(risksMarkdown)},
	format.Format[*RiskReport]{Info: format.Info{Name: "json"}, Write: writeJSON[*RiskReport]},
)

// RiskReport is what kokua-compile risks writes: one side's risk paths
// (reach.Graph.Risks), each hop placed in the config.
type RiskReport struct {
	File string `json:"file"`
	// Grades counts the paths of each grade.
	Grades GradeCount  `json:"grades"`
	Agents []AgentRisk `json:"agents"`
}

// GradeCount counts paths or changes by grade.
type GradeCount struct {
	Critical int `json:"critical"`
	High     int `json:"high"`
	Medium   int `json:"medium"`
	Info     int `json:"info"`
}

func (c *GradeCount) add(g reach.Grade) {
	switch g {
	case reach.Critical:
		c.Critical++
	case reach.High:
		c.High++
	case reach.Medium:
		c.Medium++
	case reach.Info:
		c.Info++
	}
}

// Of is the count of one grade.
func (c GradeCount) Of(g reach.Grade) int {
	switch g {
	case reach.Critical:
		return c.Critical
	case reach.High:
		return c.High
	case reach.Medium:
		return c.Medium
	case reach.Info:
		return c.Info
	}
	return 0
}

// String is the headline: the count of each grade present, most serious
// first ("1 critical, 3 high"), or "none".
func (c GradeCount) String() string {
	var parts []string
	for _, g := range reach.Grades {
		if n := c.Of(g); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, g))
		}
	}
	if parts == nil {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// AgentRisk is one agent's view, placed. Runs names the first
// reach.MaxRuns agents the view sets running (the agent first), RunsCount
// counts them all.
type AgentRisk struct {
	Agent     string   `json:"agent"`
	Runs      []string `json:"runs"`
	RunsCount int      `json:"runs_total"`
	// Reachable is false for an agent startup does not build: its view is
	// what it would set running, no power until some change makes it
	// reachable, and diff compares only the views of reachable agents.
	Reachable bool         `json:"reachable"`
	Paths     []PlacedPath `json:"paths"`
}

// PlacedPath is a risk path whose every hop names its config line.
type PlacedPath struct {
	Class   kokua.Class   `json:"class"`
	Lethal  bool          `json:"lethal"`
	Toolset string        `json:"toolset"`
	Tools   []string      `json:"tools"`
	Classes []kokua.Class `json:"classes"`
	Level   reach.Level   `json:"level"`
	Grade   reach.Grade   `json:"grade"`
	// Hops are the path's hops, or, of a path of more than reach.MaxHops,
	// the first reach.HeadHops and the last ones; HopCount counts them
	// all, and those left out are between Hops[reach.HeadHops-1] and
	// Hops[reach.HeadHops].
	Hops     []PlacedHop `json:"hops"`
	HopCount int         `json:"hops_total"`
}

// Omitted is how many of the path's hops Hops leaves out.
func (p PlacedPath) Omitted() int { return p.HopCount - len(p.Hops) }

// hopLines are what a report says of a path's hops, each through say,
// with a line saying how many are left out where they are.
func (p PlacedPath) hopLines(say func(PlacedHop) string, omitted func(n int) string) []string {
	var out []string
	for i, h := range p.Hops {
		if i == reach.HeadHops && p.Omitted() > 0 {
			out = append(out, omitted(p.Omitted()))
		}
		out = append(out, say(h))
	}
	return out
}

// hopsLeftOut says how many hops a path leaves out.
func hopsLeftOut(n int) string {
	if n == 1 {
		return "... 1 more hop ..."
	}
	return "... " + printable.Thousands(n) + " more hops ..."
}

// runsText names the agents a view sets running: the first few, then a
// count of the rest.
func runsText(a AgentRisk) string {
	return english.Counted(a.Runs, a.RunsCount, "", nil)
}

// PlacedHop is a hop and the line that makes it possible: the gating
// entry, or the available item or delegates_to item that grants it.
type PlacedHop struct {
	reach.Hop
	At Place `json:"at"`
}

// Risks places a side's risk paths.
func Risks(s *Side) *RiskReport {
	r := &RiskReport{File: s.Name, Agents: []AgentRisk{}}
	// The listing needs no path's identity (RiskList).
	for _, a := range s.Graph.RiskList() {
		ar := AgentRisk{Agent: a.Agent, Runs: a.Runs, RunsCount: a.RunsCount, Reachable: a.Reachable, Paths: []PlacedPath{}}
		for _, p := range a.Paths {
			ar.Paths = append(ar.Paths, s.placePath(p))
			r.Grades.add(p.Grade)
		}
		r.Agents = append(r.Agents, ar)
	}
	return r
}

func (s *Side) placePath(p reach.Path) PlacedPath {
	pp := PlacedPath{Class: p.Class, Lethal: p.Lethal, Toolset: p.Toolset, Tools: p.Tools, Classes: p.Classes, Level: p.Level, Grade: p.Grade,
		Hops: s.placeHops(p.Hops), HopCount: p.HopCount}
	if pp.Classes == nil {
		pp.Classes = []kokua.Class{}
	}
	return pp
}

func (s *Side) placeHops(hops []reach.Hop) []PlacedHop {
	out := make([]PlacedHop, len(hops))
	for i, h := range hops {
		out[i] = PlacedHop{Hop: h, At: s.hopPlace(h)}
	}
	return out
}

// hopPlace is the line behind a hop: a gated call's entry; an ungated
// call's toolset in available (the manifest, for composed workers); a
// delegation's delegates_to item or capabilities; a result's delegation.
func (s *Side) hopPlace(h reach.Hop) Place {
	switch h.Kind {
	case reach.HopDelegates:
		return edgePlace(s, reach.Edge{From: h.Agent, To: h.To, Via: h.Via})
	case reach.HopReturns:
		if e, ok := s.edge(h.To, h.Agent); ok {
			return edgePlace(s, e)
		}
		return s.place(delegatesKey(h.To), s.delegatesSpan(h.To))
	}
	if h.Answer.Entry != "" {
		return s.entryPlace(h.Answer.Key, h.Answer.Position)
	}
	if h.Agent == reach.ComposedNode {
		// Composed workers hold the whole registry; the line that makes
		// them is a composer's capabilities item (issue 38).
		if e, ok := s.composer(); ok {
			return edgePlace(s, e)
		}
	}
	_, at := reachedBy(s, h.Agent, h.Answer, "now")
	return at
}

// composer is the compose_subagent edge of the first agent, by name,
// that sets composed workers running, if any does.
func (s *Side) composer() (reach.Edge, bool) {
	var first reach.Edge
	found := false
	for _, e := range s.Graph.Edges {
		if e.Via == kokua.ComposeSubagent && e.To == reach.ComposedNode && (!found || e.From < first.From) {
			first, found = e, true
		}
	}
	return first, found
}

// WriteRisks writes a risk report in one of RiskFormats.
func WriteRisks(w io.Writer, format string, r *RiskReport) error {
	return RiskFormats.Write(w, format, r)
}

// pathTitle says what a path lets untrusted content do.
func pathTitle(p PlacedPath) string {
	if p.Lethal {
		return "the lethal combination: untrusted content, private data and a way out"
	}
	what := map[kokua.Class]string{
		kokua.Exec: "run code", kokua.Write: "change files", kokua.SelfModify: "change Kokua's own setup",
		kokua.Persist: "set up what outlives the turn", kokua.Egress: "send data out",
	}[p.Class]
	var cs []string
	for _, c := range p.Classes {
		cs = append(cs, string(c))
	}
	return fmt.Sprintf("untrusted content can %s: %s in %s (%s)", what, strings.Join(p.Tools, ", "), p.Toolset, strings.Join(cs, ", "))
}

// hopText says one hop for people.
func hopText(h PlacedHop) string {
	switch h.Kind {
	case reach.HopReads:
		return fmt.Sprintf("%s reads %s.%s: %s", agentTitle(h.Agent), h.Answer.Toolset, h.Answer.Tool, h.Answer.Describe())
	case reach.HopDelegates:
		return fmt.Sprintf("%s sets %s running (%s): %s", agentTitle(h.Agent), agentTitle(h.To), h.Via, h.Answer.Describe())
	case reach.HopReturns:
		return fmt.Sprintf("%s returns its result to %s: runs unasked", agentTitle(h.Agent), agentTitle(h.To))
	}
	return fmt.Sprintf("%s calls %s.%s: %s", agentTitle(h.Agent), h.Answer.Toolset, h.Answer.Tool, h.Answer.Describe())
}

func risksHuman(r *RiskReport) string {
	var b strings.Builder
	p := printer(&b)
	p("%s: risk paths: %s\n", r.File, r.Grades)
	for _, a := range r.Agents {
		p("\nagent %s (%ssets running: %s)\n", agentTitle(a.Agent), unreachedNote(a), runsText(a))
		if len(a.Paths) == 0 {
			p("  no risk path\n")
		}
		for _, path := range a.Paths {
			p("  %s: %s; %s\n", path.Grade, pathTitle(path), path.Level.Phrase())
			for _, line := range path.hopLines(humanHop, hopsLeftOut) {
				p("    %s\n", line)
			}
			if help := path.ComposedHelp(); help != "" {
				p("    help: %s\n", help)
			}
		}
	}
	return b.String()
}

// ComposedHelp is the way out of a path that ends at an ungated call by
// composed workers, which hold every registered toolset: the two ways
// Kokua allows (docs/readings.md, "Composed workers and an entry on a toolset no agent declares");
// "" for any other path.
func (p PlacedPath) ComposedHelp() string {
	if len(p.Hops) == 0 {
		return ""
	}
	last := p.Hops[len(p.Hops)-1]
	if last.Kind != reach.HopCalls || last.Agent != reach.ComposedNode || last.Answer.Entry != "" {
		return ""
	}
	return fmt.Sprintf("composed workers hold every registered toolset, %s among them, because an agent holds capabilities (%s): drop capabilities from every agent Kokua builds, or declare %s on an agent and gate its tools in [assistant.tools], the pair composed workers get",
		p.Toolset, last.At, p.Toolset)
}

func risksMarkdown(r *RiskReport) string {
	var b strings.Builder
	p := printer(&b)
	p("### Risk paths: %s\n\n%s.\n", code(r.File), upperFirst(r.Grades.String()))
	for _, a := range r.Agents {
		p("\n#### Agent %s\n\n%s: %s.\n", code(agentTitle(a.Agent)), upperFirst(unreachedNote(a)+"sets running"), cell(runsText(a)))
		if len(a.Paths) == 0 {
			p("\nNo risk path.\n")
			continue
		}
		p("\n| grade | path | gate | hops |\n| --- | --- | --- | --- |\n")
		for _, path := range a.Paths {
			hops := path.hopLines(markdownHop, hopsLeftOut)
			p("| %s | %s | %s | %s |\n", path.Grade, cell(pathTitle(path)), cell(path.Level.Phrase()), strings.Join(hops, "<br>"))
		}
	}
	return b.String()
}

// unreachedNote says, before what a view sets running, that startup does
// not build its agent: "" for a reachable one.
func unreachedNote(a AgentRisk) string {
	if a.Reachable {
		return ""
	}
	return "not reachable: none of this runs until a change makes it reachable; "
}

// humanHop and markdownHop are a hop with its place, as the human and
// Markdown reports write it.
func humanHop(h PlacedHop) string    { return fmt.Sprintf("%s (%s)", hopText(h), h.At) }
func markdownHop(h PlacedHop) string { return cell(hopText(h)) + " (" + at(h.At) + ")" }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
