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

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/diff"
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
		"printable": diag.Printable,
		"num":       num,
		"join":      func(xs []string) string { return diag.Printable(strings.Join(xs, ", ")) },
		"lines":     diag.PrintableLines,
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
	Entry                 string
	Agents, Tools         int
	AutoApproval          bool
	Reviewers             []string
	MaxPerTurn            int
	FloorActive           bool
	Floor                 []string
	SavedBytes, AllBytes  int
	SavedPercent          string
	Digest, Compiler      string
	ConfigFile, Manifest  string
	Widened, Narrowed     int
	BaseName, ChangedName string
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
	Decisions []string  `json:"decisions"`
	Letters   []string  `json:"letters"`
	Classes   []string  `json:"classes"`
	Toolsets  []string  `json:"toolsets"`
	Columns   []int     `json:"columns"`
	Tools     []string  `json:"tools"`
	Reasons   []Reason  `json:"reasons"`
	Answers   [][2]int  `json:"answers"`
	Cells     [][]int   `json:"cells"`
	Rows      []rowData `json:"rows"`
	Marks     [][3]int  `json:"marks"`
	Served    bool      `json:"served"`
}

type rowData struct {
	Agent    string `json:"agent"`
	Marks    string `json:"marks"`
	Label    string `json:"label"`
	Deferred []int  `json:"deferred"`
	Cells    []int  `json:"cells"`
}

type changesView struct {
	Report    *diff.Report
	Widened   []toolChangeView
	Narrowed  []toolChangeView
	Residency []string
	Other     []string
}

type toolChangeView struct {
	Agent, Tool, Old, New, Because, At string
}

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
			col++
		}
		v.Groups = append(v.Groups, gv)
	}
	dt.Decisions = make([]string, len(Decisions))
	for i, d := range Decisions {
		dt.Decisions[i] = string(d)
	}
	dt.Letters, dt.Classes, dt.Toolsets = Letters, classes, m.Toolsets
	dt.Reasons, dt.Answers, dt.Served = m.Reasons, m.Answers, m.Input.Served
	for _, c := range m.Cells {
		flat := []int{c.Idle[0], c.Idle[1], c.Loaded[0], c.Loaded[1]}
		for _, o := range c.Others {
			flat = append(flat, o.Toolset, o.Answer[0], o.Answer[1])
		}
		dt.Cells = append(dt.Cells, flat)
	}
	loadable := map[int]bool{}
	for ri, r := range m.Rows {
		dt.Rows = append(dt.Rows, rowData{Agent: r.Agent, Label: r.Label, Deferred: append([]int{}, r.Deferred...), Cells: append([]int{}, r.Cells...)})
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
	v.Data = template.JS(diag.PrintableJSON(js))
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
	s := summary{Entry: d.EntryAgent, Agents: len(d.Agents), Tools: len(m.Columns), AutoApproval: d.AutoApproval.Enabled,
		Reviewers: d.AutoApproval.Reviewers, MaxPerTurn: d.AutoApproval.MaxPerTurn, FloorActive: d.Floor.Active,
		Digest: d.Digest, Compiler: d.Compiler, ConfigFile: m.ConfigFile(), Manifest: d.Inputs.Manifest.File}
	for _, e := range d.Floor.List.Entries {
		s.Floor = append(s.Floor, e.Text)
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
		s.Widened, s.Narrowed, s.BaseName, s.ChangedName = c.WidenedCount, c.NarrowedCount, c.Old, c.New
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

// changes lists a comparison's changes: widened tools first, each with
// the change that caused it, then narrowed ones, then residency, then the
// rest of the report (agents, delegation, auto-approval, the floor) as
// kokua-compile diff writes them in markdown.
func (m *Model) changes() *changesView {
	r := m.Input.Changes
	if r == nil {
		return nil
	}
	cv := &changesView{Report: r}
	tc := func(agent string, c diff.ToolChange) toolChangeView {
		return toolChangeView{Agent: agent, Tool: c.Tool, Old: c.Old.Describe(), New: c.New.Describe(), Because: c.Because, At: c.At.String()}
	}
	for _, a := range r.Agents {
		for _, c := range a.Widened {
			cv.Widened = append(cv.Widened, tc(a.Agent, c))
		}
		for _, c := range a.Narrowed {
			cv.Narrowed = append(cv.Narrowed, tc(a.Agent, c))
		}
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

func num(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
