package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/prompt"
)

// Session is one agent's conversation: the tools it holds, what it has
// loaded, and the decisions that follow from both (R180-R185). A session
// is not safe for concurrent use; the Policy it comes from is.
type Session struct {
	p     *Policy
	v     *view
	label string
	// resident are the toolsets held like resident ones: the agent's own
	// resident toolsets and those preloaded at a rebuild (R184).
	resident map[string]bool
	// preloaded are the toolsets a rebuild preloaded, in the order the
	// transcript first loaded them (R183).
	preloaded []string
	// loaded are the toolsets loaded in this session, in load order, and
	// preloaded ones before them.
	loaded []string
	tools  []Tool
	holder map[string]string // tool name -> toolset that holds it
	byLoad map[string]bool   // toolsets whose tools arrived by a load
}

// ErrUnknownAgent is returned for a session of an agent the policy does
// not declare.
var ErrUnknownAgent = errors.New("the policy declares no agent of that name")

// NewSession starts a conversation of a declared agent, at its first turn.
func (p *Policy) NewSession(agent string) (*Session, error) {
	v := p.agents[agent]
	if v == nil {
		return nil, fmt.Errorf("session for %q: %w", agent, ErrUnknownAgent)
	}
	s := &Session{p: p, v: v, label: agent, resident: map[string]bool{}, byLoad: map[string]bool{}}
	for _, r := range v.agent.Resident {
		s.resident[r] = true
	}
	s.present()
	return s, nil
}

// present rebuilds the tool list at turn start: the resident toolsets,
// then the preloaded ones in first-loaded order, each tool going to the
// first toolset that offers its name (R184, R185). An agent that defers a
// toolset keeps available_tools and load_tools after a rebuild even when
// every deferred toolset was preloaded: "The end state is the same tools"
// as before the rebuild, and loads never take a tool away (R183).
func (s *Session) present() {
	own := func(t string) bool { return has(s.v.agent.Resident, t) }
	s.tools, _ = presentation(s.p.doc.Toolsets, s.v.agent, own, s.preloaded, len(s.v.agent.Deferred) > 0, nil)
	s.holder = make(map[string]string, len(s.tools))
	for _, t := range s.tools {
		s.holder[t.Name] = t.Toolset
	}
}

// Tools returns the tools the agent holds now, in the order they are
// presented: the turn-start list, then loaded tools in load order (R181).
func (s *Session) Tools() []Tool { return s.tools }

// Loadable returns the deferred toolsets not loaded yet, in available order.
func (s *Session) Loadable() []string {
	var out []string
	for _, d := range s.v.agent.Deferred {
		if !s.resident[d] && !has(s.loaded, d) {
			out = append(out, d)
		}
	}
	return out
}

// NamesLine is the system prompt's line naming what the agent can still
// load, or "" when nothing is left (R63, R184).
func (s *Session) NamesLine() string {
	return prompt.NamesLine(s.Loadable())
}

// Decide answers for a call in this session: a loaded toolset's tools are
// held, and the approval entries its build resolved gate them (R80-R82).
func (s *Session) Decide(tool string, turn Turn) Answer {
	ans, r := s.p.decide(s.v, s.label, tool, turn, s.loaded)
	ans.Reason = r
	return ans
}

// DecideIn is Decide for a tool named by the toolset that offers it and
// its own name, kept apart (Policy.DecideIn).
func (s *Session) DecideIn(toolset, tool string, turn Turn) Answer {
	ans, r := s.p.decideIn(s.v, s.label, toolset, tool, turn, s.loaded)
	ans.Reason = r
	return ans
}

// LoadResult is what a load_tools call returns to the model, and what the
// host needs to know of it.
type LoadResult struct {
	Toolset string `json:"toolset"`
	// OK is false for a refused load; Message then is AIMU's
	// "Could not load '<name>': <error>".
	OK bool `json:"ok"`
	// Message is the text the model reads as the tool's result.
	Message string `json:"message"`
	// Added are the tools appended to the agent's list.
	Added []string `json:"added"`
	// Skipped are tools not loaded because the agent already holds the name.
	Skipped []Skip `json:"skipped"`
	// Guidance is the toolset's prompt text, which arrives with the load.
	Guidance string `json:"guidance"`
}

// Skip is a loaded tool left out because its name is taken (R182).
type Skip struct {
	Tool string `json:"tool"`
	// By is the toolset holding the name when it was itself loaded; empty
	// when the holder is a tool given to the agent directly.
	By string `json:"by"`
}

// Load loads one deferred toolset (R180-R182): its tools are appended
// after everything the agent holds, a tool whose name is held already is
// skipped, and the approval entries waiting for its build resolve before
// any of its tools is returned. A toolset outside the agent's
// availability, or one the policy marks refused, is not loaded.
func (s *Session) Load(toolset string) LoadResult {
	res := LoadResult{Toolset: toolset, Added: []string{}, Skipped: []Skip{}}
	refuse := func(why string) LoadResult {
		res.Message = fmt.Sprintf("Could not load '%s': %s", toolset, why)
		return res
	}
	ts := s.p.doc.Toolsets[toolset]
	switch {
	case s.resident[toolset] || has(s.v.agent.Skills, toolset):
		res.OK = true
		res.Message = fmt.Sprintf("'%s' is already loaded: the agent holds it from its first turn.", toolset)
		return res
	case has(s.loaded, toolset):
		res.OK = true
		res.Message = fmt.Sprintf("'%s' is already loaded.", toolset)
		return res
	case !s.v.deferred[toolset] || ts == nil:
		return refuse("it is not among this agent's available toolsets")
	case ts.LoadRefusal != "":
		return refuse(ts.LoadRefusal)
	}
	s.loaded = append(s.loaded, toolset)
	s.byLoad[toolset] = true
	for _, t := range ts.Tools {
		if by, taken := s.holder[t.Name]; taken {
			skip := Skip{Tool: t.Name}
			if s.byLoad[by] {
				skip.By = by
			}
			res.Skipped = append(res.Skipped, skip)
			continue
		}
		s.holder[t.Name] = toolset
		s.tools = append(s.tools, Tool{Name: t.Name, Toolset: toolset, SpecBytes: t.SpecBytes})
		res.Added = append(res.Added, t.Name)
	}
	res.OK = true
	res.Guidance = ts.Guidance
	res.Message = loadMessage(toolset, res)
	return res
}

// loadMessage writes the load result the model reads, naming what was
// skipped and what holds it (R182).
func loadMessage(toolset string, res LoadResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Loaded '%s': %s.", toolset, orNothing(res.Added))
	if len(res.Skipped) > 0 {
		parts := make([]string, len(res.Skipped))
		for i, sk := range res.Skipped {
			if sk.By != "" {
				parts[i] = fmt.Sprintf("%s (by '%s')", sk.Tool, sk.By)
			} else {
				parts[i] = sk.Tool + " (by a tool given to this agent directly)"
			}
		}
		fmt.Fprintf(&b, " Not loaded, because the name is already taken: %s.", strings.Join(parts, ", "))
	}
	if res.Guidance != "" {
		b.WriteString("\n\n" + res.Guidance)
	}
	return b.String()
}

func orNothing(names []string) string {
	if len(names) == 0 {
		return "no new tools"
	}
	return strings.Join(names, ", ")
}

// PreloadResult says what became of one toolset a rebuilt agent tried to
// preload.
type PreloadResult struct {
	Toolset string `json:"toolset"`
	OK      bool   `json:"ok"`
	// Warning is the WARNING-level log line of a failed preload, or of
	// preloaded tools skipped because their names were held (R184).
	Warning string `json:"warning"`
}

// Preload rebuilds a conversation's agent from the toolsets its stored
// transcript's successful load_tools calls loaded, in first-loaded order
// (R183, R184). Preloaded toolsets are held like resident ones: their tools
// come after the resident tools, toolset by toolset in the order given,
// ahead of spawn_subagent, the skill tools and the loaders, and the names
// line lists only what is still loadable. "A preloaded tool whose name the
// agent already holds is skipped and logged" (tool-access.md, "When an
// agent is rebuilt, it preloads"): the resident tools and every toolset
// preloaded before keep their names, and the result's warning says what
// was skipped and what holds it. A preload that fails is reported as a
// warning, and the toolset stays deferred and loadable.
func (p *Policy) Preload(agent string, loads []string) (*Session, []PreloadResult, error) {
	s, err := p.NewSession(agent)
	if err != nil {
		return nil, nil, err
	}
	results := make([]PreloadResult, 0, len(loads))
	for _, name := range loads {
		ts := p.doc.Toolsets[name]
		r := PreloadResult{Toolset: name}
		switch {
		case s.resident[name] || has(s.v.agent.Skills, name):
			r.OK = true // held from the first turn, or preloaded already
		case !s.v.deferred[name] || ts == nil:
			r.Warning = fmt.Sprintf("preload of '%s' for %s failed: it is not among this agent's available toolsets", name, agent)
		case ts.LoadRefusal != "":
			r.Warning = fmt.Sprintf("preload of '%s' for %s failed: %s; it stays loadable", name, agent, ts.LoadRefusal)
		default:
			r.OK = true
			s.resident[name] = true
			s.preloaded = append(s.preloaded, name)
			s.loaded = append(s.loaded, name)
		}
		results = append(results, r)
	}
	s.present()
	for i, r := range results {
		if !r.OK || !has(s.preloaded, r.Toolset) || slices.ContainsFunc(results[:i], func(e PreloadResult) bool { return e.Toolset == r.Toolset }) {
			continue
		}
		var skipped []string
		for _, t := range p.doc.Toolsets[r.Toolset].Tools {
			if by := s.holder[t.Name]; by != r.Toolset {
				skipped = append(skipped, fmt.Sprintf("%s (held by '%s')", t.Name, by))
			}
		}
		if len(skipped) > 0 {
			results[i].Warning = fmt.Sprintf("preload of '%s' for %s skipped tools whose names are held: %s", r.Toolset, agent, strings.Join(skipped, ", "))
		}
	}
	return s, results, nil
}
