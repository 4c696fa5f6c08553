// Package reach reads a compiled policy as a graph of power: for every
// agent, the answer it gets for each tool it can reach, and the delegation
// edges along which what an agent can cause to run extends to what its
// workers can run. kokua-compile graph draws it (DOT and Mermaid, in this
// package) and kokua-compile diff compares two of them (package diff).
//
// It lives apart from compile because it reads a policy, not a config: a
// compiled policy and a config compiled on the fly give the same graph,
// and nothing here needs the linter's model. Every answer comes from the
// policy's own Decide and Session, so the graph cannot disagree with what
// the runtime answers.
//
// No host imports this package; it lives under internal/. It serves
// kokua-compile graph and diff, and a host asks the policy itself
// (policy.Policy's Decide and NewSession), where every answer here comes
// from; the drawings are `kokua-compile graph`'s output.
//
// # How permissive an answer is
//
// Answers are ordered once, by Level, from the least a call lets happen to
// the most:
//
//	Unavailable < Asks < Reviewer < Runs
//
// Unavailable: the agent can never call the tool. Asks: the call stops for
// the user, through confirm, or through review when no reviewer can answer
// it (auto-approval off, or the tool on the never_auto_approve floor),
// since "with auto-approval off, review entries prompt you exactly as
// confirm ones do" (tool-access.md; R68). Reviewer: review with
// auto-approval on, for a tool off the floor, where "review asks a model
// reviewer first, and asks you if the reviewer does not approve", so the
// call may run without the user. Runs: no entry gates it.
//
// Residency is not a level: a tool of a deferred toolset has the level of
// the answer it gets once loaded, because "loading it is the model choosing
// when to pay for a capability the host granted, never acquiring one"
// (tool-access.md, Residency). docs/readings.md records this reading.
package reach

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Level orders answers by how much a call lets happen without the user.
type Level int

// The levels, least permissive first.
const (
	// Unavailable: the agent can never call the tool.
	Unavailable Level = iota
	// Asks: the call asks the user (confirm, or review no reviewer may
	// answer).
	Asks
	// Reviewer: the call goes to a reviewer model that may approve it
	// without the user (review, auto-approval on, the tool off the floor).
	Reviewer
	// Runs: the call runs without asking.
	Runs
)

// String names the level as the JSON output spells it.
func (l Level) String() string {
	switch l {
	case Asks:
		return "asks"
	case Reviewer:
		return "reviewer"
	case Runs:
		return "runs"
	}
	return "unavailable"
}

// MarshalText writes the level as String does.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Phrase says what the level means, for people.
func (l Level) Phrase() string {
	switch l {
	case Asks:
		return "asks the user"
	case Reviewer:
		return "a reviewer may approve"
	case Runs:
		return "runs unasked"
	}
	return "unavailable"
}

// ComposedNode is the name of the graph's node for composed workers: every
// composed:<label> is gated alike, by the default tier (R13, R91).
const ComposedNode = kokua.ComposedPrefix + "*"

// Answer is what an agent gets for one tool, once the tool's toolset is
// held: at turn start, or after a load for a deferred toolset.
type Answer struct {
	Tool    string `json:"tool"`
	Toolset string `json:"toolset"`
	// Decision is run, confirm or review: the policy's answer once the
	// toolset is held.
	Decision policy.Decision `json:"decision"`
	// OnDemand is true when the toolset is deferred: the answer holds once
	// the agent loads it.
	OnDemand bool `json:"on_demand"`
	// Level is how permissive the answer is; "unavailable" for a tool the
	// agent cannot reach, whose other fields are then empty.
	Level Level `json:"level"`
	// List, Key, Entry and Position name the deciding approval entry, when
	// one decides.
	List     string           `json:"list,omitempty"`
	Key      string           `json:"key,omitempty"`
	Entry    string           `json:"entry,omitempty"`
	Position *policy.Position `json:"position,omitempty"`
}

// Describe says the answer for people: "runs unasked", "review: a reviewer
// may approve", "confirm: asks the user (once loaded)".
func (a Answer) Describe() string {
	if a.Level == Unavailable {
		return "unavailable"
	}
	s := a.Level.Phrase()
	if a.Decision == policy.Confirm || a.Decision == policy.Review {
		s = string(a.Decision) + ": " + s
	}
	if a.OnDemand {
		s += " (once loaded)"
	}
	return s
}

// Key names a tool as the graph decides on it: the toolset that offers it
// and the tool's own name, kept apart. A tool's name may hold a dot, a
// space or any other character an MCP server sends, and two toolsets may
// offer the same name, so the two are never joined into one string to be
// split again; String joins them for people only.
type Key struct {
	Toolset string `json:"toolset"`
	Tool    string `json:"tool"`
}

// KeyOf is the key of an answer.
func KeyOf(a Answer) Key { return Key{Toolset: a.Toolset, Tool: a.Tool} }

// String writes the key as toolset.tool, for people.
func (k Key) String() string { return k.Toolset + "." + k.Tool }

// Less orders keys by tool name, then toolset.
func (k Key) Less(o Key) bool {
	if k.Tool != o.Tool {
		return k.Tool < o.Tool
	}
	return k.Toolset < o.Toolset
}

// Agent is one node of the graph: a declared agent, or composed workers.
type Agent struct {
	Name string
	// Entry marks the agent the user talks to; Composed the node of
	// composed workers.
	Entry, Composed bool
	// Reachable is true for the entry agent and every agent it reaches by
	// delegates_to (R173); composed workers are reachable when a reachable
	// agent can compose.
	Reachable bool
	// DelegatesTo are the agents named in delegates_to, in file order.
	DelegatesTo []string
	// Composes is true when capabilities is among the agent's available
	// toolsets, so it can compose workers (R43).
	Composes bool
	// Answers are the answers for every tool the agent can call, by
	// toolset and tool: each tool the agent holds at turn start, from the
	// toolset that holds its name, and each tool of a deferred toolset
	// whose name nothing holds at turn start (a load never replaces a held
	// tool, so the first of two deferred toolsets loaded keeps a shared
	// name: either may).
	Answers map[Key]Answer
}

// Edge is a way one agent makes another run: delegates_to, or
// compose_subagent to composed workers.
type Edge struct {
	From, To string
	// Via is "delegates_to" or "compose_subagent".
	Via string
}

// Graph is a policy's agents with their answers and the edges between
// them.
type Graph struct {
	Doc   *policy.Document
	Entry string
	// Agents are in name order, composed workers last.
	Agents []*Agent
	Edges  []Edge
	byName map[string]*Agent
	floor  map[string]bool
	// idx is made once, at the first question about the edges (index).
	once sync.Once
	idx  *graphIndex
}

// New builds the graph of a loaded policy.
func New(p *policy.Policy) *Graph {
	d := p.Document()
	g := &Graph{Doc: d, Entry: d.EntryAgent, byName: map[string]*Agent{}, floor: floorTools(d)}
	names := make([]string, 0, len(d.Agents))
	for name := range d.Agents {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		a := d.Agents[name]
		n := &Agent{Name: name, Entry: a.Entry, Reachable: a.Reachable, DelegatesTo: a.DelegatesTo,
			Composes: d.Composed.Possible && slices.Contains(a.Available.Expanded, kokua.Capabilities),
			Answers:  agentAnswers(p, name, a)}
		g.add(n)
		for _, to := range a.DelegatesTo {
			g.Edges = append(g.Edges, Edge{From: name, To: to, Via: "delegates_to"})
		}
	}
	if d.Composed.Possible {
		c := &Agent{Name: ComposedNode, Composed: true, Answers: composedAnswers(p)}
		for _, name := range names {
			if n := g.byName[name]; n.Composes {
				g.Edges = append(g.Edges, Edge{From: name, To: ComposedNode, Via: kokua.ComposeSubagent})
				c.Reachable = c.Reachable || n.Reachable
			}
		}
		g.add(c)
	}
	return g
}

func (g *Graph) add(a *Agent) {
	g.Agents = append(g.Agents, a)
	g.byName[a.Name] = a
}

// Agent returns the node of that name, or nil.
func (g *Graph) Agent(name string) *Agent { return g.byName[name] }

// Protected reports whether no reviewer can ever answer a call of the
// tool: auto-approval is off, or the floor holds the tool's name (R85,
// R86; the floor, like every entry, gates names).
func (g *Graph) Protected(tool Key) bool {
	return !g.Doc.AutoApproval.Enabled || g.floor[tool.Tool]
}

// Out returns the edges leaving an agent, in order.
func (g *Graph) Out(name string) []Edge {
	return slices.Clone(g.index().out[name])
}

// graphIndex is what questions about a graph's edges share, made at the
// first of them: each agent's edges out, in the graph's order, and the
// declared agents they reach, once each; each agent's place in an order
// where every edge goes forward (none for an agent on a cycle); and the
// reaches found (Reach).
type graphIndex struct {
	out  map[string][]Edge
	next map[string][]string
	topo map[string]int
	mu   sync.Mutex
	sets map[string]map[Key]Reached
}

// index makes the graph's index once.
func (g *Graph) index() *graphIndex {
	g.once.Do(func() {
		x := &graphIndex{out: map[string][]Edge{}, next: map[string][]string{}, sets: map[string]map[Key]Reached{}}
		for _, e := range g.Edges {
			x.out[e.From] = append(x.out[e.From], e)
			if g.byName[e.To] != nil && !slices.Contains(x.next[e.From], e.To) {
				x.next[e.From] = append(x.next[e.From], e.To)
			}
		}
		x.topo = topoOrder(g.Agents, x.next)
		g.idx = x
	})
	return g.idx
}

// topoOrder numbers the agents so that every edge goes from a lower
// number to a higher one (Kahn's algorithm); an agent on a cycle, or
// reached from one, gets none.
func topoOrder(agents []*Agent, next map[string][]string) map[string]int {
	in := map[string]int{}
	for _, a := range agents {
		for _, to := range next[a.Name] {
			in[to]++
		}
	}
	var queue []string
	for _, a := range agents {
		if in[a.Name] == 0 {
			queue = append(queue, a.Name)
		}
	}
	order := map[string]int{}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		order[v] = i
		for _, to := range next[v] {
			if in[to]--; in[to] == 0 {
				queue = append(queue, to)
			}
		}
	}
	return order
}

// Closure is the agent and every agent it can make run through its edges,
// transitively, in the order they are first met.
func (g *Graph) Closure(name string) []string {
	if g.byName[name] == nil {
		return nil
	}
	x := g.index()
	out := []string{name}
	seen := map[string]bool{name: true}
	for i := 0; i < len(out); i++ {
		for _, e := range x.out[out[i]] {
			if g.byName[e.To] != nil && !seen[e.To] {
				seen[e.To] = true
				out = append(out, e.To)
			}
		}
	}
	return out
}

// Reached is a tool an agent can cause to run, with the most permissive
// answer among the agents that can run it and the first agent giving it.
type Reached struct {
	Answer
	By string `json:"by"`
}

// Reach is what an agent can cause to run: for every tool, the most
// permissive answer among the agent and every agent in its closure, the
// first in the closure's order giving it.
//
// The closure of an agent not on a cycle is the agent, then the agents it
// sets running (reachSet): what a chain or a diamond of agents reaches is
// found layer by layer from the next layer's, where walking each agent's
// closure cost the square of the depth (issue 37).
func (g *Graph) Reach(name string) map[Key]Reached {
	if g.byName[name] == nil {
		return map[Key]Reached{}
	}
	x := g.index()
	if _, ok := x.topo[name]; !ok {
		return g.closureReach(name)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return g.first([]string{name}, g.reachSet(x.next[name]))
}

// first is what the agents of set reach themselves, the first in set's
// order giving each tool's most permissive answer, put before after: a
// tool of after is kept only where it is more permissive.
func (g *Graph) first(set []string, after map[Key]Reached) map[Key]Reached {
	own := map[Key]Reached{}
	for _, v := range set {
		for tool, a := range g.byName[v].Answers {
			if have, ok := own[tool]; !ok || a.Level > have.Level {
				own[tool] = Reached{Answer: a, By: v}
			}
		}
	}
	out := make(map[Key]Reached, len(after)+len(own))
	maps.Copy(out, after)
	for tool, r := range own {
		if have, ok := out[tool]; !ok || r.Level >= have.Level {
			out[tool] = r
		}
	}
	return out
}

// reachSet is what the agents of set, and every agent they set running,
// reach: the order is that of a walk from all of them at once (set first,
// then what they set running, and so on). It is set, then what the layer
// after it reaches, found from that layer's, each set once: a walk from
// that layer alone meets again no agent but those of set, whose own next
// agents are in the layer already, so it meets the others in the walk's
// order, and an agent met again only comes after itself. Away from a
// cycle, the layers end; an agent on or after one is walked. The caller
// holds mu.
func (g *Graph) reachSet(set []string) map[Key]Reached {
	x := g.index()
	var layers [][]string
	for len(set) > 0 {
		key := strings.Join(set, "\x00")
		if x.sets[key] != nil {
			break
		}
		layer, ok := g.layerAfter(set)
		if !ok {
			x.sets[key] = g.walkReach(set)
			break
		}
		layers = append(layers, set)
		set = layer
	}
	after := map[Key]Reached{}
	if len(set) > 0 {
		after = x.sets[strings.Join(set, "\x00")]
	}
	for i := len(layers) - 1; i >= 0; i-- {
		after = g.first(layers[i], after)
		x.sets[strings.Join(layers[i], "\x00")] = after
	}
	return after
}

// layerAfter is the agents set sets running, once each, in order, when
// none of set is on or after a cycle.
func (g *Graph) layerAfter(set []string) ([]string, bool) {
	x := g.index()
	for _, v := range set {
		if _, ok := x.topo[v]; !ok {
			return nil, false
		}
	}
	var layer []string
	seen := map[string]bool{}
	for _, v := range set {
		for _, to := range x.next[v] {
			if !seen[to] {
				seen[to] = true
				layer = append(layer, to)
			}
		}
	}
	return layer, true
}

// walkReach is reachSet by walking from every agent of set at once.
func (g *Graph) walkReach(set []string) map[Key]Reached {
	x := g.index()
	order := slices.Clone(set)
	seen := map[string]bool{}
	for _, v := range set {
		seen[v] = true
	}
	for i := 0; i < len(order); i++ {
		for _, to := range x.next[order[i]] {
			if !seen[to] {
				seen[to] = true
				order = append(order, to)
			}
		}
	}
	return g.first(order, nil)
}

// closureReach is Reach by walking the agent's closure.
func (g *Graph) closureReach(name string) map[Key]Reached {
	out := map[Key]Reached{}
	for _, n := range g.Closure(name) {
		for tool, a := range g.byName[n].Answers {
			if have, ok := out[tool]; !ok || a.Level > have.Level {
				out[tool] = Reached{Answer: a, By: n}
			}
		}
	}
	return out
}

// Sorted returns the keys of a map of names in order.
func Sorted[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// SortedKeys returns the keys of a map of tools in order: by tool name,
// then toolset.
func SortedKeys[V any](m map[Key]V) []Key {
	keys := make([]Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Less(keys[j]) })
	return keys
}

// agentAnswers are a declared agent's answers: the tools it holds at turn
// start, each from the toolset that holds its name, then each tool of a
// deferred toolset whose name nothing holds at turn start, as a session
// that has loaded that toolset decides it. Every question names the
// toolset and the tool apart (policy.DecideIn).
func agentAnswers(p *policy.Policy, name string, a *policy.Agent) map[Key]Answer {
	out := make(map[Key]Answer, len(a.Tools))
	held := make(map[string]bool, len(a.Tools))
	for _, t := range a.Tools {
		held[t.Name] = true
		k := Key{Toolset: t.Toolset, Tool: t.Name}
		if _, done := out[k]; !done {
			out[k] = answer(p.DecideIn(name, t.Toolset, t.Name, policy.Turn{}), false)
		}
	}
	d := p.Document()
	for _, ts := range a.Deferred {
		toolset := d.Toolsets[ts]
		if toolset == nil {
			continue
		}
		var s *policy.Session
		for _, t := range toolset.Tools {
			k := Key{Toolset: ts, Tool: t.Name}
			if _, done := out[k]; done || held[t.Name] {
				continue
			}
			if s == nil {
				var err error
				if s, err = p.NewSession(name); err != nil || !s.Load(ts).OK {
					break
				}
			}
			if ans := s.DecideIn(ts, t.Name, policy.Turn{}); ans.Decision != policy.NotLoaded && ans.Decision != policy.Unavailable {
				out[k] = answer(ans, true)
			}
		}
	}
	return out
}

// composedAnswers are a composed worker's answers: every tool its view of
// the registry holds. Its toolsets are built together in trust order, so
// the first toolset offering a name keeps it (tool-access.md, Which of
// two same-named tools wins).
func composedAnswers(p *policy.Policy) map[Key]Answer {
	out := map[Key]Answer{}
	seen := map[string]bool{}
	d := p.Document()
	label := d.Composed.LabelPrefix + "worker"
	for _, name := range d.TrustOrder {
		for _, t := range d.Toolsets[name].Tools {
			if seen[t.Name] {
				continue
			}
			if ans := p.DecideIn(label, name, t.Name, policy.Turn{}); ans.Decision != policy.Unavailable && ans.Decision != policy.NotLoaded {
				seen[t.Name] = true
				out[Key{Toolset: name, Tool: t.Name}] = answer(ans, false)
			}
		}
	}
	return out
}

func answer(ans policy.Answer, onDemand bool) Answer {
	a := Answer{Tool: ans.Tool, Toolset: ans.Toolset, Decision: ans.Decision, OnDemand: onDemand,
		List: ans.Reason.List, Key: ans.Reason.Key, Entry: ans.Reason.Entry}
	if ans.Reason.Position != (policy.Position{}) {
		pos := ans.Reason.Position
		a.Position = &pos
	}
	switch ans.Decision {
	case policy.Run:
		a.Level = Runs
	case policy.Confirm:
		a.Level = Asks
	case policy.Review:
		a.Level = Asks
		if ans.Reason.Reviewer {
			a.Level = Reviewer
		}
	}
	return a
}

// floorTools are the tools the floor holds: its resolved entries' tools
// and, failing closed as the runtime does, whatever its pending entries
// match in their toolsets' builds.
func floorTools(d *policy.Document) map[string]bool {
	out := map[string]bool{}
	for _, e := range d.Floor.List.Entries {
		for _, t := range FloorEntryTools(d, e) {
			out[t] = true
		}
	}
	return out
}

// FloorEntryTools are the tools one floor entry holds: those it resolved
// to, or, for an entry not resolved at startup, those its toolset's build
// gives it.
func FloorEntryTools(d *policy.Document, e policy.Entry) []string {
	tools := slices.Clone(e.Tools)
	if ts := d.Toolsets[e.Toolset]; ts != nil && len(tools) == 0 {
		for _, t := range ts.Tools {
			if e.Tool == "" || e.Tool == "*" || e.Tool == t.Name {
				tools = append(tools, t.Name)
			}
		}
	}
	if tools == nil {
		tools = []string{}
	}
	return tools
}
