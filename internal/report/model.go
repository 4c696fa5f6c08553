// Package report writes the policy explorer: one self-contained HTML page
// that shows a compiled policy as a matrix of agents by tools, each cell
// the decision with its reason, the reach graph, a summary, a simulator of
// a session's loaded toolsets and unattended turns, and, given the
// comparison with a base, what a change widened and narrowed.
//
// Every answer on the page comes from the policy package: the cells are
// the answers of policy.Policy.Decide and of sessions that loaded
// toolsets, computed here for every state class a cell's answer depends
// on, so that the page's script only looks them up. The graph is
// internal/reach's, the change list internal/diff's, the agents' facts
// internal/engine's WritePolicyAgents (what kokua-compile agents prints).
//
// The page is written with html/template: agent, toolset and tool names,
// entry texts and config lines are hostile input, escaped for the context
// they land in. It makes no request (its CSS, script, drawing and data
// are inline, and its Content-Security-Policy forbids any other source)
// and reads the same with scripts off, where its tables are plain HTML.
// The same input always gives the same bytes.
package report

import (
	"bytes"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Input is what a page is made of.
type Input struct {
	// Name is the input as the user named it: the page's title.
	Name   string
	Policy *policy.Policy
	// Config is the config's text when the policy was compiled from it
	// here, so that a reason can quote the line of its entry; nil for a
	// policy file, whose reasons give the line's number only.
	Config []byte
	// Changes is the comparison with a base (kokua-compile report --base),
	// or nil.
	Changes *diff.Report
	// FailOn is the kokua-compile diff --fail-on value (one of
	// diff.FailOn) the page's verdict on Changes is for; "" is diff's
	// default, any.
	FailOn string
	// Served marks the page kokua-run serve serves: it may call the
	// server's /v1/decide from its decision tester.
	Served bool
}

// Decisions are the decisions by the numbers the page's data uses for them.
var Decisions = []policy.Decision{policy.Unavailable, policy.NotLoaded, policy.Run, policy.Confirm, policy.Review, policy.Denied}

// Letters are the decisions' one-letter marks in the matrix, in the order
// of Decisions; the legend spells each out.
var Letters = []string{"·", "L", "R", "C", "V", "D"}

func decisionNumber(d policy.Decision) int {
	return slices.Index(Decisions, d)
}

// Reason is a reason as the page shows it.
type Reason struct {
	Summary   string `json:"s"`
	List      string `json:"l,omitempty"`
	Key       string `json:"k,omitempty"`
	Entry     string `json:"e,omitempty"`
	File      string `json:"f,omitempty"`
	Line      int    `json:"n,omitempty"`
	Column    int    `json:"c,omitempty"`
	Text      string `json:"t,omitempty"`
	Inherited bool   `json:"i,omitempty"`
	Reviewer  bool   `json:"r,omitempty"`
}

// printable is the reason as the page's reason panel shows it: every
// text that quotes a name or a line of the config, printable.String.
func (r Reason) printable() Reason {
	for _, s := range []*string{&r.Summary, &r.List, &r.Key, &r.Entry, &r.File, &r.Text} {
		*s = printable.String(*s)
	}
	return r
}

// Column is one tool of the matrix: a toolset's tool by its qualified
// name, or a core tool.
type Column struct {
	Toolset string
	Tool    string
}

// Name is the column's qualified name, for people.
func (c Column) Name() string { return c.Toolset + "." + c.Tool }

// Group is a toolset's columns.
type Group struct {
	Toolset string
	Kind    string
	Columns []Column
}

// Cell is what one agent gets for one tool, in every state class its
// answer depends on. Each state is an answer, a number in Model.Answers.
type Cell struct {
	// Idle is the answer of a session that has loaded nothing, in an
	// attended and an unattended turn.
	Idle [2]int
	// Loaded is the answer once the tool's toolset is loaded, when that
	// changes it (a deferred toolset); -1 otherwise.
	Loaded [2]int
	// Others are the answers when another deferred toolset, loaded too,
	// resolves a pending entry that gates the tool's name (R80-R82), in
	// the agent's available order: the first loaded one decides.
	Others []Other
}

// Other is the answer when a toolset's load resolves a pending entry that
// gates the cell.
type Other struct {
	Toolset int // in Model.Toolsets
	Answer  [2]int
}

// Row is one agent of the matrix.
type Row struct {
	Agent string
	// Label is the gate label the answers are for: the agent's name, or a
	// composed worker's.
	Label                      string
	Entry, Composed, Reachable bool
	// Deferred are the toolsets the agent can load, in available order,
	// as numbers in Model.Toolsets.
	Deferred []int
	// Cells are by column, numbers in Model.Cells.
	Cells []int
}

// Model is the page's content, computed from the policy.
type Model struct {
	Input   Input
	Doc     *policy.Document
	Graph   *reach.Graph
	Groups  []Group
	Columns []Column
	// Toolsets are the matrix's toolsets in order, core first.
	Toolsets []string
	Rows     []Row
	Reasons  []Reason
	// Answers are distinct (decision, reason) pairs.
	Answers [][2]int
	Cells   []Cell
	// AgentsText is kokua-compile agents' human view of the policy.
	AgentsText string
	// Marks are the cells a change widened (+1) or narrowed (-1), by
	// agent and column name.
	Marks map[[2]string]int

	reasons map[policy.Reason]int
	answers map[[2]int]int
	cells   map[string]int
	lines   []string
}

// Build computes the page's model of a policy.
func Build(in Input) *Model {
	d := in.Policy.Document()
	m := &Model{Input: in, Doc: d, Graph: reach.New(in.Policy), reasons: map[policy.Reason]int{}, answers: map[[2]int]int{},
		cells: map[string]int{}, Marks: map[[2]string]int{}}
	if in.Config != nil {
		m.lines = strings.Split(string(in.Config), "\n")
	}
	var agents bytes.Buffer
	_ = engine.WritePolicyAgents(&agents, d) // a bytes.Buffer takes every write
	m.AgentsText = agents.String()
	m.columns()
	for _, a := range m.Graph.Agents {
		m.Rows = append(m.Rows, m.row(a))
	}
	m.marks()
	return m
}

// columns lays out the matrix: the core tools that exist in this config,
// then each toolset's tools in trust order.
func (m *Model) columns() {
	d := m.Doc
	if len(d.CoreTools) > 0 {
		g := Group{Toolset: kokua.Core, Kind: kokua.Core}
		for _, t := range d.CoreTools {
			g.Columns = append(g.Columns, Column{Toolset: kokua.Core, Tool: t})
		}
		m.Groups = append(m.Groups, g)
	}
	for _, name := range d.TrustOrder {
		ts := d.Toolsets[name]
		if ts == nil || len(ts.Tools) == 0 {
			continue
		}
		g := Group{Toolset: name, Kind: ts.Kind}
		for _, t := range ts.Tools {
			g.Columns = append(g.Columns, Column{Toolset: name, Tool: t.Name})
		}
		m.Groups = append(m.Groups, g)
	}
	for _, g := range m.Groups {
		m.Toolsets = append(m.Toolsets, g.Toolset)
		m.Columns = append(m.Columns, g.Columns...)
	}
}

// row computes an agent's cells. A cell's answer depends on the session
// only through loads: its own toolset's, when deferred, and those of other
// deferred toolsets whose build resolves a pending entry naming the tool.
// Each is asked of a real session, in the agent's available order.
func (m *Model) row(a *reach.Agent) Row {
	r := Row{Agent: a.Name, Label: a.Name, Entry: a.Entry, Composed: a.Composed, Reachable: a.Reachable}
	p := m.Input.Policy
	var deferred []string
	if a.Composed {
		r.Label = m.Doc.Composed.LabelPrefix + "worker"
	} else {
		deferred = m.Doc.Agents[a.Name].Deferred
	}
	for _, ts := range deferred {
		r.Deferred = append(r.Deferred, slices.Index(m.Toolsets, ts))
	}
	// offers lists, by tool name, the deferred toolsets whose tools include
	// it: only their loads can change the answer for that name.
	offers := map[string][]string{}
	for _, ts := range deferred {
		for _, t := range m.Doc.Toolsets[ts].Tools {
			offers[t.Name] = append(offers[t.Name], ts)
		}
	}
	// loaded answers in a session that loaded the toolsets given, in the
	// agent's available order.
	sessions := map[string]*policy.Session{}
	loaded := func(c Column, loads ...string) [2]int {
		var order []string
		for _, ts := range deferred {
			if slices.Contains(loads, ts) {
				order = append(order, ts)
			}
		}
		key := strings.Join(order, "\x00")
		s := sessions[key]
		if s == nil {
			var err error
			if s, err = p.NewSession(r.Label); err != nil {
				return [2]int{m.answer(p.DecideIn(r.Label, c.Toolset, c.Tool, policy.Turn{})), m.answer(p.DecideIn(r.Label, c.Toolset, c.Tool, policy.Turn{Unattended: true}))}
			}
			for _, ts := range order {
				s.Load(ts)
			}
			sessions[key] = s
		}
		return [2]int{m.answer(s.DecideIn(c.Toolset, c.Tool, policy.Turn{})), m.answer(s.DecideIn(c.Toolset, c.Tool, policy.Turn{Unattended: true}))}
	}
	for _, c := range m.Columns {
		cell := Cell{Loaded: [2]int{-1, -1}}
		cell.Idle = [2]int{m.answer(p.DecideIn(r.Label, c.Toolset, c.Tool, policy.Turn{})), m.answer(p.DecideIn(r.Label, c.Toolset, c.Tool, policy.Turn{Unattended: true}))}
		own := slices.Contains(deferred, c.Toolset)
		base := cell.Idle
		if own {
			if l := loaded(c, c.Toolset); l != cell.Idle {
				cell.Loaded, base = l, l
			}
		}
		if m.Answers[base[0]][0] != decisionNumber(policy.Unavailable) {
			for _, other := range offers[c.Tool] {
				if other == c.Toolset {
					continue
				}
				loads := []string{other}
				if own {
					loads = append(loads, c.Toolset)
				}
				if l := loaded(c, loads...); l != base {
					cell.Others = append(cell.Others, Other{Toolset: slices.Index(m.Toolsets, other), Answer: l})
				}
			}
		}
		r.Cells = append(r.Cells, m.cell(cell))
	}
	return r
}

// cell interns a cell.
func (m *Model) cell(c Cell) int {
	var b strings.Builder
	for _, n := range [][2]int{c.Idle, c.Loaded} {
		b.WriteString(string(rune(n[0]+2)) + string(rune(n[1]+2)))
	}
	for _, o := range c.Others {
		b.WriteString(string(rune(o.Toolset+2)) + string(rune(o.Answer[0]+2)) + string(rune(o.Answer[1]+2)))
	}
	key := b.String()
	if n, ok := m.cells[key]; ok {
		return n
	}
	m.cells[key] = len(m.Cells)
	m.Cells = append(m.Cells, c)
	return len(m.Cells) - 1
}

// answer interns an answer's decision and reason.
func (m *Model) answer(a policy.Answer) int {
	r, ok := m.reasons[*a.Reason]
	if !ok {
		r = len(m.Reasons)
		m.reasons[*a.Reason] = r
		m.Reasons = append(m.Reasons, m.reason(*a.Reason))
	}
	k := [2]int{decisionNumber(a.Decision), r}
	n, ok := m.answers[k]
	if !ok {
		n = len(m.Answers)
		m.answers[k] = n
		m.Answers = append(m.Answers, k)
	}
	return n
}

// reason is a policy's reason as the page shows it, with the config's
// line when the page has the config.
func (m *Model) reason(r policy.Reason) Reason {
	out := Reason{Summary: r.Summary, List: r.List, Key: r.Key, Entry: r.Entry, Inherited: r.Inherited, Reviewer: r.Reviewer}
	if r.Position.Line > 0 {
		out.File, out.Line, out.Column = m.ConfigFile(), r.Position.Line, r.Position.Column
		if r.Position.Line <= len(m.lines) {
			out.Text = strings.TrimRight(m.lines[r.Position.Line-1], "\r")
		}
	}
	return out
}

// FailOn is the --fail-on value the page's verdict is for.
func (m *Model) FailOn() string {
	if m.Input.FailOn == "" {
		return "any"
	}
	return m.Input.FailOn
}

// ConfigFile names the config the policy's positions are in: the input
// itself, or the config a policy file records.
func (m *Model) ConfigFile() string {
	if f := m.Doc.Inputs.Config.File; m.Input.Config == nil && f != "" {
		return f
	}
	return m.Input.Name
}

// marks finds the cells a change widened or narrowed: a tool change is
// about a tool's name, the cell is its toolset's on the new side (the old
// side's, for a tool the agent lost).
func (m *Model) marks() {
	if m.Input.Changes == nil {
		return
	}
	mark := func(agent string, tc diff.ToolChange, n int) {
		ts := tc.New.Toolset
		if tc.New.Level == reach.Unavailable {
			ts = tc.Old.Toolset
		}
		m.Marks[[2]string{agent, ts + "." + tc.Tool}] = n
	}
	for _, a := range m.Input.Changes.Agents {
		for _, tc := range a.Widened {
			mark(a.Agent, tc, 1)
		}
		for _, tc := range a.Narrowed {
			mark(a.Agent, tc, -1)
		}
	}
}

// Lookup is the answer, a number in Answers, that row r gets for column
// j in a session that loaded the toolsets in loaded (numbers in Toolsets;
// each agent loads those it defers, in its available order), in an
// attended or unattended turn. The page's script answers the same way.
func (m *Model) Lookup(r, j int, loaded map[int]bool, unattended bool) int {
	c := m.Cells[m.Rows[r].Cells[j]]
	u := 0
	if unattended {
		u = 1
	}
	base := c.Idle[u]
	if c.Loaded[0] >= 0 {
		if !loaded[slices.Index(m.Toolsets, m.Columns[j].Toolset)] {
			return c.Idle[u]
		}
		base = c.Loaded[u]
	}
	for _, o := range c.Others {
		if loaded[o.Toolset] {
			return o.Answer[u]
		}
	}
	return base
}
