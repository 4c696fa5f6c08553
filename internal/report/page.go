package report

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/kokua"
)

//go:embed page.html
var pageHTML string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

// classes are the decisions' CSS classes, in the order of Decisions. An
// unavailable cell, most of a large matrix, has none: the matrix's cells
// look unavailable unless a class says otherwise, which keeps the page
// small.
var classes = []string{"", "l", "r", "c", "v", "d"}

// names are the decisions as the legend and the reason panel say them.
var names = []string{"unavailable", "not loaded", "run", "confirm", "review", "denied"}

// page is the page's template, parsed when a page is first written: every
// kokua-compile and kokua-run links this package, and parsing the template
// when the program starts cost each of their runs a millisecond.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"printable": printable.String,
		"num":       num,
		"join":      func(xs []string) string { return printable.String(strings.Join(xs, ", ")) },
		"lines":     printable.Lines,
	}).Parse(pageHTML))
})

// cspHash is a Content-Security-Policy source for an inline element's
// exact text.
func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// CSP is the page's Content-Security-Policy: its own style and script by
// their hashes, nothing else from anywhere; the served page may call its
// server's API, the file none.
func CSP(served bool) string {
	connect := "'none'"
	if served {
		connect = "'self'"
	}
	return "default-src 'none'; style-src " + cspHash(pageCSS) + "; script-src " + cspHash(pageJS) +
		"; img-src data:; connect-src " + connect + "; base-uri 'none'; form-action 'none'"
}

// view is what the template reads.
type view struct {
	M         *Model
	CSP       string
	CSS       template.CSS
	JS        template.JS
	Data      template.JS
	Legend    []legend
	Groups    []groupView
	Rows      []rowView
	Drawing   *Drawing
	Summary   summary
	Agents    []agentView
	Changes   *changesView
	Loadables []string
}

type legend struct{ Class, Letter, Name, Meaning string }

type groupView struct {
	Index   int
	Toolset string
	Kind    string
	Span    int
	Tools   []string
}

type rowView struct {
	Index  int
	Agent  string
	Marks  string
	Cells  []cellView
	Hidden bool
}

type cellView struct{ Class, Text string }

type summary struct {
	Entry string
	// Agents are the matrix's rows: the Declared agents, and composed
	// workers when Composed.
	Agents, Declared, Tools int
	// Core counts the core tools among the Tools columns, Registry the
	// rest: the toolsets' tools, which kokua-compile manifest counts.
	Core, Registry       int
	Composed             bool
	AutoApproval         bool
	Reviewers            []string
	MaxPerTurn           int
	FloorActive          bool
	Floor                []string
	SavedBytes, AllBytes int
	SavedPercent         string
	Digest, Compiler     string
	ConfigFile, Manifest string
	BaseName, Headline   string
}

type agentView struct {
	Name, Marks                   string
	Available, Resident, Deferred string
	Delegates, Approval           string
	ResidentBytes, AllBytes       int
	Saved                         string
	HasBlock                      bool
}

// data is the page's JSON: what the script looks answers up in.
type data struct {
	Decisions []string `json:"decisions"`
	Letters   []string `json:"letters"`
	Classes   []string `json:"classes"`
	Toolsets  []string `json:"toolsets"`
	Columns   []int    `json:"columns"`
	Tools     []string `json:"tools"`
	// ToolsetsShown and ToolsShown are Toolsets and Tools as the page
	// shows them: printable.String, as the rest of the page does. The
	// names above are for looking answers up.
	ToolsetsShown []string  `json:"toolsets_shown"`
	ToolsShown    []string  `json:"tools_shown"`
	Reasons       []Reason  `json:"reasons"`
	Answers       [][2]int  `json:"answers"`
	Cells         [][]int   `json:"cells"`
	Rows          []rowData `json:"rows"`
	Marks         [][3]int  `json:"marks"`
	Served        bool      `json:"served"`
}

type rowData struct {
	Agent string `json:"agent"`
	// Shown is the agent's name as the page shows it (printable.String):
	// a bidirectional override, a control or an invisible character in a
	// name is shown escaped, never drawn.
	Shown    string `json:"shown"`
	Marks    string `json:"marks"`
	Label    string `json:"label"`
	Deferred []int  `json:"deferred"`
	Cells    []int  `json:"cells"`
}

type changesView struct {
	Report *diff.Report
	// Headline is diff's first line: the count of changes of each grade,
	// then what widened and narrowed; Grade the most serious grade, ""
	// when nothing is graded.
	Headline string
	Grade    string
	// FailOn is the --fail-on value the verdict is for; Fails whether
	// kokua-compile diff --fail-on FailOn fails the change, and Why says
	// why it fails or passes.
	FailOn string
	Fails  bool
	Why    string
	// The graded changes the first screen shows, after the verdict.
	Risks      []riskView
	Reviewers  []reviewerView
	Floor      *floorView
	Auto       *autoView
	Manifest   []manifestView
	Delegation []edgeView
	Entry      *entryView
	Widened    []toolChangeView
	// NoneWidened is what the page says when no tool's answer widened:
	// "Nothing widened." only when nothing widens and nothing grades
	// medium or above.
	NoneWidened string
	Narrowed    []toolChangeView
	Residency   []string
	Other       []string
}

type toolChangeView struct {
	Agent, Tool, Old, New, Because, At, Grade string
}

// riskView is a risk path the change adds or raises, with its hops.
type riskView struct {
	Grade, Agent, Title, Was, Now string
	Hops                          []hopView
}

type hopView struct{ Text, At string }

// reviewerView is a change to what answers review calls.
type reviewerView struct {
	Grade, Setting, Values, At, Reach string
	// Diff is the instructions' change, one line a line.
	Diff []string
}

// floorView is the never_auto_approve floor's change; each entry dropped
// carries a "dropped" mark.
type floorView struct {
	Grade, Effect, OldActive, NewActive string
	Dropped, Added                      []itemView
	Unprotected                         string
}

type itemView struct{ Name, At string }

// autoView is auto-approval switched.
type autoView struct {
	Grade, Effect, Turned, At, Unprotected string
}

// manifestView is a change of the registry manifest, or of an MCP
// server, between the sides (diff.Report's manifest section).
type manifestView struct {
	Grade, What, Old, New, At string
}

// edgeView is a delegation edge gained or lost.
type edgeView struct {
	Grade, Effect, Change, From, To, Via, At string
	// Widened marks a gained edge that carries something new.
	Widened bool
	New     []string
}

type entryView struct{ Grade, Old, New, At string }

// Write writes the page.
func Write(w io.Writer, m *Model) error {
	v := view{M: m, CSP: CSP(m.Input.Served), CSS: template.CSS(pageCSS), JS: template.JS(pageJS), Drawing: Draw(m.Graph)}
	var dt data
	dt.Marks = [][3]int{}
	for i := range Decisions {
		v.Legend = append(v.Legend, legend{Class: classes[i], Letter: Letters[i], Name: names[i], Meaning: meanings[i]})
	}
	col := 0
	for i, g := range m.Groups {
		gv := groupView{Index: i, Toolset: g.Toolset, Kind: g.Kind, Span: len(g.Columns)}
		for _, c := range g.Columns {
			gv.Tools = append(gv.Tools, c.Tool)
			dt.Columns = append(dt.Columns, i)
			dt.Tools = append(dt.Tools, c.Tool)
			dt.ToolsShown = append(dt.ToolsShown, printable.String(c.Tool))
			col++
		}
		v.Groups = append(v.Groups, gv)
	}
	dt.Decisions = make([]string, len(Decisions))
	for i, d := range Decisions {
		dt.Decisions[i] = string(d)
	}
	dt.Letters, dt.Classes, dt.Toolsets = Letters, classes, m.Toolsets
	for _, ts := range m.Toolsets {
		dt.ToolsetsShown = append(dt.ToolsetsShown, printable.String(ts))
	}
	for _, r := range m.Reasons {
		dt.Reasons = append(dt.Reasons, r.printable())
	}
	dt.Answers, dt.Served = m.Answers, m.Input.Served
	for _, c := range m.Cells {
		flat := []int{c.Idle[0], c.Idle[1], c.Loaded[0], c.Loaded[1]}
		for _, o := range c.Others {
			flat = append(flat, o.Toolset, o.Answer[0], o.Answer[1])
		}
		dt.Cells = append(dt.Cells, flat)
	}
	loadable := map[int]bool{}
	for ri, r := range m.Rows {
		dt.Rows = append(dt.Rows, rowData{Agent: r.Agent, Shown: printable.String(r.Agent), Label: r.Label, Deferred: append([]int{}, r.Deferred...), Cells: append([]int{}, r.Cells...)})
		row := &dt.Rows[len(dt.Rows)-1]
		for _, t := range r.Deferred {
			loadable[t] = true
		}
		rv := rowView{Index: ri, Agent: r.Agent}
		switch {
		case r.Entry:
			rv.Marks = "entry agent"
		case r.Composed:
			rv.Marks = "composed workers"
		case !r.Reachable:
			rv.Marks = "not reachable"
		}
		row.Marks = rv.Marks
		for ci, c := range r.Cells {
			a := m.Answers[m.Cells[c].Idle[0]][0]
			cv := cellView{Class: classes[a], Text: Letters[a]}
			switch m.Marks[[2]string{r.Agent, m.Columns[ci].Name()}] {
			case 1:
				cv.Class = strings.TrimSpace(cv.Class + " w")
				cv.Text += "+"
				dt.Marks = append(dt.Marks, [3]int{ri, ci, 1})
			case -1:
				cv.Class = strings.TrimSpace(cv.Class + " n")
				cv.Text += "−"
				dt.Marks = append(dt.Marks, [3]int{ri, ci, -1})
			}
			rv.Cells = append(rv.Cells, cv)
		}
		v.Rows = append(v.Rows, rv)
	}
	for i, ts := range m.Toolsets {
		if loadable[i] {
			v.Loadables = append(v.Loadables, ts)
		}
	}
	// encoding/json escapes <, > and & (so no "</script>" can end the
	// block early) and U+2028 and U+2029; PrintableJSON escapes the rest
	// of what no output may carry raw. The escapes decode to the names.
	js, err := json.Marshal(dt)
	if err != nil {
		return err
	}
	v.Data = template.JS(printable.JSON(js))
	v.Summary = m.summary()
	v.Agents = m.agents()
	v.Changes = m.changes()
	return page().Execute(w, v)
}

var meanings = []string{
	"the agent can never call the tool",
	"its toolset is deferred and not loaded in this session; load_tools would load it",
	"the call runs without asking",
	"the call asks the user",
	"the call goes to review: a reviewer model first when auto-approval is on and the tool is off the floor, then the user",
	"an unattended turn denies the gated call",
}

func (m *Model) summary() summary {
	d := m.Doc
	// The agents are counted as the matrix has rows: composed workers,
	// when an agent can compose them, are one more.
	s := summary{Entry: d.EntryAgent, Agents: len(m.Rows), Declared: len(d.Agents), Tools: len(m.Columns), AutoApproval: d.AutoApproval.Enabled,
		Reviewers: d.AutoApproval.Reviewers, MaxPerTurn: d.AutoApproval.MaxPerTurn, FloorActive: d.Floor.Active,
		Digest: d.Digest, Compiler: d.Compiler, ConfigFile: m.ConfigFile(), Manifest: d.Inputs.Manifest.File}
	s.Core = len(d.CoreTools)
	s.Registry = s.Tools - s.Core
	for _, e := range d.Floor.List.Entries {
		s.Floor = append(s.Floor, e.Text)
	}
	for _, r := range m.Rows {
		s.Composed = s.Composed || r.Composed
	}
	for _, a := range d.Agents {
		if a.ToolBlock != nil {
			s.AllBytes += a.ToolBlock.AllResidentBytes
			s.SavedBytes += a.ToolBlock.AllResidentBytes - a.ToolBlock.ResidentBytes
		}
	}
	if s.AllBytes > 0 {
		s.SavedPercent = strconv.FormatFloat(100*float64(s.SavedBytes)/float64(s.AllBytes), 'f', 1, 64)
	}
	if c := m.Input.Changes; c != nil {
		s.BaseName, s.Headline = c.Old, c.Headline()
	}
	return s
}

func (m *Model) agents() []agentView {
	var out []agentView
	for _, r := range m.Rows {
		a := m.Doc.Agents[r.Agent]
		if a == nil {
			continue
		}
		av := agentView{Name: r.Agent, Available: orNone(a.Available.Expanded), Deferred: orNone(a.Deferred), Delegates: orNone(a.DelegatesTo)}
		switch {
		case r.Entry:
			av.Marks = "entry agent"
		case !r.Reachable:
			av.Marks = "not reachable"
		}
		if a.Available.All {
			av.Available = "all: " + av.Available
		}
		av.Resident = "every available toolset"
		if a.ResidentDeclared {
			av.Resident = orNone(a.Resident)
		}
		av.Approval = "inherited from [assistant.tools]"
		if a.Approval.Source == "declared" {
			av.Approval = "declared in " + a.Approval.Table
		}
		if b := a.ToolBlock; b != nil {
			av.HasBlock, av.ResidentBytes, av.AllBytes = true, b.ResidentBytes, b.AllResidentBytes
			av.Saved = strconv.FormatFloat(b.SavedPercent, 'f', 1, 64)
		}
		out = append(out, av)
	}
	return out
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// changes lists a comparison's changes as the page shows them: first the
// verdict (the graded headline, and whether kokua-compile diff --fail-on
// fails the change), then the graded changes no tool's cell shows (new
// risk paths with their hops, reviewers, the floor, auto-approval, the
// manifest, delegation, the entry agent), then the tools widened, each
// with the change that caused it, the tools narrowed and residency, then
// the whole report as kokua-compile diff writes it in markdown.
func (m *Model) changes() *changesView {
	r := m.Input.Changes
	if r == nil {
		return nil
	}
	cv := &changesView{Report: r, Headline: r.Headline(), Grade: gradeName(r.Grade), FailOn: m.FailOn()}
	cv.Fails, cv.Why = verdict(r, cv.FailOn)
	tc := func(agent string, c diff.ToolChange) toolChangeView {
		return toolChangeView{Agent: agent, Tool: c.Tool, Old: c.Old.Describe(), New: c.New.Describe(), Because: c.Because, At: c.At.String(),
			Grade: gradeName(c.Grade)}
	}
	for _, a := range r.Agents {
		for _, c := range a.Widened {
			cv.Widened = append(cv.Widened, tc(a.Agent, c))
		}
		for _, c := range a.Narrowed {
			cv.Narrowed = append(cv.Narrowed, tc(a.Agent, c))
		}
	}
	cv.NoneWidened = "Nothing widened."
	if r.Widened || r.Grade >= reach.Medium {
		cv.NoneWidened = "No agent's answer for a tool widened; what the change grades " + r.Grade.String() + " for is listed above."
	}
	for _, c := range r.Risks {
		rv := riskView{Grade: gradeName(c.Grade), Agent: diff.AgentTitle(c.Agent), Title: diff.PathTitle(c.Path), Was: diff.LevelWas(c.Old),
			Now: c.Path.Level.Phrase()}
		for i, h := range c.Path.Hops {
			if i == reach.HeadHops && c.Path.Omitted() > 0 {
				// The hops a long path leaves out, counted where they are.
				rv.Hops = append(rv.Hops, hopView{Text: diff.HopsLeftOut(c.Path.Omitted())})
			}
			rv.Hops = append(rv.Hops, hopView{Text: diff.HopText(h), At: h.At.String()})
		}
		cv.Risks = append(cv.Risks, rv)
	}
	for _, c := range r.Reviewers {
		rv := reviewerView{Grade: gradeName(c.Grade), Setting: c.Setting(), Values: c.Values(), At: c.At.String(), Reach: c.Reach()}
		if c.Diff != "" {
			rv.Diff = strings.Split(strings.TrimSuffix(c.Diff, "\n"), "\n")
		}
		cv.Reviewers = append(cv.Reviewers, rv)
	}
	if f := r.Floor; f != nil {
		fv := &floorView{Grade: gradeName(f.Grade), Effect: f.Effect(), OldActive: onOff(f.OldActive), NewActive: onOff(f.NewActive),
			Unprotected: strings.Join(f.Unprotected, ", ")}
		for _, it := range f.Dropped {
			fv.Dropped = append(fv.Dropped, itemView{Name: it.Name, At: it.At.String()})
		}
		for _, it := range f.Added {
			fv.Added = append(fv.Added, itemView{Name: it.Name, At: it.At.String()})
		}
		cv.Floor = fv
	}
	if a := r.AutoApproval; a != nil {
		cv.Auto = &autoView{Grade: gradeName(a.Grade), Effect: a.Effect(), Turned: onOff(a.New), At: a.At.String(),
			Unprotected: strings.Join(a.Unprotected, ", ")}
	}
	cv.Manifest = manifestChanges(r)
	for _, e := range r.Delegation {
		cv.Delegation = append(cv.Delegation, edgeView{Grade: gradeName(e.Grade), Effect: e.Effect(), Change: e.Change,
			From: diff.AgentTitle(e.From), To: diff.AgentTitle(e.To), Via: e.Via, At: e.At.String(), Widened: e.Widened, New: r.NewTo(e)})
	}
	if e := r.EntryAgent; e != nil {
		cv.Entry = &entryView{Grade: gradeName(e.Grade), Old: e.Old, New: e.New, At: e.At.String()}
	}
	for _, rc := range r.Residency {
		var parts []string
		for _, it := range rc.Resident.Gained {
			parts = append(parts, fmt.Sprintf("%s now holds %s from the first turn (%s)", rc.Agent, it.Name, it.At))
		}
		for _, it := range rc.Resident.Lost {
			parts = append(parts, fmt.Sprintf("%s now loads %s on demand (%s)", rc.Agent, it.Name, it.At))
		}
		for _, l := range rc.Loaders {
			parts = append(parts, fmt.Sprintf("%s: %s %s → %s", rc.Agent, l.Tool, l.Old.Describe(), l.New.Describe()))
		}
		cv.Residency = append(cv.Residency, parts...)
	}
	var b strings.Builder
	if err := diff.Write(&b, "markdown", r); err == nil {
		cv.Other = strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	}
	return cv
}

// manifestChanges is the hook for the manifest's changes between the two
// sides: diff.Report does not compare the sides' manifests yet (both are
// compiled against one), so there is none to show. When the report gains
// its manifest section, this fills the page's "Manifest" part from it;
// the template shows the part whenever this returns some.
func manifestChanges(r *diff.Report) []manifestView {
	m := r.Manifest
	if m == nil {
		return nil
	}
	var out []manifestView
	if m.Differs {
		out = append(out, manifestView{Grade: gradeName(reach.Info), What: "the manifest", Old: m.Old.File + " " + m.Old.SHA256,
			New: m.New.File + " " + m.New.SHA256})
	}
	classes := func(cs []kokua.Class) string {
		if len(cs) == 0 {
			return "none"
		}
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = string(c)
		}
		return strings.Join(parts, ", ")
	}
	for _, t := range m.Tools {
		v := manifestView{Grade: gradeName(t.Grade), What: t.Toolset + "." + t.Tool + " " + t.Change, At: t.At.String()}
		switch t.Change {
		case "classes":
			v.Old, v.New = classes(t.OldClasses), classes(t.NewClasses)
		case "added":
			v.Old, v.New = "absent", classes(t.NewClasses)
		default:
			v.Old, v.New = classes(t.OldClasses), "absent"
		}
		out = append(out, v)
	}
	for _, ts := range m.Toolsets {
		out = append(out, manifestView{Grade: gradeName(ts.Grade), What: "toolset " + ts.Toolset + " (" + ts.Kind + ")", Old: "before", New: ts.Change, At: ts.At.String()})
	}
	for _, sc := range m.Servers {
		was, now := sc.Old, sc.New
		if was == "" {
			was = "unset"
		}
		if now == "" {
			now = "unset"
		}
		out = append(out, manifestView{Grade: gradeName(sc.Grade), What: "MCP server " + sc.Server + " " + sc.Field, Old: was, New: now, At: sc.At.String()})
	}
	return out
}

// verdict says whether kokua-compile diff --fail-on failOn fails a
// report, as diff.Report.Fails decides, and why.
func verdict(r *diff.Report, failOn string) (bool, string) {
	fails := r.Fails(failOn)
	switch {
	case fails && r.Grade >= reach.Medium:
		return true, "a change grades " + r.Grade.String() + "."
	case fails:
		return true, "the change widens what some agent can do."
	case failOn == "any" && r.Grade == reach.NoGrade:
		return false, "nothing widens, and nothing is graded."
	case failOn == "any":
		return false, "nothing widens, and nothing grades medium or above (the most serious grade is " + r.Grade.String() + ")."
	case r.Grade == reach.NoGrade:
		return false, "nothing is graded."
	}
	return false, "nothing grades " + failOn + " or above (the most serious grade is " + r.Grade.String() + ")."
}

// gradeName is a grade as the page writes it, "" for none.
func gradeName(g reach.Grade) string {
	if g == reach.NoGrade {
		return ""
	}
	return g.String()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
