package reference

import (
	"slices"
	"strings"
)

// Session is one agent's conversation as the reference sees it: the
// toolsets it has loaded (preloaded ones first), and from those the tool
// names it holds and the entries that have resolved. It is written from
// rules.md alone, like the rest of the package: a load builds the
// toolset, and "every build resolves the entries naming it" (R80); loaded
// tools are appended, a name already held is skipped (R181, R182); a
// rebuilt agent preloads what its transcript loaded and holds it like a
// resident toolset (R183, R184).
type Session struct {
	r      *Evaluator
	a      *refAgent
	loaded []string // toolsets built for this conversation by a load or a preload, in order
	held   []string // tool names held now
	// own and deferred are the agent's turn-start toolsets and its
	// deferred ones, which no load changes.
	own, deferred []string
	// gates are the tool names the confirm and review lists gate now,
	// worked out again after every build.
	gates *refView
}

// NewSession starts a conversation of the agent at its first turn, or
// returns nil for an agent the config does not declare.
func (r *Evaluator) NewSession(agent string) *Session {
	a := r.agent(agent)
	if a == nil {
		return nil
	}
	return &Session{r: r, a: a, held: slices.Clone(r.heldAtStart(a)), own: r.ownBuilt(a), deferred: r.deferred(a)}
}

// Preload starts a conversation of a rebuilt agent that preloads the
// given toolsets: each that a load would load is built, in order, and its
// tools held (R183, R184). A preload that would fail leaves the toolset
// deferred.
func (r *Evaluator) Preload(agent string, loads []string) *Session {
	s := r.NewSession(agent)
	if s == nil {
		return nil
	}
	for _, name := range loads {
		if s.loadable(name) {
			s.build(name)
		}
	}
	return s
}

// holdsFromStart reports whether the agent holds the toolset from its
// first turn: resident, or a skill its SkillAgent holds.
func (s *Session) holdsFromStart(name string) bool {
	return slices.Contains(s.own, name)
}

// loadable reports whether a load of the toolset would build it now: it
// is deferred, not loaded yet, and not a disconnected MCP server, which
// "refuses to load" (tool-access.md, "What a load costs").
func (s *Session) loadable(name string) bool {
	t := s.r.toolset(name)
	return t != nil && !t.Disconnected && slices.Contains(s.deferred, name) && !slices.Contains(s.loaded, name)
}

func (s *Session) build(name string) (added []string) {
	s.loaded = append(s.loaded, name)
	s.gates = nil
	for _, tool := range s.r.builtTools(s.r.toolset(name)) {
		if !slices.Contains(s.held, tool) {
			s.held = append(s.held, tool)
			added = append(added, tool)
		}
	}
	return added
}

// Load loads a toolset: ok is false when the load is refused (not among
// the agent's deferred toolsets, or a disconnected server); a toolset the
// agent already holds or has loaded is ok with nothing added. added are the
// tool names the load appends, in the toolset's order.
func (s *Session) Load(name string) (ok bool, added []string) {
	switch {
	case s.holdsFromStart(name) || slices.Contains(s.loaded, name):
		return true, nil
	case !s.loadable(name):
		return false, nil
	}
	return true, s.build(name)
}

// Loaded are the toolsets built for this conversation, in order.
func (s *Session) Loaded() []string { return slices.Clone(s.loaded) }

// Loadable lists the deferred toolsets not loaded yet, in available order,
// disconnected servers included: they stay loadable (R150).
func (s *Session) Loadable() []string {
	var out []string
	for _, name := range s.deferred {
		if !slices.Contains(s.loaded, name) {
			out = append(out, name)
		}
	}
	return out
}

// Answer says what the agent may do with the tool now, at an attended
// turn: the bare name the model calls, or toolset.tool. A held name is
// gated by the entries resolved so far, those of the toolsets built at
// startup, the agent's own and those this conversation loaded; entries
// match names (R35).
func (s *Session) Answer(tool string) string {
	name := tool
	// The model calls bare names, and a tool's own name may hold a dot:
	// the question is toolset.tool only when no tool the agent holds or
	// can load has that name and the part before the dot names a toolset
	// (toolset names hold no dot, R18).
	bare := slices.Contains(s.held, tool)
	for _, d := range s.deferred {
		if t := s.r.toolset(d); t != nil && slices.Contains(t.Tools, tool) {
			bare = true
		}
	}
	if ts, t, qualified := strings.Cut(tool, "."); qualified && !bare && (ts == "core" || s.r.toolset(ts) != nil) {
		name = t
		switch held := s.qualifiedHeld(ts, t); {
		case held:
		case ts != "core" && slices.Contains(s.Loadable(), ts) && s.r.toolset(ts) != nil && slices.Contains(s.r.toolset(ts).Tools, t):
			return Loadable
		default:
			return Unavailable
		}
	} else if !slices.Contains(s.held, tool) {
		for _, d := range s.deferred {
			if slices.Contains(s.loaded, d) {
				continue
			}
			if t := s.r.toolset(d); t != nil && slices.Contains(t.Tools, tool) {
				return Loadable
			}
		}
		return Unavailable
	}
	if s.gates == nil {
		s.gates = &refView{}
		built := append(slices.Clone(s.own), s.loaded...)
		confirm, review := s.r.pair(s.a)
		for _, e := range confirm {
			s.gates.confirm = append(s.gates.confirm, s.r.resolve(e, built)...)
		}
		for _, e := range review {
			s.gates.review = append(s.gates.review, s.r.resolve(e, built)...)
		}
	}
	switch {
	case slices.Contains(s.gates.confirm, name):
		return Confirm
	case slices.Contains(s.gates.review, name):
		return Review
	}
	return Run
}

// qualifiedHeld reports whether toolset.tool names a tool the agent holds
// from that toolset now: a core tool it holds, or a tool a build of a
// toolset it holds from the start or has loaded gives.
func (s *Session) qualifiedHeld(ts, tool string) bool {
	if ts == "core" {
		return slices.Contains(s.r.coreToolsHeld(s.a), tool)
	}
	t := s.r.toolset(ts)
	if t == nil || !(s.holdsFromStart(ts) || slices.Contains(s.loaded, ts)) {
		return false
	}
	return slices.Contains(s.r.builtTools(t), tool)
}
