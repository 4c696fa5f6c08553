// Package diff compares two compiled policies by what they let agents do:
// for every agent, the toolsets gained and lost in available and the tools
// whose answer became more or less permissive; the delegation edges gained
// and lost with the reach each carries; and the auto-approval switch and
// the never_auto_approve floor. Residency is listed apart, in its own
// section, and never counted (see below). Each change points at the config
// line that caused it. kokua-compile diff is its face; the formats (human,
// markdown, JSON) are in this package.
//
// Answers are compared by reach.Level, the one ordering of how permissive
// an answer is (see package reach). A change widens when:
//
//   - an agent's answer for a tool rises: unavailable to reachable, a gate
//     removed, confirm to review while auto-approval is on, auto-approval
//     turned on for a review tool;
//   - a gained delegation edge (or compose_subagent) carries some tool at a
//     level the delegating agent could not cause before;
//   - a tool some agent can reach loses the protection of "no reviewer may
//     answer it": auto-approval turned on, or a floor entry dropped while it
//     is on.
//
// Every other change narrows, or changes nothing an agent can do (confirm
// to review with auto-approval off) and is not listed as a tool change.
//
// Residency is not power: "Note what residency cannot do: widen anything"
// (tool-access.md, Residency). A toolset moving into or out of resident,
// and the two loaders (core.available_tools and core.load_tools) an agent
// holds while it defers a toolset, are listed in the report's residency
// section and never counted as widened or narrowed: the loaders only load
// what available already grants, and each tool of a deferred toolset is
// compared by the answer it gets once loaded.
//
// No host imports this package; it lives under internal/. It is the
// engine of one command, its Side holds the linter's config model, and
// what a program needs of a comparison is the command's JSON report
// (`kokua-compile diff --format json`, docs/diff.md), a contract that
// does not move with this package's types.
package diff

import (
	"fmt"
	"slices"
	"sort"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Place is where a change comes from: a file, the line and column when the
// side records them (1-based; 0 when unknown), and the key path as the
// config spells it.
type Place struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Key    string `json:"key"`
}

// String writes the place as file:line:column, or file alone, with the key.
func (p Place) String() string {
	if p.Line == 0 {
		return fmt.Sprintf("%s %s", p.File, p.Key)
	}
	return fmt.Sprintf("%s:%d:%d %s", p.File, p.Line, p.Column, p.Key)
}

// Report is the comparison of two sides.
type Report struct {
	Old string `json:"old"`
	New string `json:"new"`
	// Manifest is what changed in the manifest each side was compiled
	// against and in the MCP servers (manifest.go).
	Manifest *ManifestChange `json:"manifest"`
	// Widened is true when any change widens; kokua-compile diff then
	// exits 1.
	Widened bool `json:"widened"`
	// WidenedCount and NarrowedCount count the tool changes, the edges and
	// the auto-approval and floor changes of each kind.
	WidenedCount  int `json:"widened_count"`
	NarrowedCount int `json:"narrowed_count"`
	// EntryAgent is set when [assistant].agent names another agent.
	EntryAgent   *EntryAgentChange `json:"entry_agent"`
	Agents       []AgentChange     `json:"agents"`
	Delegation   []EdgeChange      `json:"delegation"`
	AutoApproval *AutoChange       `json:"auto_approval"`
	Floor        *FloorChange      `json:"floor"`
	// Residency is what changes in what each agent holds in context from
	// its first turn: never counted as widened or narrowed.
	Residency []ResidencyChange `json:"residency"`
	// Risks are the risk paths the new side adds or raises; Reviewers the
	// changes to what answers review calls; Info the changes of order and
	// comments.
	Risks     []RiskChange     `json:"risks"`
	Reviewers []ReviewerChange `json:"reviewers"`
	Info      []InfoChange     `json:"info"`
	// Grades counts the changes of each grade; Grade is the most serious.
	Grades GradeCount  `json:"grades"`
	Grade  reach.Grade `json:"grade"`
	// Digest is "sha256:" and the SHA-256 of the changes graded medium or
	// above, written without their places; "" when there is none. The
	// GitHub Action ties a pull request's acceptance label to it, so that
	// a later push that widens further is not accepted by the same label.
	Digest string `json:"digest"`

	// plan is the per-agent count of tools at each level, before and
	// after, for the agents whose power changed (markdown's table).
	plan []planRow
	// newGraph is the new side's graph, whose classes grade what the
	// report lists.
	newGraph *reach.Graph
	// composedWidened is true when composed workers appear with some tool
	// they can reach; the compose_subagent edge gained lists what they
	// carry.
	composedWidened bool
}

// Empty reports whether the two sides let every agent do the same; a
// report may then still list residency changes.
func (r *Report) Empty() bool {
	return r.EntryAgent == nil && len(r.Agents) == 0 && len(r.Delegation) == 0 && r.AutoApproval == nil && r.Floor == nil &&
		r.Manifest.empty()
}

// EntryAgentChange is a change of the agent the user talks to.
type EntryAgentChange struct {
	Old   string      `json:"old"`
	New   string      `json:"new"`
	At    Place       `json:"at"`
	Grade reach.Grade `json:"grade"`
}

// AgentChange is what changed for one agent (or for composed workers,
// reach.ComposedNode).
type AgentChange struct {
	Agent string `json:"agent"`
	// Change is "added", "removed" or "changed".
	Change    string       `json:"change"`
	At        *Place       `json:"at"`
	Available ListChange   `json:"available"`
	Widened   []ToolChange `json:"widened"`
	Narrowed  []ToolChange `json:"narrowed"`
}

// ResidencyChange is what changed in one agent's residency: the toolsets
// it holds from the first turn, gained and lost, and the loaders
// (available_tools, load_tools) it holds while it defers a toolset, with
// their answers. None of it is counted as widened or narrowed.
type ResidencyChange struct {
	Agent    string       `json:"agent"`
	Resident ListChange   `json:"resident"`
	Loaders  []ToolChange `json:"loaders"`
	Grade    reach.Grade  `json:"grade"`
}

// ListChange is a list of toolsets gained and lost.
type ListChange struct {
	Gained []Item `json:"gained"`
	Lost   []Item `json:"lost"`
}

// Item is one toolset or entry gained or lost, and where.
type Item struct {
	Name string `json:"name"`
	At   Place  `json:"at"`
}

// ToolChange is one tool whose answer changed level.
type ToolChange struct {
	// Toolset and Tool name the tool: the toolset that offers it and its
	// own name, which may hold a dot.
	Toolset string       `json:"toolset"`
	Tool    string       `json:"tool"`
	Old     reach.Answer `json:"old"`
	New     reach.Answer `json:"new"`
	// Because says what caused it, and At where.
	Because string `json:"because"`
	At      Place  `json:"at"`
	// Grade is set on a widened tool: high for a tool of class exec,
	// write, self-modify or egress, medium otherwise.
	Grade reach.Grade `json:"grade"`
}

// EdgeChange is a delegation (or compose_subagent) edge gained or lost.
type EdgeChange struct {
	From string `json:"from"`
	To   string `json:"to"`
	Via  string `json:"via"`
	// Change is "gained" or "lost".
	Change string `json:"change"`
	At     Place  `json:"at"`
	// Widened marks a gained edge that carries something its agent could
	// not cause before: the tools listed in New. A gained edge that carries
	// nothing new widens nothing; a lost edge narrows.
	Widened bool `json:"widened"`
	// Carries is everything the edge carries: every tool its target and
	// the agents the target reaches can run, at the most permissive answer
	// among them.
	Carries []Reached   `json:"carries"`
	New     []Reached   `json:"new"`
	Grade   reach.Grade `json:"grade"`
}

// Reached is a tool an edge carries and the agent that runs it.
type Reached struct {
	Toolset string       `json:"toolset"`
	Tool    string       `json:"tool"`
	By      string       `json:"by"`
	Answer  reach.Answer `json:"answer"`
}

// AutoChange is [security.auto_approval].enabled switched.
type AutoChange struct {
	Old bool  `json:"old"`
	New bool  `json:"new"`
	At  Place `json:"at"`
	// Widened is true when it was turned on and some reachable tool off
	// the floor can now be answered by a reviewer; Unprotected lists them.
	Widened     bool        `json:"widened"`
	Unprotected []string    `json:"unprotected"`
	Grade       reach.Grade `json:"grade"`
}

// FloorChange is [security].never_auto_approve changed.
type FloorChange struct {
	// Active is whether auto-approval reads the floor, on each side.
	OldActive bool   `json:"old_active"`
	NewActive bool   `json:"new_active"`
	Dropped   []Item `json:"dropped"`
	Added     []Item `json:"added"`
	// Widened is true when auto-approval is on on both sides and a tool
	// some agent can reach left the floor; Unprotected lists them.
	Widened     bool        `json:"widened"`
	Unprotected []string    `json:"unprotected"`
	Grade       reach.Grade `json:"grade"`
}

// Compare reports what changes from the old side to the new one.
func Compare(o, n *Side) *Report {
	loaded, n := n, judgedBy(n, o)
	r := &Report{Old: o.Name, New: n.Name, Agents: []AgentChange{}, Delegation: []EdgeChange{}, Residency: []ResidencyChange{}}
	od, nd := o.Policy.Document(), n.Policy.Document()
	if od.EntryAgent != nd.EntryAgent {
		r.EntryAgent = &EntryAgentChange{Old: od.EntryAgent, New: nd.EntryAgent, At: n.entryAgentPlace()}
	}
	for _, name := range agentNames(o.Graph, n.Graph) {
		if name == reach.ComposedNode && (o.Graph.Agent(name) == nil) != (n.Graph.Agent(name) == nil) {
			r.Agents = append(r.Agents, composedChange(o, n))
			r.composedWidened = len(answers(n.Graph, name)) > 0
			continue
		}
		c, res := compareAgent(o, n, name)
		if c != nil {
			r.Agents = append(r.Agents, *c)
			r.WidenedCount += len(c.Widened)
			r.NarrowedCount += len(c.Narrowed)
		}
		if res != nil {
			r.Residency = append(r.Residency, *res)
		}
	}
	r.Delegation = compareEdges(o, n)
	for _, e := range r.Delegation {
		switch {
		case e.Widened:
			r.WidenedCount++
		case e.Change == "lost":
			r.NarrowedCount++
		}
	}
	unprotected := unprotectedTools(o.Graph, n.Graph)
	if od.AutoApproval.Enabled != nd.AutoApproval.Enabled {
		r.AutoApproval = &AutoChange{Old: od.AutoApproval.Enabled, New: nd.AutoApproval.Enabled, At: n.autoPlace(), Unprotected: []string{}}
		if !nd.AutoApproval.Enabled {
			r.AutoApproval.At = o.autoPlace()
			r.NarrowedCount++
		} else {
			r.AutoApproval.Unprotected = unprotected
			r.AutoApproval.Widened = len(unprotected) > 0
		}
		if r.AutoApproval.Widened {
			r.WidenedCount++
		}
	}
	r.Floor = compareFloor(o, n)
	if f := r.Floor; f != nil && od.AutoApproval.Enabled && nd.AutoApproval.Enabled {
		f.Unprotected = unprotected
		f.Widened = len(unprotected) > 0
		switch {
		case f.Widened:
			r.WidenedCount++
		case len(f.Added) > 0:
			r.NarrowedCount++
		}
	}
	r.addManifest(o, loaded, n)
	r.Widened = r.WidenedCount > 0 || r.composedWidened
	r.newGraph = n.Graph
	r.grade(o, n)
	r.setDigest()
	for _, name := range agentNames(o.Graph, n.Graph) {
		row := planRow{agent: name, old: levelCounts(o.Graph, name), new: levelCounts(n.Graph, name)}
		if row.old != row.new {
			r.plan = append(r.plan, row)
		}
	}
	return r
}

// agentNames are the nodes of either graph, declared agents in name order
// and composed workers last.
func agentNames(o, n *reach.Graph) []string {
	var names []string
	seen := make(map[string]bool, len(o.Agents)+len(n.Agents))
	for _, g := range []*reach.Graph{o, n} {
		for _, a := range g.Agents {
			if !a.Composed && !seen[a.Name] {
				seen[a.Name] = true
				names = append(names, a.Name)
			}
		}
	}
	sort.Strings(names)
	if o.Agent(reach.ComposedNode) != nil || n.Agent(reach.ComposedNode) != nil {
		names = append(names, reach.ComposedNode)
	}
	return names
}

// answers returns a node's answers as a comparison counts them: none for
// a node the graph lacks, or one startup does not build (live).
func answers(g *reach.Graph, name string) map[reach.Key]reach.Answer {
	if live(g, name) {
		return g.Agent(name).Answers
	}
	return nil
}

// live reports whether the graph holds the agent and it can run: it is
// the entry agent or reached from it by delegates_to, or it is composed
// workers that a reachable agent can compose (reach.Agent.Reachable).
// "Startup builds only the entry agent and every worker reachable from it
// by delegates_to" (tool-access.md), and nothing else builds a declared
// agent: an agent that is not live never calls a tool, whatever its
// answers would be, so a comparison counts its answers as unavailable,
// and the change that makes it live widens by everything it can call
// (docs/readings.md).
func live(g *reach.Graph, name string) bool {
	a := g.Agent(name)
	return a != nil && a.Reachable
}

// compareAgent is what changed for one agent: its power (nil when
// nothing did) and its residency (nil when nothing did).
func compareAgent(o, n *Side, name string) (*AgentChange, *ResidencyChange) {
	c := &AgentChange{Agent: name, Change: "changed", Widened: []ToolChange{}, Narrowed: []ToolChange{},
		Available: ListChange{Gained: []Item{}, Lost: []Item{}}}
	res := &ResidencyChange{Agent: name, Resident: ListChange{Gained: []Item{}, Lost: []Item{}}, Loaders: []ToolChange{}}
	oa, na := o.Policy.Document().Agents[name], n.Policy.Document().Agents[name]
	switch {
	case name == reach.ComposedNode:
	case oa == nil:
		c.Change = "added"
		at := n.agentPlace(name)
		c.At = &at
	case na == nil:
		c.Change = "removed"
		at := o.agentPlace(name)
		c.At = &at
	}
	if name != reach.ComposedNode {
		var oAvail, nAvail, oRes, nRes []string
		if oa != nil {
			oAvail, oRes = oa.Available.Expanded, oa.Resident
		}
		if na != nil {
			nAvail, nRes = na.Available.Expanded, na.Resident
		}
		for _, t := range minus(nAvail, oAvail) {
			c.Available.Gained = append(c.Available.Gained, Item{Name: t, At: n.availablePlace(name, t)})
		}
		for _, t := range minus(oAvail, nAvail) {
			c.Available.Lost = append(c.Available.Lost, Item{Name: t, At: o.availablePlace(name, t)})
		}
		for _, t := range minus(nRes, oRes) {
			res.Resident.Gained = append(res.Resident.Gained, Item{Name: t, At: n.residencyPlace(o, name, t)})
		}
		for _, t := range minus(oRes, nRes) {
			res.Resident.Lost = append(res.Resident.Lost, Item{Name: t, At: o.residencyPlace(n, name, t)})
		}
	}
	oAns, nAns := answers(o.Graph, name), answers(n.Graph, name)
	keys := reach.SortedKeys(oAns)
	for _, k := range reach.SortedKeys(nAns) {
		if _, ok := oAns[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Less(keys[j]) })
	for _, k := range keys {
		a, b := oAns[k], nAns[k]
		a.Tool, a.Toolset, b.Tool, b.Toolset = k.Tool, k.Toolset, k.Tool, k.Toolset
		if a.Level == b.Level {
			continue
		}
		if isLoader(a) || isLoader(b) {
			res.Loaders = append(res.Loaders, loaderChange(o, n, name, a, b))
			continue
		}
		tc := toolChange(o, n, name, a, b)
		if ho, hn, ok := heldElsewhere(oa, na, k, oAns, nAns); ok && live(o.Graph, name) == live(n.Graph, name) {
			tc = holderChange(o, n, name, a, b, ho, hn)
			if len(minus(oa.Resident, na.Resident))+len(minus(na.Resident, oa.Resident)) == 0 {
				// The order of available decided which toolset's build
				// keeps the name.
				tc.At = n.availablePlace(name, k.Toolset)
			}
		}
		if b.Level > a.Level {
			c.Widened = append(c.Widened, tc)
		} else {
			c.Narrowed = append(c.Narrowed, tc)
		}
	}
	if c.Change == "changed" && len(c.Widened)+len(c.Narrowed)+len(c.Available.Gained)+len(c.Available.Lost) == 0 {
		c = nil
	}
	if len(res.Resident.Gained)+len(res.Resident.Lost)+len(res.Loaders) == 0 {
		res = nil
	}
	return c, res
}

// isLoader reports whether an answer is for one of the two tools an agent
// holds while it defers a toolset: core.available_tools and
// core.load_tools. They come with residency and reach only what available
// already grants, so they are never counted as power.
func isLoader(a reach.Answer) bool {
	return a.Toolset == kokua.Core && (a.Tool == kokua.AvailableTools || a.Tool == kokua.LoadTools)
}

// heldElsewhere reports whether a toolset's tool became callable, or
// stopped being, because another toolset holds its name on one side and
// not on the other, while the agent's available holds the toolset on
// both: a build keeps the first tool of a name, and a load never replaces
// a held one (tool-access.md, Which of two same-named tools wins). It
// returns the toolset holding the name on each side ("" for none). This is
// the way residency changes an answer: approval entries gate a tool name,
// and an entry on a deferred toolset waits until that toolset is built
// (tool-access.md, What a load checks), so while it waits the same-named
// tool a resident toolset holds runs as its own entries say. The change is
// counted like any other.
func heldElsewhere(oa, na *policy.Agent, k reach.Key, oAns, nAns map[reach.Key]reach.Answer) (string, string, bool) {
	if oa == nil || na == nil || !slices.Contains(oa.Available.Expanded, k.Toolset) || !slices.Contains(na.Available.Expanded, k.Toolset) {
		return "", "", false
	}
	ho, hn := holderOf(oAns, k), holderOf(nAns, k)
	return ho, hn, ho != hn
}

// holderOf is the toolset whose tool of the key's name an agent calls by
// that name at turn start, when it is not the key's own; "" when it is, or
// when none holds it. Every answer of a graph is a tool the agent can call
// (reach.Agent.Answers), so one held at turn start is one not on demand.
func holderOf(ans map[reach.Key]reach.Answer, k reach.Key) string {
	for other, a := range ans {
		if other.Tool == k.Tool && other.Toolset != k.Toolset && !a.OnDemand {
			return other.Toolset
		}
	}
	return ""
}

// holderChange says why another toolset holds a tool's name on one side:
// it is placed at the resident line, which decides what a build holds
// and what stays for a load (the caller moves it to the available line
// when resident did not change: then available's order decided).
func holderChange(o, n *Side, agent string, a, b reach.Answer, oldHolder, newHolder string) ToolChange {
	tc := ToolChange{Tool: a.Tool, Toolset: a.Toolset, Old: a, New: b, At: n.residentKeyPlace(agent)}
	if !n.declaresResident(agent) {
		tc.At = o.residentKeyPlace(agent)
	}
	if newHolder != "" {
		tc.Because = fmt.Sprintf("toolset %q now holds the name %q first, so %q's tool of that name is not called", newHolder, a.Tool, a.Toolset)
	} else {
		tc.Because = fmt.Sprintf("toolset %q no longer holds the name %q first, so %q's tool of that name is called", oldHolder, a.Tool, a.Toolset)
	}
	return tc
}

// loaderChange says why a loader's answer changed: the agent started or
// stopped deferring a toolset (its resident line), or an entry gates the
// loader differently.
func loaderChange(o, n *Side, agent string, a, b reach.Answer) ToolChange {
	switch {
	case a.Level == reach.Unavailable:
		return ToolChange{Tool: b.Tool, Toolset: b.Toolset, Old: a, New: b, At: n.residentKeyPlace(agent),
			Because: "the agent now defers a toolset (available names it, resident does not), and so holds the loaders"}
	case b.Level == reach.Unavailable:
		return ToolChange{Tool: a.Tool, Toolset: a.Toolset, Old: a, New: b, At: o.residentKeyPlace(agent),
			Because: "the agent no longer defers a toolset, and so no longer holds the loaders"}
	}
	return toolChange(o, n, agent, a, b)
}

// composedChange is composed workers appearing or going: the
// compose_subagent edges gained or lost say what they carry, so their
// tools are not listed one by one.
func composedChange(o, n *Side) AgentChange {
	c := AgentChange{Agent: reach.ComposedNode, Change: "added", Widened: []ToolChange{}, Narrowed: []ToolChange{},
		Available: ListChange{Gained: []Item{}, Lost: []Item{}}}
	s := n
	if n.Graph.Agent(reach.ComposedNode) == nil {
		c.Change, s = "removed", o
	}
	for _, e := range s.Graph.Edges {
		if e.To == reach.ComposedNode {
			at := edgePlace(s, e)
			c.At = &at
			break
		}
	}
	return c
}

// minus is the names of a not in b, in a's order.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// toolChange says why an answer changed level, and where.
func toolChange(o, n *Side, agent string, a, b reach.Answer) ToolChange {
	tc := ToolChange{Tool: a.Tool, Toolset: a.Toolset, Old: a, New: b}
	od, nd := o.Policy.Document(), n.Policy.Document()
	switch {
	case a.Level == reach.Unavailable && o.Graph.Agent(agent) != nil && !live(o.Graph, agent):
		why, at := reachability(n, agent)
		tc.Because, tc.At = "the agent is now reachable: "+why, at
	case b.Level == reach.Unavailable && n.Graph.Agent(agent) != nil && !live(n.Graph, agent):
		why, at := reachability(o, agent)
		tc.Because, tc.At = "the agent is no longer reachable; on the old side, "+why, at
		if od.EntryAgent != nd.EntryAgent {
			tc.At = n.entryAgentPlace()
		}
	case a.Level == reach.Unavailable:
		tc.Because, tc.At = reachedBy(n, agent, b, "now")
	case b.Level == reach.Unavailable:
		tc.Because, tc.At = reachedBy(o, agent, a, "no longer")
	case a.Decision == policy.Review && b.Decision == policy.Review && od.AutoApproval.Enabled != nd.AutoApproval.Enabled:
		if nd.AutoApproval.Enabled {
			tc.Because, tc.At = "auto-approval turned on: a reviewer answers review calls first", n.autoPlace()
		} else {
			tc.Because, tc.At = "auto-approval turned off: review calls ask the user", o.autoPlace()
		}
	case a.Decision == policy.Review && b.Decision == policy.Review:
		if b.Level == reach.Reviewer {
			tc.Because, tc.At = "the floor no longer holds it, so a reviewer may answer", n.listPlace(nd.Floor.List.Key)
		} else {
			tc.Because, tc.At = "the floor now holds it, so no reviewer may answer", n.floorPlace(b.Tool)
		}
	case b.Entry != "":
		tc.Because = fmt.Sprintf("entry %q in %s gates it", b.Entry, b.Key)
		tc.At = n.entryPlace(b.Key, b.Position)
	default:
		// The line that caused it is in the new file: the agent's declared
		// pair when its pair changed source, else the list the entry left.
		tc.Because = fmt.Sprintf("entry %q in %s no longer gates it", a.Entry, a.Key)
		tc.At = n.listPlace(a.Key)
		if na := nd.Agents[agent]; na != nil && oaSource(od, agent) != na.Approval.Source {
			tc.Because += fmt.Sprintf(" (the agent's pair is now %s)", na.Approval.Source)
			if na.Approval.Source == kokua.Declared {
				tc.At = n.pairPlace(agent)
			} else {
				tc.At = n.place(config.TablePath([]string{"agents", agent, "tools"}), n.agentToolsSpan(agent))
			}
		}
	}
	return tc
}

func oaSource(d *policy.Document, agent string) kokua.Origin {
	if a := d.Agents[agent]; a != nil {
		return a.Approval.Source
	}
	return ""
}

// reachability says why an agent is live on a side, and where: it is the
// entry agent, or the first live agent that delegates to it (or composes,
// for composed workers) does.
func reachability(s *Side, agent string) (string, Place) {
	if agent == s.Graph.Entry {
		return "it is the entry agent", s.entryAgentPlace()
	}
	for _, e := range s.Graph.Edges {
		if e.To == agent && live(s.Graph, e.From) {
			if e.Via == kokua.ComposeSubagent {
				return fmt.Sprintf("%q composes workers", e.From), edgePlace(s, e)
			}
			return fmt.Sprintf("%q delegates to it", e.From), edgePlace(s, e)
		}
	}
	return "no agent reaches it", Place{File: s.Name}
}

// reachedBy says what makes an agent reach a tool (or, with "no longer",
// what made it): the toolset in available, delegates_to for
// spawn_subagent.
func reachedBy(s *Side, agent string, a reach.Answer, verb string) (string, Place) {
	switch {
	case agent == reach.ComposedNode:
		// Composed workers hold what the registry holds: the manifest.
		return fmt.Sprintf("composed workers %s hold toolset %q", verb, a.Toolset), Place{File: s.manifestFile(), Key: "toolsets"}
	case a.Toolset == kokua.Core && a.Tool == kokua.SpawnSubagent:
		return fmt.Sprintf("the agent %s delegates", verb), s.place(delegatesKey(agent), s.delegatesSpan(agent))
	case a.Toolset == kokua.Core:
		return fmt.Sprintf("core tool %s is %s held", a.Tool, verb), s.availablePlace(agent, "")
	}
	return fmt.Sprintf("available %s holds %s", verb, a.Toolset), s.availablePlace(agent, a.Toolset)
}

// planRow is the tools one agent can cause to run (its own and its
// workers', reach.Graph.Reach), by level, before and after.
type planRow struct {
	agent    string
	old, new [4]int
}

// levelCounts counts the tools an agent can cause to run at each level,
// the loaders left out (they come with residency); none for an agent
// that is not live.
func levelCounts(g *reach.Graph, agent string) [4]int {
	var out [4]int
	if !live(g, agent) {
		return out
	}
	for _, x := range g.Reach(agent) {
		if !isLoader(x.Answer) {
			out[x.Level]++
		}
	}
	return out
}
