package reach

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/bits"
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
	// data. A path of more than MaxHops hops keeps its first HeadHops and
	// its last MaxHops-HeadHops, as a finding's list keeps its first few
	// (issue 37: a chain of 1,000 agents listed every hop of every
	// agent's path); HopCount counts them all, and the hops left out are
	// those between Hops[HeadHops-1] and Hops[HeadHops].
	Hops     []Hop `json:"hops"`
	HopCount int   `json:"hops_total"`
	// digest is the digest of the whole route of a path whose hops are
	// not all kept, for its identity (ID); nil from RiskList.
	digest []byte
}

// MaxHops is how many hops of a path are kept: the first HeadHops, where
// the content enters and the first delegations, and the last ones, which
// reach the call.
const (
	MaxHops  = 10
	HeadHops = 7
)

// Omitted is how many hops of the path are not in Hops.
func (p Path) Omitted() int { return p.HopCount - len(p.Hops) }

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
	id := pathID(p, p.Hops)
	if p.Omitted() > 0 {
		// The hops kept, their count, and the digest of them all.
		id += "\x03" + strconv.Itoa(p.HopCount) + "\x03" + hex.EncodeToString(p.digest)
	}
	return id
}

// pathID is the identity of path p whose whole route is hops.
func pathID(p Path, hops []Hop) string {
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
	for _, h := range hops {
		writeHopID(&b, h)
	}
	return b.String()
}

// writeHopID writes the fields of a hop that its identity holds.
func writeHopID(w io.Writer, h Hop) {
	for _, s := range []string{"\x02" + h.Kind, h.Agent, h.To, h.Via, h.Answer.Toolset, h.Answer.Tool} {
		_, _ = io.WriteString(w, s)
		_, _ = w.Write([]byte{0})
	}
}

// Raised are the paths of the new side's risks that the old side's lack
// (by ID) or have at a less permissive level, in the new side's order.
// diff's risk section is exactly this list. Only the views of reachable
// agents count, on either side: an agent startup does not build never
// runs, so a path in its view is no power (docs/readings.md), and the
// change that makes it reachable raises the path.
func Raised(before, after []AgentRisks) []Path {
	had := map[string]Level{}
	for _, a := range before {
		if !a.Reachable {
			continue
		}
		for _, p := range a.Paths {
			if l, ok := had[p.ID()]; !ok || p.Level > l {
				had[p.ID()] = p.Level
			}
		}
	}
	var out []Path
	for _, a := range after {
		if !a.Reachable {
			continue
		}
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
	// Runs are the agent and the agents it can set running, in the order
	// they are first met: the first MaxRuns of them, as a finding's list
	// names its first few (issue 37). RunsCount counts them all.
	Runs      []string `json:"runs"`
	RunsCount int      `json:"runs_total"`
	// Reachable is the agent's: startup builds it (the entry agent, what
	// it reaches by delegates_to, composed workers of a reachable
	// composer). The view of an agent that is not is listed, for the
	// config's author, but is no power until it is.
	Reachable bool   `json:"reachable"`
	Paths     []Path `json:"paths"`
}

// MaxRuns is how many of the agents a view sets running are named.
const MaxRuns = 5

// Risks are the risk paths of every agent the graph holds: the entry
// agent first, then the other reachable declared agents in name order,
// then the others, then composed workers. Each path has its identity
// (Path.ID), which kokua-compile diff compares.
func (g *Graph) Risks() []AgentRisks { return g.risks(true) }

// RiskList is Risks without the identities of the paths whose hops are
// not all kept, which listing them does not need: kokua-compile risks.
// Path.ID of such a path is then its kept hops alone.
func (g *Graph) RiskList() []AgentRisks { return g.risks(false) }

func (g *Graph) risks(ids bool) []AgentRisks {
	x := newRiskIndex(g, ids)
	x.done = make([]*viewResult, len(g.Agents))
	var out, later []AgentRisks
	for i, a := range g.Agents {
		r := x.result(i).risks
		r.Reachable = a.Reachable
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

// result is the view of agent u, found once: from the view of the agent
// it passes work on to (passesOn), when it does, else by a search. The
// agents it passes work on to are found first, down a chain, without
// deepening the stack.
func (x *riskIndex) result(u int) *viewResult {
	var chain []int
	v := u
	for x.done[v] == nil {
		c, ok := x.passesOn(v)
		if !ok {
			x.done[v] = x.agentRisks(v)
			break
		}
		chain = append(chain, v)
		v = c
	}
	for i := len(chain) - 1; i >= 0; i-- {
		w := chain[i]
		next := x.done[x.onlyDelegate(w)]
		if res, ok := x.passedOn(w, next); ok {
			x.done[w] = res
		} else {
			x.done[w] = x.agentRisks(w)
		}
	}
	return x.done[u]
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

// The search of every agent's view shares what does not depend on the
// view (riskIndex): the agents by number, each agent's tools in registry
// order with what ends a path at them, its best untrusted-input tool,
// and its steps (the ways content in its context moves on: down each
// delegation it makes, up to each agent that delegates to it). A view's
// search then touches its own agents only, with arrays reset by a stamp
// rather than cleared, and keeps a route as a pointer to where it came
// from and its first few hops, never a copy of all of them: a view of n
// agents costs time in proportion to n and its edges, and a path kept
// costs its MaxHops hops (issue 37: copying every route made a chain of
// 1,000 agents cost 10 s and 378 MB, and wrote every hop of it).

// riskIndex is the shared part of the search of every view of a graph.
type riskIndex struct {
	g *Graph
	// ids: the paths whose hops are not all kept get the identity of
	// their whole route (a digest of its hops).
	ids   bool
	nodes []riskNode
	byRun map[string]int
	// rank is each node's place in a view's order: names in order,
	// composed workers last.
	rank []int
	// ends are the kinds of path end, a toolset and classes, by number.
	ends int
	// The state of a search, by node, valid while view[i] holds the
	// view's number (the node is in the view) and seen[i] the search's.
	view, seen       []int
	viewNo, searchNo int
	level            []Level
	from             []int    // the node the route came from; -1 at its start
	hop              []Hop    // the hop into the node (the read, at a route's start)
	depth            []int    // the hops of the route into the node
	head             [][]Hop  // its first HeadHops hops
	digest           [][]byte // the digest of the route into the node, once made
	digestNo         []int
	// base is the route a search starts from (the lethal combination's
	// second search starts where the private data was read).
	base route
	// pathAt is, by end and level, the path a view has found there
	// (valid while pathNo holds the view's number).
	pathAt, pathNo []int
	// cyclic marks the agents on a cycle of delegation.
	cyclic []bool
	// done are the views found, by node; searches counts the views
	// searched (the tests count them).
	done     []*viewResult
	searches int
	// down are the agents each agent sets running, once each, in the
	// order of its steps; topo each agent's place in an order where every
	// delegation goes forward (-1 on or after a cycle); layers what a
	// set of agents sets running (layersOf).
	down   [][]int
	topo   []int
	layers map[string]*layerInfo
}

// layerInfo is what the agents of a set, and every agent they set
// running, are: the first MaxRuns of them in the order of a walk from all
// of them at once, how many there are, and the best untrusted content
// any of them reads.
type layerInfo struct {
	first []int
	count int
	t     Level
}

// layersOf is layerInfo of a set of agents: the set, then what the layer
// after it sets running, found from that layer's, each set once, when
// every agent of that layer comes after every agent of the set in the
// order of topo (so the walk from the layer meets none of the set again);
// else walked. A diamond of delegation costs one set a level, where
// walking from each agent cost the square of its depth.
func (x *riskIndex) layersOf(set []int) *layerInfo {
	var pending [][]int
	for len(set) > 0 {
		key := setKey(set)
		if x.layers[key] != nil {
			break
		}
		layer, ok := x.layerAfter(set)
		if !ok {
			x.layers[key] = x.walkLayers(set)
			break
		}
		pending = append(pending, set)
		set = layer
	}
	after := &layerInfo{}
	if len(set) > 0 {
		after = x.layers[setKey(set)]
	}
	for i := len(pending) - 1; i >= 0; i-- {
		s := pending[i]
		info := &layerInfo{count: len(s) + after.count, t: after.t}
		info.first = slices.Clone(s[:min(len(s), MaxRuns)])
		for _, u := range after.first {
			if len(info.first) < MaxRuns {
				info.first = append(info.first, u)
			}
		}
		for _, u := range s {
			info.t = max(info.t, x.nodes[u].src)
		}
		x.layers[setKey(s)] = info
		after = info
	}
	return after
}

// layerAfter is what the agents of set set running, once each, in order,
// when they all come after every agent of set in the order of topo.
func (x *riskIndex) layerAfter(set []int) ([]int, bool) {
	last := -1
	for _, u := range set {
		if x.topo[u] < 0 {
			return nil, false
		}
		last = max(last, x.topo[u])
	}
	var layer []int
	for _, u := range set {
		for _, v := range x.down[u] {
			if x.topo[v] <= last {
				return nil, false
			}
			if !slices.Contains(layer, v) {
				layer = append(layer, v)
			}
		}
	}
	return layer, true
}

// walkLayers is layerInfo by walking from every agent of set at once.
func (x *riskIndex) walkLayers(set []int) *layerInfo {
	x.viewNo++
	order := slices.Clone(set)
	for _, u := range set {
		x.view[u] = x.viewNo
	}
	info := &layerInfo{}
	for i := 0; i < len(order); i++ {
		u := order[i]
		info.t = max(info.t, x.nodes[u].src)
		for _, v := range x.down[u] {
			if x.view[v] != x.viewNo {
				x.view[v] = x.viewNo
				order = append(order, v)
			}
		}
	}
	info.count, info.first = len(order), order[:min(len(order), MaxRuns)]
	return info
}

// setKey names a set of agents for layersOf's memory.
func setKey(set []int) string {
	var b strings.Builder
	for _, u := range set {
		b.WriteString(strconv.Itoa(u))
		b.WriteByte(',')
	}
	return b.String()
}

// cyclicNodes marks the agents on a cycle of the graph's edges (one that
// delegates to itself included): Tarjan's strongly connected components,
// iteratively, so that a deep graph does not deepen the stack.
func cyclicNodes(g *Graph, byRun map[string]int) []bool {
	n := len(g.Agents)
	out := make([][]int, n)
	on := make([]bool, n)
	for _, e := range g.Edges {
		from, okf := byRun[e.From]
		to, okt := byRun[e.To]
		if okf && okt {
			out[from] = append(out[from], to)
			if from == to {
				on[from] = true
			}
		}
	}
	index, low := make([]int, n), make([]int, n)
	for i := range index {
		index[i] = -1
	}
	onStack := make([]bool, n)
	var stack []int
	next := 0
	type frame struct{ v, i int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		calls := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if f.i < len(out[f.v]) {
				w := out[f.v][f.i]
				f.i++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{w, 0})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				k := len(stack) - 1
				for stack[k] != v {
					k--
				}
				if len(stack)-k > 1 {
					for _, w := range stack[k:] {
						on[w] = true
					}
				}
				for _, w := range stack[k:] {
					onStack[w] = false
				}
				stack = stack[:k]
			}
		}
	}
	return on
}

// riskNode is one agent's part of the index.
type riskNode struct {
	agent *Agent
	tools []riskTool
	src   Level // the best untrusted-input tool's level
	read  Hop   // and its read hop
	steps []riskStep
}

// riskTool is one of an agent's tools, with what it ends.
type riskTool struct {
	ans     Answer
	classes []kokua.Class
	// end is the tool's kind of path end, -1 when it ends no path of its
	// own (no dangerous class, or a way out that reads untrusted content);
	// worst its most dangerous class.
	end          int
	worst        kokua.Class
	private, out bool // it reads private data; it sends data out
	anyClass     bool
}

// riskStep is one way content moves on from an agent.
type riskStep struct {
	to  int
	hop Hop
}

// route is a path's hops as they are kept: the first HeadHops and the
// last MaxHops-HeadHops (the two overlap in a short route), how many
// there are, and, when identities are wanted, the digest of all of them.
type route struct {
	head, tail []Hop
	n          int
	digest     []byte
}

// hops are the route's kept hops: all of them when there are MaxHops or
// fewer, else the first HeadHops and the last MaxHops-HeadHops.
func (r route) hops() []Hop {
	if r.n <= len(r.head) {
		return slices.Clone(r.head)
	}
	rest := min(r.n-len(r.head), MaxHops-HeadHops)
	return append(slices.Clone(r.head), r.tail[len(r.tail)-rest:]...)
}

// then is the route r followed by the hops after.
func (r route) then(after ...Hop) route {
	out := route{n: r.n + len(after), digest: r.digest}
	out.head = slices.Clone(r.head)
	for _, h := range after {
		if len(out.head) < HeadHops {
			out.head = append(out.head, h)
		}
	}
	tail := append(slices.Clone(r.tail), after...)
	out.tail = tail[max(0, len(tail)-(MaxHops-HeadHops)):]
	if out.digest != nil {
		for _, h := range after {
			out.digest = chain(out.digest, h)
		}
	}
	return out
}

// chain is the digest of a route of digest d followed by hop h.
func chain(d []byte, h Hop) []byte {
	s := sha256.New()
	s.Write(d)
	writeHopID(s, h)
	return s.Sum(nil)
}

func newRiskIndex(g *Graph, ids bool) *riskIndex {
	classes := toolClassesOf(g)
	order := toolOrderOf(g)
	n := len(g.Agents)
	x := &riskIndex{g: g, ids: ids, byRun: make(map[string]int, n), nodes: make([]riskNode, n),
		view: make([]int, n), seen: make([]int, n), level: make([]Level, n), from: make([]int, n),
		hop: make([]Hop, n), depth: make([]int, n), head: make([][]Hop, n), digest: make([][]byte, n), digestNo: make([]int, n)}
	for i, a := range g.Agents {
		x.byRun[a.Name] = i
	}
	names := make([]int, n)
	for i := range names {
		names[i] = i
	}
	sort.SliceStable(names, func(i, j int) bool {
		a, b := g.Agents[names[i]].Name, g.Agents[names[j]].Name
		if (a == ComposedNode) != (b == ComposedNode) {
			return b == ComposedNode
		}
		return a < b
	})
	x.rank = make([]int, n)
	for r, i := range names {
		x.rank[i] = r
	}
	endIDs := map[[2]string]int{}
	for i, a := range g.Agents {
		nd := &x.nodes[i]
		nd.agent = a
		for _, k := range order.of(a) {
			ans := a.Answers[k]
			cs := classes.of(ans)
			t := riskTool{ans: ans, classes: cs, end: -1, anyClass: len(cs) > 0,
				private: has(cs, kokua.PrivateData), out: has(cs, kokua.Egress)}
			// A tool that reads untrusted content and whose only danger is
			// sending data out (web, an MCP server) is the lethal
			// combination's way out, not a path of its own.
			if worst := worstClass(cs); worst != "" && !(has(cs, kokua.UntrustedInput) && onlyEgress(cs)) {
				kind := ""
				for _, c := range cs {
					kind += "\x00" + string(c)
				}
				id, ok := endIDs[[2]string{ans.Toolset, kind}]
				if !ok {
					id = len(endIDs)
					endIDs[[2]string{ans.Toolset, kind}] = id
				}
				t.end, t.worst = id, worst
			}
			nd.tools = append(nd.tools, t)
			// The first in the registry's order among equals.
			if ans.Level > nd.src && has(cs, kokua.UntrustedInput) {
				nd.src, nd.read = ans.Level, Hop{Kind: HopReads, Agent: a.Name, Answer: ans}
			}
		}
	}
	x.ends = len(endIDs)
	x.cyclic = cyclicNodes(g, x.byRun)
	x.pathAt, x.pathNo = make([]int, 4*x.ends), make([]int, 4*x.ends)
	// Each agent's edges in an order of names, not of the config's lists:
	// which of two equal ways a path takes must not follow the order
	// delegates_to is written in, or reordering it would change a path's
	// identity (Path.ID).
	adj := make([][]Edge, n)
	for _, e := range g.Edges {
		from, okf := x.byRun[e.From]
		to, okt := x.byRun[e.To]
		if !okf || !okt {
			continue // an edge to an agent no table declares
		}
		adj[from] = append(adj[from], e)
		if to != from {
			adj[to] = append(adj[to], e)
		}
	}
	for u, es := range adj {
		sort.SliceStable(es, func(i, j int) bool {
			if es[i].From != es[j].From {
				return es[i].From < es[j].From
			}
			if es[i].To != es[j].To {
				return es[i].To < es[j].To
			}
			return es[i].Via < es[j].Via
		})
		a := g.Agents[u]
		for _, e := range es {
			switch {
			case e.From == a.Name:
				tool := Key{Toolset: kokua.Core, Tool: kokua.SpawnSubagent}
				if e.Via == kokua.ComposeSubagent {
					tool = Key{Toolset: kokua.Capabilities, Tool: kokua.ComposeSubagent}
				}
				ans, ok := a.Answers[tool]
				if !ok {
					ans = Answer{Tool: tool.Tool, Toolset: tool.Toolset, Level: Unavailable}
				}
				x.nodes[u].steps = append(x.nodes[u].steps, riskStep{to: x.byRun[e.To], hop: Hop{Kind: HopDelegates, Agent: a.Name, To: e.To, Via: e.Via, Answer: ans}})
			case e.To == a.Name:
				x.nodes[u].steps = append(x.nodes[u].steps, riskStep{to: x.byRun[e.From], hop: Hop{Kind: HopReturns, Agent: a.Name, To: e.From, Answer: Answer{Level: Runs}}})
			}
		}
	}
	x.down = make([][]int, n)
	indeg := make([]int, n)
	for u := range x.nodes {
		for _, st := range x.nodes[u].steps {
			if st.hop.Kind == HopDelegates && !slices.Contains(x.down[u], st.to) {
				x.down[u] = append(x.down[u], st.to)
				indeg[st.to]++
			}
		}
	}
	x.topo = make([]int, n)
	var queue []int
	for u := range n {
		x.topo[u] = -1
		if indeg[u] == 0 {
			queue = append(queue, u)
		}
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		x.topo[u] = i
		for _, v := range x.down[u] {
			if indeg[v]--; indeg[v] == 0 {
				queue = append(queue, v)
			}
		}
	}
	x.layers = map[string]*layerInfo{}
	return x
}

// lvl is a node's level in the current search.
func (x *riskIndex) lvl(u int) Level {
	if x.seen[u] != x.searchNo {
		return Unavailable
	}
	return x.level[u]
}

// reach sets a node's level in the current search, and the route into it:
// the hop h from node from (-1 for a route's first hop, or for none: the
// start of the second search).
func (x *riskIndex) reach(u int, l Level, from int, h Hop, hops bool) {
	x.seen[u], x.level[u], x.from[u], x.hop[u] = x.searchNo, l, from, h
	switch {
	case !hops:
		x.depth[u], x.head[u] = 0, x.head[u][:0]
	case from < 0:
		x.depth[u], x.head[u] = 1, append(x.head[u][:0], h)
	default:
		x.depth[u] = x.depth[from] + 1
		x.head[u] = append(x.head[u][:0], x.head[from]...)
		if len(x.head[u]) < HeadHops {
			x.head[u] = append(x.head[u], h)
		}
	}
}

// routeTo is the route of the current search into node u: the search's
// base, then u's own hops.
func (x *riskIndex) routeTo(u int) route {
	own := route{n: x.depth[u], head: slices.Clone(x.head[u])}
	for v := u; v >= 0 && x.depth[v] > 0 && len(own.tail) < MaxHops-HeadHops; v = x.from[v] {
		own.tail = append(own.tail, x.hop[v])
	}
	slices.Reverse(own.tail)
	r := route{n: x.base.n + own.n}
	r.head = slices.Clone(x.base.head)
	for _, h := range own.head {
		if len(r.head) < HeadHops {
			r.head = append(r.head, h)
		}
	}
	if own.n >= MaxHops-HeadHops {
		r.tail = own.tail
	} else {
		tail := append(slices.Clone(x.base.tail), own.tail...)
		r.tail = tail[max(0, len(tail)-(MaxHops-HeadHops)):]
	}
	if x.ids {
		r.digest = x.digestOf(u)
	}
	return r
}

// digestOf is the digest of the route into u: the base's, then each hop
// of u's own, made once a search for each node (walked back to the start
// or to a node made already, then forward).
func (x *riskIndex) digestOf(u int) []byte {
	var todo []int
	v := u
	for x.depth[v] > 0 && x.digestNo[v] != x.searchNo {
		todo = append(todo, v)
		v = x.from[v]
		if v < 0 {
			break
		}
	}
	d := x.base.digest
	if v >= 0 && (x.depth[v] == 0 || x.digestNo[v] == x.searchNo) {
		if x.depth[v] > 0 {
			d = x.digest[v]
		}
	}
	for i := len(todo) - 1; i >= 0; i-- {
		w := todo[i]
		d = chain(d, x.hop[w])
		x.digest[w], x.digestNo[w] = d, x.searchNo
	}
	if x.depth[u] == 0 {
		return x.base.digest
	}
	return x.digest[u]
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
func (x *riskIndex) agentRisks(root int) *viewResult {
	g := x.g
	name := g.Agents[root].Name
	res := &viewResult{out: -1}
	r := &res.risks
	*r = AgentRisks{Agent: name, Runs: []string{name}, Paths: []Path{}}
	// What the view sets running, and the best untrusted content it
	// reads, without a walk when the agents it sets running are layers
	// (layersOf).
	info := x.layersOf([]int{root})
	r.RunsCount, res.t = info.count, info.t
	for _, u := range info.first[1:] {
		r.Runs = append(r.Runs, g.Agents[u].Name)
	}
	// Without untrusted content in the view, no path: nothing to search.
	if res.t == Unavailable {
		return res
	}
	// The view: Closure's order, each agent once.
	x.viewNo++
	x.view[root] = x.viewNo
	view := []int{root}
	for i := 0; i < len(view); i++ {
		for _, v := range x.down[view[i]] {
			if x.view[v] != x.viewNo {
				x.view[v] = x.viewNo
				view = append(view, v)
			}
		}
	}
	// The view in name order: sources, searches and ends are met in it,
	// so that the hops a path shows do not follow the order of the
	// config's lists.
	x.sortView(view)
	x.searches++
	x.searchNo++
	x.base = route{}
	for _, u := range view {
		if nd := &x.nodes[u]; nd.src > Unavailable {
			x.reach(u, nd.src, -1, nd.read, true)
		}
	}
	x.widest(view)
	var paths []*Path
	var routes []route
	priv, privTool, privLevel := -1, -1, Unavailable
	for _, u := range view {
		t := x.lvl(u)
		if t == Unavailable {
			continue
		}
		nd := &x.nodes[u]
		for j := range nd.tools {
			tl := &nd.tools[j]
			l := min(t, tl.ans.Level)
			if l == Unavailable || !tl.anyClass {
				continue
			}
			if tl.end >= 0 {
				k := 4*tl.end + int(l)
				if x.pathNo[k] != x.viewNo {
					x.pathNo[k], x.pathAt[k] = x.viewNo, len(paths)
					p := &Path{Agent: name, Class: tl.worst, Toolset: tl.ans.Toolset, Tools: []string{tl.ans.Tool}, Classes: tl.classes, Level: l}
					p.Grade = p.grade()
					paths = append(paths, p)
					routes = append(routes, x.routeTo(u).then(Hop{Kind: HopCalls, Agent: nd.agent.Name, Answer: tl.ans}))
				} else if p := paths[x.pathAt[k]]; !slices.Contains(p.Tools, tl.ans.Tool) {
					p.Tools = append(p.Tools, tl.ans.Tool)
				}
			}
			if tl.private && (priv < 0 || l > privLevel) {
				priv, privTool, privLevel = u, j, l
			}
		}
	}
	for i, p := range paths {
		p.setRoute(routes[i])
		r.Paths = append(r.Paths, *p)
	}
	if priv >= 0 {
		// The private data is in the context of the agent that read it;
		// from there it travels as content does, to a way out.
		call := Hop{Kind: HopCalls, Agent: x.nodes[priv].agent.Name, Answer: x.nodes[priv].tools[privTool].ans}
		base := x.routeTo(priv).then(call)
		x.searchNo++
		x.base = base
		x.reach(priv, privLevel, -1, Hop{}, false)
		x.widest(view)
		out, outTool, outLevel := -1, -1, Unavailable
		for _, u := range view {
			t := x.lvl(u)
			if t == Unavailable {
				continue
			}
			for j, tl := range x.nodes[u].tools {
				if l := min(t, tl.ans.Level); tl.out && l > Unavailable && (out < 0 || l > outLevel) {
					out, outTool, outLevel = u, j, l
				}
			}
		}
		if out >= 0 {
			tl := x.nodes[out].tools[outTool]
			p := Path{Agent: name, Class: kokua.Egress, Lethal: true, Toolset: tl.ans.Toolset, Tools: []string{tl.ans.Tool},
				Classes: tl.classes, Level: outLevel}
			p.Grade = p.grade()
			p.setRoute(x.routeTo(out).then(Hop{Kind: HopCalls, Agent: x.nodes[out].agent.Name, Answer: tl.ans}))
			r.Paths = append(r.Paths, p)
		}
		// What the view of an agent that passes work on to this one needs.
		res.lethal, res.l2, res.out, res.outLevel = true, x.lvl(root), out, outLevel
		if res.l2 > Unavailable {
			res.to2 = x.routeTo(root)
		}
		x.base = route{}
	}
	sort.SliceStable(r.Paths, func(i, j int) bool { return r.Paths[i].before(r.Paths[j]) })
	return res
}

// viewResult is an agent's view as found, with what the view of an agent
// that passes work on to it needs (passedOn).
type viewResult struct {
	risks AgentRisks
	// t is the best level of the untrusted content the view reads.
	t Level
	// lethal: a search from private data ran (some agent of the view
	// reads it); l2 is the level it reached the agent at, to2 its route
	// there, from the read of untrusted content; out is the node of the
	// lethal combination's way out (-1: none) and outLevel its level.
	lethal   bool
	l2       Level
	to2      route
	out      int
	outLevel Level
}

// onlyDelegate is the one agent u sets running, or -1 when it sets none
// or several running, or sets itself running.
func (x *riskIndex) onlyDelegate(u int) int {
	c := -1
	for _, st := range x.nodes[u].steps {
		if st.hop.Kind != HopDelegates {
			continue
		}
		if c >= 0 && st.to != c || st.to == u {
			return -1
		}
		c = st.to
	}
	return c
}

// passesOn reports whether agent u may only pass work on: it sets one
// agent running, c, which does not set it running again, and it holds
// no tool at which a path ends or that reads private data. Whether its
// view is then c's view and itself (passedOn) depends on c's view, found
// first.
func (x *riskIndex) passesOn(u int) (int, bool) {
	if x.cyclic[u] {
		return 0, false
	}
	for _, t := range x.nodes[u].tools {
		if t.end >= 0 || t.private {
			return 0, false
		}
	}
	c := x.onlyDelegate(u)
	return c, c >= 0
}

// passedOn is the view of agent u, which passes work on to the agent
// whose view is next, found without a search when u adds nothing to
// what content can do in that view: the content u reads reaches the
// agent it sets running no better than that agent's own, or than the
// agent already reads it itself. Then every level and every route of
// next's view is the same in u's (u reaches only next, and next reaches
// u only by returning its result), and so is each path, as u's; what u
// adds is itself to what it sets running, and maybe a way out for the
// lethal combination: one of its own tools that sends data out, reached
// by next returning its result, is the way out when it is at a better
// level than next's view has, or at the same and u comes first in name
// order. Otherwise, ok is false and u's view takes a search.
func (x *riskIndex) passedOn(u int, next *viewResult) (*viewResult, bool) {
	nd := &x.nodes[u]
	c := x.onlyDelegate(u)
	gate := Unavailable
	for _, st := range nd.steps {
		if st.hop.Kind == HopDelegates {
			gate = st.hop.Answer.Level
		}
	}
	inject := min(nd.src, gate)
	if !(inject == Unavailable || inject < next.t || inject == next.t && x.nodes[c].src == next.t) {
		return nil, false
	}
	name := nd.agent.Name
	res := &viewResult{t: max(nd.src, next.t), lethal: next.lethal, l2: next.l2, out: next.out, outLevel: next.outLevel}
	r := AgentRisks{Agent: name, Runs: append([]string{name}, next.risks.Runs[:min(len(next.risks.Runs), MaxRuns-1)]...),
		RunsCount: next.risks.RunsCount + 1, Paths: make([]Path, 0, len(next.risks.Paths))}
	for _, p := range next.risks.Paths {
		p.Agent = name
		r.Paths = append(r.Paths, p)
	}
	if next.lethal {
		// The data comes up to u with next's result.
		res.to2 = next.to2.then(Hop{Kind: HopReturns, Agent: x.g.Agents[c].Name, To: name, Answer: Answer{Level: Runs}})
		way, wayLevel := -1, Unavailable
		for j, t := range nd.tools {
			if l := min(res.l2, t.ans.Level); t.out && l > Unavailable && (way < 0 || l > wayLevel) {
				way, wayLevel = j, l
			}
		}
		if way >= 0 && (next.out < 0 || wayLevel > next.outLevel || wayLevel == next.outLevel && x.rank[u] < x.rank[next.out]) {
			r.Paths = slices.DeleteFunc(r.Paths, func(p Path) bool { return p.Lethal })
			t := nd.tools[way]
			p := Path{Agent: name, Class: kokua.Egress, Lethal: true, Toolset: t.ans.Toolset, Tools: []string{t.ans.Tool},
				Classes: t.classes, Level: wayLevel}
			p.Grade = p.grade()
			p.setRoute(res.to2.then(Hop{Kind: HopCalls, Agent: name, Answer: t.ans}))
			r.Paths = append(r.Paths, p)
			res.out, res.outLevel = u, wayLevel
			sort.SliceStable(r.Paths, func(i, j int) bool { return r.Paths[i].before(r.Paths[j]) })
		}
	}
	res.risks = r
	return res, true
}

// setRoute gives the path its kept hops, their count and, for a route
// whose hops are not all kept, its digest.
func (p *Path) setRoute(r route) {
	p.Hops, p.HopCount = r.hops(), r.n
	if r.n > len(p.Hops) && r.digest != nil {
		p.digest = r.digest
	}
}

// sortView puts a view in name order: by sorting it, or, when it holds
// most of the graph, by walking every node in name order.
func (x *riskIndex) sortView(view []int) {
	n := len(x.rank)
	if k := len(view); k < 64 || k*bits.Len(uint(k)) < n {
		slices.SortFunc(view, func(a, b int) int { return x.rank[a] - x.rank[b] })
		return
	}
	byRank := make([]int, n)
	for i := range byRank {
		byRank[i] = -1
	}
	for _, u := range view {
		byRank[x.rank[u]] = u
	}
	view = view[:0]
	for _, u := range byRank {
		if u >= 0 {
			view = append(view, u)
		}
	}
}

// widest settles, from the levels the search holds (its sources), the
// best level of every agent of the view: a widest-path search over four
// levels, from the best down, so linear in the view's size.
func (x *riskIndex) widest(view []int) {
	for level := Runs; level > Unavailable; level-- {
		var queue []int
		for _, u := range view {
			if x.lvl(u) == level {
				queue = append(queue, u)
			}
		}
		for i := 0; i < len(queue); i++ {
			u := queue[i]
			if x.lvl(u) != level {
				continue
			}
			for _, st := range x.nodes[u].steps {
				if x.view[st.to] != x.viewNo {
					continue // a result returns to an agent of the view only
				}
				l := min(level, st.hop.Answer.Level)
				if l > x.lvl(st.to) {
					x.reach(st.to, l, u, st.hop, true)
					if l == level {
						queue = append(queue, st.to)
					}
				}
			}
		}
	}
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
