package policy

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/kokua"
)

// Decision is the answer to "may this agent call this tool, and does the
// call ask first".
type Decision string

// The decisions.
const (
	// Unavailable: the agent can never call the tool.
	Unavailable Decision = "unavailable"
	// NotLoaded: the tool's toolset is deferred and not loaded in this
	// session; load_tools would make it callable.
	NotLoaded Decision = "not_loaded"
	// Run: the call runs without asking.
	Run Decision = "run"
	// Confirm: the call asks the user.
	Confirm Decision = "confirm"
	// Review: the call goes to the reviewer first when auto-approval is on
	// (never for a floor tool), then to the user.
	Review Decision = "review"
	// Denied: a gated call in an unattended turn, or an unknown agent.
	Denied Decision = "denied"
)

// Turn is what a decision needs to know about the turn the call is in.
type Turn struct {
	// Unattended marks a turn nobody watches: a scheduled task, a proactive
	// turn, a conversation the user switched away from. Every gated call is
	// then denied (R69).
	Unattended bool
}

// Answer is a decision with its reason. Its reason is the policy's own:
// every answer given for the same cause points at one Reason, made when
// the policy was loaded, so that deciding copies nothing but the answer's
// few words. Read it, do not change it: copy it first (r := *a.Reason)
// to keep a changed version. Decide and Session.Decide never give a nil
// Reason.
type Answer struct {
	Decision Decision `json:"decision"`
	// Agent is the gate label asked about; Tool the tool's name as the
	// model calls it; Toolset where it comes from ("core" for a core tool).
	Agent   string  `json:"agent"`
	Tool    string  `json:"tool"`
	Toolset string  `json:"toolset"`
	Reason  *Reason `json:"reason"`
}

// Reason says why: the deciding entry, its list, its position in the
// config, and whether the agent inherited the pair.
type Reason struct {
	// Summary is a sentence for people.
	Summary string `json:"summary"`
	// List is "confirm" or "review" when an entry decided.
	List string `json:"list,omitempty"`
	// Key is the key path of that list.
	Key string `json:"key,omitempty"`
	// Entry is the deciding entry's text.
	Entry string `json:"entry,omitempty"`
	// Position is where the config writes that entry; the zero Position,
	// left out of the JSON, when no entry decided or the entry is built in.
	Position Position `json:"position,omitzero"`
	// Inherited is true when the pair comes from [assistant.tools].
	Inherited bool `json:"inherited"`
	// Reviewer is true when a review goes to the reviewer model first.
	Reviewer bool `json:"reviewer"`
}

// Policy is a loaded, verified policy with its decision index. It is
// immutable and safe for concurrent use.
type Policy struct {
	doc      *Document
	agents   map[string]*view
	composed *view
	floor    map[string]bool
	// refused are the not_loaded reasons of the toolsets that refuse
	// every load (R149), by toolset.
	refused map[string]*Reason
	// few lists the views when there are few enough agents that comparing
	// labels beats hashing one; nil otherwise.
	few []*view
	// qualified are the names toolset.tool of every toolset's tools, in
	// its order, by toolset: the keys of every agent's answers share them.
	qualified map[string][]string
}

// Document returns the compiled document the policy was loaded from.
func (p *Policy) Document() *Document { return p.doc }

// gate is what one entry decides for a tool name.
type gate struct {
	list  string // confirm or review
	entry *Entry
	// reasons: for an attended turn, for an unattended one, and for a
	// review the reviewer answers first.
	reasons [3]*Reason
}

// view is one gate label's index: what it holds at turn start, what it can
// load, and the gates of its pair.
type view struct {
	// answers are the decisions of a conversation that has loaded nothing,
	// precomputed for every tool the label can reach, by bare name and as
	// toolset.tool.
	answers  map[string]stored
	doc      *Document
	label    string
	agent    *Agent
	held     map[string]string // tool name -> toolset, at turn start
	holds    map[string]bool   // toolset -> resident, or a skill the entry agent holds
	deferred map[string]bool   // toolset -> deferred
	loadable map[string]string // tool name -> first deferred toolset offering it
	// gates are the pair's resolved entries; pending ones wait for a build.
	gates   map[string]*gate
	pending map[string][]*gate // toolset -> entries its build resolves
}

// stored is a precomputed answer, small enough to sit in the map itself:
// 40 bytes, for there is one for every tool every agent can reach. The
// tool's name is not kept but found in the question, from byte name on
// (after the toolset of a qualified name, as locate reads it); the
// decisions are kept by their place in decisions.
type stored struct {
	toolset                  string
	reason, unattendedReason *Reason
	name                     uint32
	decision, unattended     uint8
}

// decisions are the decisions by the number stored keeps for them.
var decisions = [...]Decision{Unavailable, NotLoaded, Run, Confirm, Review, Denied}

// decisionNumber is the place of a decision in decisions.
func decisionNumber(d Decision) uint8 {
	for i, x := range decisions {
		if x == d {
			return uint8(i)
		}
	}
	panic(fmt.Sprintf("policy: no decision %q", d)) // cannot happen: decide answers with the constants
}

func index(d *Document) (*Policy, error) {
	p := &Policy{doc: d, agents: make(map[string]*view, len(d.Agents)), floor: map[string]bool{}, refused: map[string]*Reason{},
		qualified: make(map[string][]string, len(d.Toolsets))}
	for name, ts := range d.Toolsets {
		if ts == nil {
			continue
		}
		q := make([]string, len(ts.Tools))
		for i, t := range ts.Tools {
			q[i] = name + "." + t.Name
		}
		p.qualified[name] = q
		if ts.LoadRefusal != "" {
			p.refused[name] = &Reason{Summary: fmt.Sprintf("its toolset '%s' is deferred and not loaded, and a load is refused now: %s; "+
				"the toolset stays loadable, so load_tools would load it once that is fixed", name, ts.LoadRefusal)}
		}
	}
	if _, ok := d.Agents[d.EntryAgent]; !ok {
		return nil, fmt.Errorf("its entry agent %q has no agents entry", d.EntryAgent)
	}
	// The floor holds its resolved tools and, failing closed, whatever its
	// pending entries match in their toolsets' builds.
	for _, e := range d.Floor.List.Entries {
		for _, t := range e.Tools {
			p.floor[t] = true
		}
		if e.Status == StatusPending {
			for _, t := range resolveBuilt(d, e) {
				p.floor[t] = true
			}
		}
	}
	for name, a := range d.Agents {
		if a == nil {
			return nil, fmt.Errorf("agent %q is null", name)
		}
		v, err := p.agentView(name, a)
		if err != nil {
			return nil, err
		}
		p.agents[name] = v
	}
	p.composed = p.composedView()
	for _, v := range p.agents {
		p.precompute(v)
		if len(p.agents) <= 8 {
			p.few = append(p.few, v)
		}
	}
	p.precompute(p.composed)
	return p, nil
}

// precompute answers, once, every question Decide can be asked about a
// label that has loaded nothing, so that Decide is one map lookup. Each
// question is decided once: an unattended turn only denies what an
// attended one gates.
func (p *Policy) precompute(v *view) {
	toolsets := p.qualifying(v)
	// Sized for the qualified names, most of the questions; the bare
	// names grow it.
	size := 0
	for _, name := range toolsets {
		size += len(p.doc.Toolsets[name].Tools)
	}
	v.answers = make(map[string]stored, size)
	add := func(tool string) {
		a, r, g := p.answer(v, v.label, tool, nil)
		if a.Decision == Unavailable {
			return
		}
		// locate answers with the question or its part after the first
		// dot: the name is the question's end. A question is a name of
		// the document, shorter than MaxBytes.
		st := stored{toolset: a.Toolset, reason: r, unattendedReason: r, name: uint32(len(tool) - len(a.Tool)),
			decision: decisionNumber(a.Decision)}
		st.unattended = st.decision
		if g != nil {
			st.unattended, st.unattendedReason = decisionNumber(Denied), g.reasons[1]
		}
		v.answers[tool] = st
	}
	// Every tool by the bare name the model calls first: a bare name
	// holding a dot answers as the tool of that name, not as toolset.tool
	// (locate).
	for _, names := range []map[string]string{v.held, v.loadable} {
		for tool := range names {
			if _, done := v.answers[tool]; !done {
				add(tool)
			}
		}
	}
	// Then every tool of a toolset the label holds or defers, by its
	// qualified name (which can reach a tool another toolset holds first),
	// written once for the whole policy, and the qualified names of tools
	// held from elsewhere (core). That qualified name is looked up from a
	// buffer, so that one answered above costs no string.
	for _, name := range toolsets {
		for _, q := range p.qualified[name] {
			if _, done := v.answers[q]; !done {
				add(q)
			}
		}
	}
	var buf []byte
	for _, names := range []map[string]string{v.held, v.loadable} {
		for tool, ts := range names {
			buf = append(append(append(buf[:0], ts...), '.'), tool...)
			if _, done := v.answers[string(buf)]; !done {
				add(string(buf))
			}
		}
	}
}

// qualifying lists the toolsets whose tools a label can call by their
// qualified names: those it holds at turn start or defers (heldToolset,
// deferred). For an agent they come from its own lists, so that indexing
// every agent costs the sum of their sizes, not the number of agents times
// the number of toolsets in the trust order; a composed worker holds the
// whole registry, so its list is the trust order's. A name may appear
// twice (resident and a skill); precompute answers each question once.
func (p *Policy) qualifying(v *view) []string {
	var out []string
	if v.agent == nil {
		for _, name := range p.doc.TrustOrder {
			if v.deferred[name] || v.heldToolset(name) {
				out = append(out, name)
			}
		}
		return out
	}
	for _, lists := range [][]string{v.agent.Resident, v.agent.Skills, v.agent.Deferred} {
		for _, name := range lists {
			if p.doc.Toolsets[name] != nil {
				out = append(out, name)
			}
		}
	}
	return out
}

func (p *Policy) agentView(name string, a *Agent) (*view, error) {
	// The maps whose sizes the document gives are sized before they are
	// filled: an index holds one view for every agent, and a map grown
	// step by step allocates and copies.
	v := &view{doc: p.doc, label: name, agent: a, held: make(map[string]string, len(a.Tools)),
		deferred: make(map[string]bool, len(a.Deferred)), loadable: map[string]string{},
		gates: map[string]*gate{}, pending: map[string][]*gate{},
		holds: make(map[string]bool, len(a.Resident))}
	for _, ts := range a.Resident {
		v.holds[ts] = true
	}
	for _, ts := range a.Skills {
		v.holds[ts] = true
	}
	for _, t := range a.Tools {
		if t.Toolset != kokua.Core && p.doc.Toolsets[t.Toolset] == nil {
			return nil, fmt.Errorf("agent %q holds tool %q of toolset %q, which the policy does not define", name, t.Name, t.Toolset)
		}
		v.held[t.Name] = t.Toolset
	}
	for _, ts := range a.Deferred {
		t := p.doc.Toolsets[ts]
		if t == nil {
			return nil, fmt.Errorf("agent %q defers toolset %q, which the policy does not define", name, ts)
		}
		v.deferred[ts] = true
		for _, tool := range t.Tools {
			if _, held := v.held[tool.Name]; !held {
				if _, first := v.loadable[tool.Name]; !first {
					v.loadable[tool.Name] = ts
				}
			}
		}
	}
	// The agent's own turn-start toolsets were built for it to hold them,
	// and every build resolves the entries naming it (R80): an agent that
	// startup does not reach still has its resident entries resolved.
	own := map[string]bool{}
	for _, r := range a.Resident {
		own[r] = true
	}
	for _, s := range a.Skills {
		own[s] = true
	}
	built := func(ts string) bool { return own[ts] }
	confirm, review := a.Approval.Confirm, a.Approval.Review
	inherited := a.Approval.Source != kokua.Declared
	if inherited {
		confirm, review = &p.doc.DefaultTier.Confirm, &p.doc.DefaultTier.Review
	}
	if confirm == nil || review == nil {
		return nil, fmt.Errorf("agent %q declares its pair but the policy gives no lists for it", name)
	}
	v.addGates(*confirm, "confirm", inherited, built)
	v.addGates(*review, "review", inherited, built)
	return v, nil
}

// composedView is the default tier as composed workers meet it: the whole
// registry but capabilities and entry-point-only toolsets, built when the
// worker is, so every pending entry is resolved (R13, R186).
func (p *Policy) composedView() *view {
	v := &view{doc: p.doc, label: kokua.ComposedPrefix, held: map[string]string{}, gates: map[string]*gate{},
		deferred: map[string]bool{}, loadable: map[string]string{}, pending: map[string][]*gate{}}
	for _, name := range p.doc.TrustOrder {
		t := p.doc.Toolsets[name]
		if t == nil || t.EntryPointOnly || name == kokua.Capabilities || t.LoadRefusal != "" {
			continue
		}
		for _, tool := range t.Tools {
			if _, taken := v.held[tool.Name]; !taken {
				v.held[tool.Name] = name
			}
		}
	}
	everything := func(string) bool { return true } // a composed worker builds all it holds
	v.addGates(p.doc.DefaultTier.Confirm, "confirm", true, everything)
	v.addGates(p.doc.DefaultTier.Review, "review", true, everything)
	return v
}

// addGates indexes a list's entries. An entry resolves at once when it is
// resolved at startup, when its toolset is one the label builds for
// itself (built(toolset)), or it waits for the toolset's build.
func (v *view) addGates(l List, list string, inherited bool, built func(string) bool) {
	verb := "asks the user"
	if list == "review" {
		verb = "goes to review"
	}
	from := string(kokua.Declared)
	if inherited {
		from = "inherited"
	}
	for i := range l.Entries {
		e := &l.Entries[i]
		g := &gate{list: list, entry: e}
		base := Reason{List: list, Key: l.Key, Entry: e.Text, Inherited: inherited}
		if e.Position != nil {
			base.Position = *e.Position
		}
		attended, unattended, reviewer := base, base, base
		attended.Summary = fmt.Sprintf("the call %s: entry %q in %s (%s)", verb, e.Text, l.Key, from)
		unattended.Summary = fmt.Sprintf("an unattended turn denies every gated call; entry %q in %s gates it", e.Text, l.Key)
		reviewer.Summary, reviewer.Reviewer = attended.Summary, true
		g.reasons = [3]*Reason{&attended, &unattended, &reviewer}
		tools := e.Tools
		if e.Status == StatusPending {
			if !built(e.Toolset) {
				v.pending[e.Toolset] = append(v.pending[e.Toolset], g)
				continue
			}
			tools = resolveBuilt(v.doc, *e)
		}
		for _, t := range tools {
			if _, taken := v.gates[t]; !taken {
				v.gates[t] = g
			}
		}
	}
}

// Decide answers whether the agent (or gate label) may call the tool, and
// whom the call asks, for a conversation that has loaded nothing yet. The
// tool is written toolset.tool or as the bare name the model calls. It
// does not allocate.
func (p *Policy) Decide(agent, tool string, turn Turn) Answer {
	v := p.view(agent)
	if v == nil {
		if strings.HasPrefix(agent, kokua.ComposedPrefix) {
			return Answer{Decision: Denied, Agent: agent, Tool: tool, Reason: &noComposer}
		}
		return Answer{Decision: Denied, Agent: agent, Tool: tool, Reason: &unknownAgent}
	}
	st, ok := v.answers[tool]
	if !ok {
		name := tool
		if ts, t, qualified := strings.Cut(tool, "."); qualified && p.names(ts) {
			name = t
		}
		return Answer{Decision: Unavailable, Agent: agent, Tool: name, Reason: &unavailableReason}
	}
	if turn.Unattended {
		return Answer{Decision: decisions[st.unattended], Agent: agent, Tool: tool[st.name:], Toolset: st.toolset, Reason: st.unattendedReason}
	}
	return Answer{Decision: decisions[st.decision], Agent: agent, Tool: tool[st.name:], Toolset: st.toolset, Reason: st.reason}
}

// DecideIn is Decide for a tool named by the toolset that offers it and
// its own name, kept apart: the answer for that toolset's tool, whatever
// its name holds (a dot, a space) and whatever another toolset offers
// under the same name. A tool another toolset holds by that name at turn
// start is still answered, as Decide answers toolset.tool. Unlike Decide
// it answers from the index's slower path.
func (p *Policy) DecideIn(agent, toolset, tool string, turn Turn) Answer {
	v := p.view(agent)
	if v == nil {
		return p.Decide(agent, toolset+"."+tool, turn)
	}
	ans, r := p.decideIn(v, agent, toolset, tool, turn, nil)
	ans.Reason = r
	return ans
}

// Reasons shared by every answer of their kind.
var (
	unknownAgent      = Reason{Summary: "unknown agent: the policy declares no agent of that name, so every call is denied"}
	noComposer        = Reason{Summary: "unknown agent: no composed worker exists, since no agent Kokua builds declares capabilities (compose_subagent), so every call is denied"}
	unavailableReason = Reason{Summary: "the agent can never call it: no toolset it declares provides it"}
	notLoadedReason   = Reason{Summary: "its toolset is deferred and not loaded in this session; load_tools would load it"}
)

func (p *Policy) view(label string) *view {
	if p.few != nil {
		for _, v := range p.few {
			if v.label == label {
				return v
			}
		}
	} else if v := p.agents[label]; v != nil {
		return v
	}
	// Compose exists only for an agent that declares capabilities and that
	// startup builds (R43, R77): without one, a composed label is an
	// unknown agent.
	if (strings.HasPrefix(label, kokua.ComposedPrefix) && p.doc.Composed.Possible) || label == p.doc.DefaultTier.Label {
		return p.composed
	}
	return nil
}

// decide answers for a view, with the toolsets a session has loaded. It
// is the slow path: Decide answers from what precompute stored. The
// answer comes without its reason, which is returned apart, as a pointer
// into the index that the caller copies into the answer it hands out.
func (p *Policy) decide(v *view, label, tool string, turn Turn, loaded []string) (Answer, *Reason) {
	ans, r, g := p.answer(v, label, tool, loaded)
	return finish(ans, r, g, turn)
}

// decideIn is decide for a tool named by its toolset and its own name.
func (p *Policy) decideIn(v *view, label, toolset, tool string, turn Turn, loaded []string) (Answer, *Reason) {
	name, ts, ok := p.locateIn(v, toolset, tool, loaded)
	ans, r, g := p.answerAt(v, label, name, ts, ok, loaded)
	return finish(ans, r, g, turn)
}

// finish settles an answer for the turn: an unattended turn denies the
// call a gate decided.
func finish(ans Answer, r *Reason, g *gate, turn Turn) (Answer, *Reason) {
	if g != nil && turn.Unattended {
		ans.Decision, r = Denied, g.reasons[1]
	}
	return ans, r
}

// answer is decide for an attended turn, with the gate that decided, or
// nil when none did: an unattended turn denies the call if there is one.
func (p *Policy) answer(v *view, label, tool string, loaded []string) (Answer, *Reason, *gate) {
	name, toolset, ok := p.locate(v, tool, loaded)
	return p.answerAt(v, label, name, toolset, ok, loaded)
}

// answerAt is answer for a tool located: its bare name, its toolset, and
// whether the view holds it now.
func (p *Policy) answerAt(v *view, label, name, toolset string, ok bool, loaded []string) (Answer, *Reason, *gate) {
	ans := Answer{Agent: label, Tool: name, Toolset: toolset}
	switch {
	case !ok && toolset == "":
		ans.Decision = Unavailable
		return ans, &unavailableReason, nil
	case !ok:
		ans.Decision = NotLoaded
		if r := p.refused[toolset]; r != nil {
			return ans, r, nil
		}
		return ans, &notLoadedReason, nil
	}
	g := v.gates[name]
	if g == nil {
		g = v.pendingGate(name, loaded)
	}
	if g == nil {
		ans.Decision = Run
		if v.agent == nil || v.agent.Approval.Source != kokua.Declared {
			return ans, &runInherited, nil
		}
		return ans, &runDeclared, nil
	}
	r := g.reasons[0]
	switch {
	case g.list == "confirm":
		ans.Decision = Confirm
	case p.doc.AutoApproval.Enabled && !p.floor[name]:
		ans.Decision, r = Review, g.reasons[2]
	default:
		ans.Decision = Review
	}
	return ans, r, g
}

var (
	runInherited = Reason{Summary: "the call runs: no entry of the agent's confirm or review list names it", Inherited: true}
	runDeclared  = Reason{Summary: "the call runs: no entry of the agent's confirm or review list names it"}
)

// pendingGate finds a pending entry that a load in this session resolved:
// the hook matches the entry against what the build returned (R80, R82),
// never against the compile-time tools_when_built.
func (v *view) pendingGate(name string, loaded []string) *gate {
	for _, ts := range loaded {
		for _, g := range v.pending[ts] {
			if matches(v.doc, *g.entry, name) {
				return g
			}
		}
	}
	return nil
}

// resolveBuilt resolves an entry against its toolset's build: every tool
// for a whole-toolset entry, the named one if the build returns it.
func resolveBuilt(d *Document, e Entry) []string {
	ts := d.Toolsets[e.Toolset]
	if ts == nil {
		return nil
	}
	var out []string
	for _, t := range ts.built() {
		if e.Tool == "" || e.Tool == t.Name {
			out = append(out, t.Name)
		}
	}
	return out
}

// matches reports whether a build of the entry's toolset gives it the tool.
func matches(d *Document, e Entry, tool string) bool {
	if e.Tool != "" && e.Tool != tool {
		return false
	}
	if ts := d.Toolsets[e.Toolset]; ts != nil {
		for _, t := range ts.built() {
			if t.Name == tool {
				return true
			}
		}
	}
	return false
}

// locate finds the tool the model would call: its bare name and toolset,
// and whether the agent holds it now. A tool of a deferred toolset not yet
// loaded comes back with its toolset and ok false; a tool the agent cannot
// reach with no toolset. The model calls bare names, and an MCP server's
// tool name may hold a dot ("repo.delete"): a question is the bare name of
// a tool the agent holds or can load first, and toolset.tool only when no
// such tool has that name and the part before the first dot names a
// toolset of the policy (toolset names hold no dot, R18). To name a tool
// by its toolset whatever the names, ask DecideIn.
func (p *Policy) locate(v *view, tool string, loaded []string) (name, toolset string, ok bool) {
	if name, toolset, ok = p.locateBare(v, tool, loaded); toolset != "" {
		return name, toolset, ok
	}
	if ts, t, qualified := strings.Cut(tool, "."); qualified && p.names(ts) {
		return p.locateIn(v, ts, t, loaded)
	}
	return tool, "", false
}

// locateBare is locate for a bare name: the toolset holding it now, a
// loaded toolset offering it, or the first deferred toolset that would;
// no toolset when none offers it.
func (p *Policy) locateBare(v *view, tool string, loaded []string) (name, toolset string, ok bool) {
	if ts, held := v.held[tool]; held {
		return tool, ts, true
	}
	for _, ts := range loaded {
		if v.deferred[ts] && p.provides(ts, tool, v) {
			return tool, ts, true
		}
	}
	if ts, ok := v.loadable[tool]; ok {
		return tool, ts, false
	}
	return tool, "", false
}

// names reports whether a toolset of that name exists: core or one the
// document lists.
func (p *Policy) names(toolset string) bool {
	return toolset == kokua.Core || p.doc.Toolsets[toolset] != nil
}

// locateIn is locate for a tool named with its toolset: the tool as that
// toolset offers it, whatever another toolset offers under the same name.
func (p *Policy) locateIn(v *view, ts, t string, loaded []string) (name, toolset string, ok bool) {
	if v.deferred[ts] && p.refused[ts] != nil && p.lists(ts, t) {
		// A deferred toolset that refuses its loads stays loadable
		// (R149, R150); a session never holds its tools.
		return t, ts, false
	}
	if !p.provides(ts, t, v) {
		return t, "", false
	}
	if holder, held := v.held[t]; held && (holder == ts || v.heldToolset(ts)) {
		return t, ts, true
	}
	if v.deferred[ts] {
		return t, ts, has(loaded, ts)
	}
	return t, "", false
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// provides reports whether a toolset (or core) offers the tool.
func (p *Policy) provides(toolset, tool string, v *view) bool {
	if toolset == kokua.Core {
		ts, held := v.held[tool]
		return held && ts == kokua.Core
	}
	t := p.doc.Toolsets[toolset]
	if t == nil {
		return false
	}
	for _, x := range t.built() {
		if x.Name == tool {
			return true
		}
	}
	return false
}

// lists reports whether the toolset lists the tool, whether or not a build
// of it gives the tool now.
func (p *Policy) lists(toolset, tool string) bool {
	if t := p.doc.Toolsets[toolset]; t != nil {
		for _, x := range t.Tools {
			if x.Name == tool {
				return true
			}
		}
	}
	return false
}

// heldToolset reports whether the view holds the toolset at turn start:
// one of its tools is held from it, or it is resident with every tool of
// it shadowed.
func (v *view) heldToolset(toolset string) bool {
	if v.agent == nil {
		return toolset != kokua.Capabilities
	}
	return v.holds[toolset]
}
