package reach

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kokua-policy/kokua-policy/kokua"
)

// Grade is how serious a risk path or a change is, least first.
type Grade int

// The grades.
const (
	// NoGrade: nothing an approver needs to weigh (a narrowing).
	NoGrade Grade = iota
	// Info: residency, order, comments: nothing any agent can do changes.
	Info
	// Medium: new power that no class marks.
	Medium
	// High: new exec, write, self-modify or egress power, a gate loosened
	// on such a tool, the floor shrunk, a reviewer changed.
	High
	// Critical: untrusted content can reach exec, self-modify or egress (or
	// private data and a way out) with no user in the way.
	Critical
)

// Grades are the grades from the most serious, as the headline lists them.
var Grades = []Grade{Critical, High, Medium, Info}

// String names the grade as the JSON output and --fail-on spell it.
func (g Grade) String() string {
	switch g {
	case Info:
		return "info"
	case Medium:
		return "medium"
	case High:
		return "high"
	case Critical:
		return "critical"
	}
	return "none"
}

// MarshalText writes the grade as String does.
func (g Grade) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// Hop kinds: how a step of a risk path goes.
const (
	// HopReads: an agent calls a tool that reads untrusted content.
	HopReads = "reads"
	// HopDelegates: an agent sets another running (spawn_subagent or
	// compose_subagent), handing it a task its context shaped.
	HopDelegates = "delegates"
	// HopReturns: a worker's result goes back into its delegator's context.
	// Nothing gates it.
	HopReturns = "returns"
	// HopCalls: an agent calls the tool the path ends at.
	HopCalls = "calls"
)

// Hop is one step of a risk path, with the gate on it.
type Hop struct {
	Kind string `json:"kind"`
	// Agent is the agent that acts; To the agent a delegation or a
	// result reaches.
	Agent string `json:"agent"`
	To    string `json:"to,omitempty"`
	// Via is delegates_to or compose_subagent for a delegation.
	Via string `json:"via,omitempty"`
	// Answer is the gate: the agent's answer for the tool it calls
	// (spawn_subagent or compose_subagent for a delegation); a returned
	// result runs, with no tool.
	Answer Answer `json:"answer"`
}

// Gate says the hop's gate for people: runs unasked, asks the user, a
// reviewer may approve, denied.
func (h Hop) Gate() string {
	if h.Answer.Level == Unavailable {
		return "denied"
	}
	return h.Answer.Level.Phrase()
}

// Path is a way untrusted content can make something dangerous happen in
// what one agent sets running: it is read by some agent, carried along
// delegations and results, and ends at a call of a tool of a dangerous
// class. The lethal combination is a path with a second leg: the content
// reaches a private-data tool and an egress tool.
type Path struct {
	// Agent is the agent whose view this is: it and what it sets running.
	Agent string `json:"agent"`
	// Class is the most dangerous class the path ends at (self-modify,
	// exec, egress, write, persist, in that order); for the lethal
	// combination, egress.
	Class kokua.Class `json:"class"`
	// Lethal marks the combination of untrusted content, private data and
	// a way out.
	Lethal bool `json:"lethal"`
	// Toolset and Tools are where the path ends: the tools of one toolset
	// that share its classes, Classes, and the path's level; the last hop
	// calls the first of them.
	Toolset string        `json:"toolset"`
	Tools   []string      `json:"tools"`
	Classes []kokua.Class `json:"classes"`
	// Level is the least permissive gate on the way: what it takes for the
	// whole path to happen.
	Level Level `json:"level"`
	Grade Grade `json:"grade"`
	// Hops go from the read of untrusted content to the call the path ends
	// at; for the lethal combination, through the call that reads private
	// data.
	Hops []Hop `json:"hops"`
}

// Key names the path for comparing two policies: the agent, the toolset
// and the classes (or "lethal"). Paths of one key at several levels
// compare by the highest.
func (p Path) Key() string {
	if p.Lethal {
		return p.Agent + "\x00lethal"
	}
	k := p.Agent + "\x00" + p.Toolset
	for _, c := range p.Classes {
		k += "\x00" + string(c)
	}
	return k
}

// ID is the path's identity for comparing two policies: the agent whose
// view it is, where the content enters, each hop with the tool it calls,
// and the tools the path ends at with their classes. The gates on the way
// are the path's level, compared apart (Raised), so that a gate loosened
// raises a path and one tightened lowers it. A shorter path, or one
// starting in another agent, is another path.
func (p Path) ID() string {
	var b strings.Builder
	field := func(s string) {
		b.WriteString(s)
		b.WriteByte(0)
	}
	field(p.Agent)
	field(strconv.FormatBool(p.Lethal))
	field(string(p.Class))
	field(p.Toolset)
	field(strings.Join(p.Tools, "\x01"))
	for _, c := range p.Classes {
		field(string(c))
	}
	for _, h := range p.Hops {
		field("\x02" + h.Kind)
		field(h.Agent)
		field(h.To)
		field(h.Via)
		field(h.Answer.Toolset)
		field(h.Answer.Tool)
	}
	return b.String()
}

// Raised are the paths of the new side's risks that the old side's lack
// (by ID) or have at a less permissive level, in the new side's order.
// diff's risk section is exactly this list.
func Raised(before, after []AgentRisks) []Path {
	had := map[string]Level{}
	for _, a := range before {
		for _, p := range a.Paths {
			if l, ok := had[p.ID()]; !ok || p.Level > l {
				had[p.ID()] = p.Level
			}
		}
	}
	var out []Path
	for _, a := range after {
		for _, p := range a.Paths {
			if l, ok := had[p.ID()]; !ok || p.Level > l {
				out = append(out, p)
			}
		}
	}
	return out
}

// AgentRisks is one agent's view: what it can set running and the risk
// paths in it, most severe first.
type AgentRisks struct {
	Agent string `json:"agent"`
	// Runs are the agent and every agent it can set running, in the order
	// they are first met.
	Runs  []string `json:"runs"`
	Paths []Path   `json:"paths"`
}

// Risks are the risk paths of every agent the graph holds: the entry
// agent first, then the other reachable declared agents in name order,
// then the others, then composed workers.
func (g *Graph) Risks() []AgentRisks {
	classes := toolClassesOf(g)
	adj := map[string][]Edge{}
	for _, e := range g.Edges {
		adj[e.From] = append(adj[e.From], e)
		if e.To != e.From {
			adj[e.To] = append(adj[e.To], e)
		}
	}
	// Each agent's edges in an order of names, not of the config's lists:
	// which of two equal ways a path takes must not follow the order
	// delegates_to is written in, or reordering it would change a path's
	// identity (Path.ID).
	for _, es := range adj {
		sort.SliceStable(es, func(i, j int) bool {
			if es[i].From != es[j].From {
				return es[i].From < es[j].From
			}
			if es[i].To != es[j].To {
				return es[i].To < es[j].To
			}
			return es[i].Via < es[j].Via
		})
	}
	order := toolOrderOf(g)
	var out, later []AgentRisks
	for _, a := range g.Agents {
		r := g.agentRisks(a.Name, classes, adj, order)
		if a.Reachable && !a.Composed {
			out = append(out, r)
		} else {
			later = append(later, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Agent == g.Entry && out[j].Agent != g.Entry })
	sort.SliceStable(later, func(i, j int) bool { return !later[i].isComposed() && later[j].isComposed() })
	return append(out, later...)
}

func (r AgentRisks) isComposed() bool { return r.Agent == ComposedNode }

// ToolClasses are a tool's classes as the policy gives them, by toolset
// and tool; none for a core tool.
func (g *Graph) ToolClasses(toolset, tool string) []kokua.Class {
	ts := g.Doc.Toolsets[toolset]
	if ts == nil {
		return nil
	}
	for _, t := range ts.Tools {
		if t.Name == tool {
			return t.Classes
		}
	}
	return nil
}

// classIndex maps toolset, then tool, to classes, for one graph.
type classIndex map[string]map[string][]kokua.Class

func toolClassesOf(g *Graph) classIndex {
	idx := classIndex{}
	for name, ts := range g.Doc.Toolsets {
		for _, t := range ts.Tools {
			if len(t.Classes) > 0 {
				if idx[name] == nil {
					idx[name] = map[string][]kokua.Class{}
				}
				idx[name][t.Name] = t.Classes
			}
		}
	}
	return idx
}

func (c classIndex) of(a Answer) []kokua.Class { return c[a.Toolset][a.Tool] }

// toolOrder ranks a toolset's tools as the registry lists them: trust
// order, then each toolset's own order; core tools first.
type toolOrder map[string]map[string]int

func toolOrderOf(g *Graph) toolOrder {
	o := toolOrder{}
	n := 0
	for _, ts := range g.Doc.TrustOrder {
		o[ts] = map[string]int{}
		for _, t := range g.Doc.Toolsets[ts].Tools {
			n++
			o[ts][t.Name] = n
		}
	}
	return o
}

// of is an agent's tools in registry order, names alike ordered by name.
func (o toolOrder) of(a *Agent) []Key {
	tools := SortedKeys(a.Answers)
	sort.SliceStable(tools, func(i, j int) bool {
		x, y := tools[i], tools[j]
		return o[x.Toolset][x.Tool] < o[y.Toolset][y.Tool]
	})
	return tools
}

func has(cs []kokua.Class, c kokua.Class) bool { return slices.Contains(cs, c) }

// taint is how untrusted content reaches one agent: the least permissive
// gate on the best way there, and the hops.
type taint struct {
	level Level
	hops  []Hop
}

// agentRisks finds the risk paths in one agent's view. Untrusted content
// enters wherever an agent of the view reads it; it travels down a
// delegation (gated by the delegator's answer for spawn_subagent or
// compose_subagent) and up with a result (ungated). Each agent of the
// view gets the best level at which content can reach it, found by a
// widest-path search with four levels (so linear in the view's size),
// and each dangerous tool it holds ends a path at the lesser of that
// level and its own answer. The tools of one toolset with the same
// classes that end paths at the same level are one path; the first met
// (in view order) gives the hops.
func (g *Graph) agentRisks(root string, classes classIndex, adj map[string][]Edge, order toolOrder) AgentRisks {
	r := AgentRisks{Agent: root, Runs: []string{root}, Paths: []Path{}}
	// The view: Closure's order, found with a set so that it stays linear.
	in := map[string]bool{root: true}
	for i := 0; i < len(r.Runs); i++ {
		for _, e := range adj[r.Runs[i]] {
			if e.From == r.Runs[i] && !in[e.To] && g.byName[e.To] != nil {
				in[e.To] = true
				r.Runs = append(r.Runs, e.To)
			}
		}
	}
	// The view in name order: sources, searches and ends are met in it,
	// so that the hops a path shows do not follow the order of the
	// config's lists.
	view := slices.Clone(r.Runs)
	sort.Slice(view, func(i, j int) bool {
		if (view[i] == ComposedNode) != (view[j] == ComposedNode) {
			return view[j] == ComposedNode
		}
		return view[i] < view[j]
	})
	best := map[string]taint{}
	// Sources: each agent's best untrusted-input tool, the first in the
	// registry's order among equals.
	for _, n := range view {
		a := g.byName[n]
		for _, k := range order.of(a) {
			ans := a.Answers[k]
			if ans.Level > best[n].level && has(classes.of(ans), kokua.UntrustedInput) {
				best[n] = taint{level: ans.Level, hops: []Hop{{Kind: HopReads, Agent: n, Answer: ans}}}
			}
		}
	}
	g.widest(view, in, adj, best)
	byKey := map[string]int{}
	var privateLeg *Path
	for _, n := range view {
		t := best[n]
		if t.level == Unavailable {
			continue
		}
		a := g.byName[n]
		for _, k := range order.of(a) {
			ans, tool := a.Answers[k], k.Tool
			cs := classes.of(ans)
			l := min(t.level, ans.Level)
			if l == Unavailable || len(cs) == 0 {
				continue
			}
			call := append(slices.Clone(t.hops), Hop{Kind: HopCalls, Agent: n, Answer: ans})
			// A tool that reads untrusted content and whose only danger is
			// sending data out (web, an MCP server) is the lethal
			// combination's way out, not a path of its own.
			if worst := worstClass(cs); worst != "" && !(has(cs, kokua.UntrustedInput) && onlyEgress(cs)) {
				p := Path{Agent: root, Class: worst, Toolset: ans.Toolset, Tools: []string{tool}, Classes: cs, Level: l, Hops: call}
				p.Grade = p.grade()
				key := p.Key() + "\x00" + l.String()
				if i, ok := byKey[key]; !ok {
					byKey[key] = len(r.Paths)
					r.Paths = append(r.Paths, p)
				} else if !slices.Contains(r.Paths[i].Tools, tool) {
					r.Paths[i].Tools = append(r.Paths[i].Tools, tool)
				}
			}
			if has(cs, kokua.PrivateData) && (privateLeg == nil || l > privateLeg.Level) {
				privateLeg = &Path{Toolset: ans.Toolset, Tools: []string{tool}, Level: l, Hops: call}
			}
		}
	}
	if privateLeg != nil {
		// The private data is in the context of the agent that read it;
		// from there it travels as content does, to a way out.
		from := map[string]taint{privateLeg.Hops[len(privateLeg.Hops)-1].Agent: {level: privateLeg.Level, hops: privateLeg.Hops}}
		g.widest(view, in, adj, from)
		var out *Path
		for _, n := range view {
			t := from[n]
			if t.level == Unavailable {
				continue
			}
			a := g.byName[n]
			for _, k := range order.of(a) {
				ans, tool := a.Answers[k], k.Tool
				if l := min(t.level, ans.Level); has(classes.of(ans), kokua.Egress) && l > Unavailable && (out == nil || l > out.Level) {
					out = &Path{Agent: root, Class: kokua.Egress, Lethal: true, Toolset: ans.Toolset, Tools: []string{tool},
						Classes: classes.of(ans), Level: l, Hops: append(slices.Clone(t.hops), Hop{Kind: HopCalls, Agent: n, Answer: ans})}
				}
			}
		}
		if out != nil {
			out.Grade = out.grade()
			r.Paths = append(r.Paths, *out)
		}
	}
	sort.SliceStable(r.Paths, func(i, j int) bool { return r.Paths[i].before(r.Paths[j]) })
	return r
}

// widest settles, from the taints given (the sources), the best taint of
// every agent of the view: a widest-path search over four levels, from
// the best down, so linear in the view's size.
func (g *Graph) widest(runs []string, in map[string]bool, adj map[string][]Edge, best map[string]taint) {
	for level := Runs; level > Unavailable; level-- {
		queue := []string{}
		for _, n := range runs {
			if best[n].level == level {
				queue = append(queue, n)
			}
		}
		for i := 0; i < len(queue); i++ {
			u := queue[i]
			if best[u].level != level {
				continue
			}
			for _, step := range g.steps(u, in, adj[u]) {
				l := min(level, step.Answer.Level)
				if l > best[step.To].level {
					best[step.To] = taint{level: l, hops: append(slices.Clone(best[u].hops), step)}
					if l == level {
						queue = append(queue, step.To)
					}
				}
			}
		}
	}
}

// steps are the ways content in an agent's context moves on within the
// view: down each delegation it makes, gated by its answer for the tool
// that makes it, and up to each agent of the view that delegates to it,
// with the result, ungated.
func (g *Graph) steps(u string, in map[string]bool, edges []Edge) []Hop {
	var out []Hop
	a := g.byName[u]
	for _, e := range edges {
		switch {
		case e.From == u && in[e.To]:
			tool := Key{Toolset: kokua.Core, Tool: kokua.SpawnSubagent}
			if e.Via == kokua.ComposeSubagent {
				tool = Key{Toolset: kokua.Capabilities, Tool: kokua.ComposeSubagent}
			}
			ans, ok := a.Answers[tool]
			if !ok {
				ans = Answer{Tool: tool.Tool, Toolset: tool.Toolset, Level: Unavailable}
			}
			out = append(out, Hop{Kind: HopDelegates, Agent: u, To: e.To, Via: e.Via, Answer: ans})
		case e.To == u && in[e.From]:
			out = append(out, Hop{Kind: HopReturns, Agent: u, To: e.From, Answer: Answer{Level: Runs}})
		}
	}
	return out
}

// grade says how serious a path is: critical when content can make exec,
// self-modify or egress happen (or private data leave) with no user in
// the way, high when such a path asks the user or a write or persist path
// does not, medium otherwise.
func (p Path) grade() Grade {
	worst := p.Lethal || p.Class == kokua.Exec || p.Class == kokua.SelfModify || p.Class == kokua.Egress
	switch {
	case worst && p.Level >= Reviewer:
		return Critical
	case worst || p.Level >= Reviewer:
		return High
	}
	return Medium
}

// before orders paths most severe first: grade, then the lethal
// combination, then level, class and tool.
func (p Path) before(q Path) bool {
	switch {
	case p.Grade != q.Grade:
		return p.Grade > q.Grade
	case p.Lethal != q.Lethal:
		return p.Lethal
	case p.Level != q.Level:
		return p.Level > q.Level
	case p.Class != q.Class:
		return classOrder(p.Class) < classOrder(q.Class)
	}
	return p.Toolset < q.Toolset
}

// onlyEgress reports whether egress is the only dangerous class of cs.
func onlyEgress(cs []kokua.Class) bool {
	for _, c := range cs {
		if c.Dangerous() && c != kokua.Egress {
			return false
		}
	}
	return true
}

// worstClass is the most dangerous of a tool's classes, "" when none is.
func worstClass(cs []kokua.Class) kokua.Class {
	var worst kokua.Class
	for _, c := range cs {
		if c.Dangerous() && (worst == "" || classOrder(c) < classOrder(worst)) {
			worst = c
		}
	}
	return worst
}

// classOrder ranks the dangerous classes by what a path to them lets
// happen: self-modification and code first, then data out, files, and
// what outlives the turn.
func classOrder(c kokua.Class) int {
	switch c {
	case kokua.SelfModify:
		return 0
	case kokua.Exec:
		return 1
	case kokua.Egress:
		return 2
	case kokua.Write:
		return 3
	}
	return 4
}
