package expect

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/english"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// SelectorRule is the rule ID of a selector that matches nothing.
const SelectorRule = "test-selector"

// Result is one claim checked.
type Result struct {
	// File and Span are the test file and the claim's [[expect]] header.
	File string
	Span diag.Span
	// Name is the claim's name ("" when it has none); Title says it for
	// reports (its name, or its selectors).
	Name, Title string
	Passed      bool
	// Pairs counts the (agent, tool) pairs the claim selected.
	Pairs int
	// Problems are selectors that match nothing: the claim fails.
	Problems []diag.Diagnostic
	// Failures are the first Shown pairs whose decision is not wanted, in
	// the order they were checked: agents in name order (with reach, each
	// closure in its order), tools in trust order. Failing counts them
	// all: a claim of every agent and tool keeps what a report shows, not
	// every pair (issue 37: 3,000 such claims kept 2.3 GB).
	Failures []Failure
	Failing  int
	// Want are the decision words of the claim.
	Want []string
}

// Failure is one pair whose decision the claim does not want.
type Failure struct {
	Agent    string
	Tool     string
	Decision policy.Decision
	// Path is the delegation path from the claim's agent to Agent, for
	// reach; nil otherwise.
	Path []string
	// Chain is what produced the decision, each step with its place in
	// the config when one is known.
	Chain []Step
	// Help says what would make the pair hold: the config change that
	// gives a wanted decision, or the claim to change (help).
	Help string
}

// Step is one link of the chain behind a decision.
type Step struct {
	Text  string
	Place diff.Place
}

// String writes the step with its place first: file:line:column: text.
func (s Step) String() string {
	switch {
	case s.Place.File == "":
		return s.Text
	case s.Place.Line == 0:
		return fmt.Sprintf("%s: %s", s.Place.File, s.Text)
	}
	return fmt.Sprintf("%s:%d:%d: %s", s.Place.File, s.Place.Line, s.Place.Column, s.Text)
}

// Run checks every claim of the test files against one side: a config
// compiled on the fly or a compiled policy.
func Run(side *diff.Side, files ...*File) []Result {
	var out []Result
	c := newChecker(side)
	for _, f := range files {
		for _, e := range f.Expects {
			out = append(out, c.check(f.Name, e))
		}
	}
	return out
}

// checker holds what the claims of one run share.
type checker struct {
	side  *diff.Side
	p     *policy.Policy
	d     *policy.Document
	g     *reach.Graph
	agent []string    // declared agents, in name order
	tools []reach.Key // every tool: core first, then trust order
	names map[string][]string
}

func newChecker(side *diff.Side) *checker {
	d := side.Policy.Document()
	c := &checker{side: side, p: side.Policy, d: d, g: side.Graph, names: map[string][]string{}}
	for name := range d.Agents {
		c.agent = append(c.agent, name)
	}
	sort.Strings(c.agent)
	for _, t := range d.CoreTools {
		c.tools = append(c.tools, reach.Key{Toolset: kokua.Core, Tool: t})
		c.names[kokua.Core] = append(c.names[kokua.Core], t)
	}
	for _, ts := range d.TrustOrder {
		if d.Toolsets[ts] == nil {
			continue
		}
		for _, t := range d.Toolsets[ts].Tools {
			c.tools = append(c.tools, reach.Key{Toolset: ts, Tool: t.Name})
			c.names[ts] = append(c.names[ts], t.Name)
		}
	}
	return c
}

// Selectors checks the claims' selectors against a policy: a diagnostic
// for each that matches nothing, with the closest names. The language
// server asks it of the test file being edited.
func Selectors(p *policy.Policy, f *File) []diag.Diagnostic {
	c := newChecker(&diff.Side{Policy: p})
	var ds []diag.Diagnostic
	for _, e := range f.Expects {
		_, _, more := c.resolve(e)
		ds = append(ds, more...)
	}
	return ds
}

// resolve turns a claim's selectors into the agents (graph node names)
// and the qualified tools they select, or the diagnostics of those that
// match nothing.
func (c *checker) resolve(e *Expect) (agents []string, tools []reach.Key, ds []diag.Diagnostic) {
	switch a := e.Agent.Text; {
	case a == Every:
		agents = c.agent
	case a == Composed:
		if !c.d.Composed.Possible {
			d := selector(e.Agent, "composed workers do not exist in this policy: no agent Kokua builds holds capabilities (compose_subagent)", nil)
			d.Suggestion = "name a declared agent, or give an agent Kokua builds capabilities if workers should be composed"
			ds = append(ds, d)
		}
		agents = []string{reach.ComposedNode}
		if e.HasLoaded {
			d := selector(e.Agent, "composed workers hold the whole registry from the start and load nothing: leave out loaded", nil)
			d.Suggestion = "leave out loaded"
			ds = append(ds, d)
		}
	case c.d.Agents[a] != nil:
		agents = []string{a}
	default:
		ds = append(ds, selector(e.Agent, fmt.Sprintf("agent %s matches no declared agent", printable.Quote(a)), append(slices.Clone(c.agent), Every, Composed)))
	}
	tools, more := c.toolSelector(e.Tool)
	ds = append(ds, more...)
	for _, l := range e.Loaded {
		if c.d.Toolsets[l.Text] == nil {
			ds = append(ds, selector(l, fmt.Sprintf("loaded names %s, which is no registered toolset", printable.Quote(l.Text)), c.d.TrustOrder))
		}
	}
	return agents, tools, ds
}

// toolSelector resolves a tool selector: "*", a toolset, toolset.*, or
// toolset.tool (core.<tool> for a core tool).
func (c *checker) toolSelector(v Value) ([]reach.Key, []diag.Diagnostic) {
	s := v.Text
	if s == Every {
		return c.tools, nil
	}
	toolsets := append([]string{kokua.Core}, c.d.TrustOrder...)
	ts, tool, qualified := strings.Cut(s, ".")
	if !qualified || tool == "*" {
		names, known := c.names[ts]
		switch {
		case known && len(names) > 0:
			out := make([]reach.Key, len(names))
			for i, n := range names {
				out[i] = reach.Key{Toolset: ts, Tool: n}
			}
			return out, nil
		case known || slices.Contains(toolsets, ts):
			d := selector(v, fmt.Sprintf("toolset %s provides no tool, so the claim would hold of nothing", printable.Quote(ts)), nil)
			d.Suggestion = "name a toolset that provides tools, or drop the claim"
			return nil, []diag.Diagnostic{d}
		}
		if !qualified {
			// A bare tool name: say which toolsets offer it.
			var offer []string
			for _, t := range toolsets {
				if slices.Contains(c.names[t], s) {
					offer = append(offer, t+"."+s)
				}
			}
			if len(offer) > 0 {
				d := selector(v, fmt.Sprintf("tool %s names no toolset; a tool is written toolset.tool", printable.Quote(s)), nil)
				d.Suggestion = fmt.Sprintf("write %q", offer[0])
				d.Notes = []string{fmt.Sprintf("Did you mean %s?", quoteAll(offer))}
				return nil, []diag.Diagnostic{d}
			}
		}
		d := selector(v, fmt.Sprintf("tool %s names no registered toolset", printable.Quote(s)), nil)
		d.Suggestion = oneOf(toolsets)
		if near := similar.Suggest(ts, toolsets); len(near) > 0 {
			d.Suggestion = fmt.Sprintf("write %q", near[0]+strings.TrimPrefix(s, ts))
			d.Notes = []string{fmt.Sprintf("Did you mean %s?", quoteAll(near))}
		}
		return nil, []diag.Diagnostic{d}
	}
	names, known := c.names[ts]
	if !known {
		d := selector(v, fmt.Sprintf("tool %s names no registered toolset %s", printable.Quote(s), printable.Quote(ts)), nil)
		d.Suggestion = oneOf(toolsets)
		if near := similar.Suggest(ts, toolsets); len(near) > 0 {
			d.Suggestion = fmt.Sprintf("write %q", near[0]+"."+tool)
			d.Notes = []string{fmt.Sprintf("Did you mean %s?", printable.Quote(near[0]))}
		}
		return nil, []diag.Diagnostic{d}
	}
	if !slices.Contains(names, tool) {
		d := selector(v, fmt.Sprintf("toolset %s provides no tool %s", printable.Quote(ts), printable.Quote(tool)), nil)
		d.Suggestion = oneOf(prefixed(ts, names))
		if near := similar.Suggest(tool, names); len(near) > 0 {
			d.Suggestion = fmt.Sprintf("write %q", ts+"."+near[0])
			d.Notes = []string{fmt.Sprintf("Did you mean %s?", quoteAll(near))}
		}
		return nil, []diag.Diagnostic{d}
	}
	return []reach.Key{{Toolset: ts, Tool: tool}}, nil
}

// quoteAll quotes names and joins them as "'a', 'b' or 'c'", bounded as
// english.Names is.
func quoteAll(names []string) string { return english.Names(names, "or", printable.Quote) }

// oneOf is the help of a selector with no close match: the names it may
// be, the first shownNames of them.
func oneOf(names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, 0, shownNames+1)
	for i, n := range names {
		if i == shownNames {
			q = append(q, fmt.Sprintf("... (%d in all)", len(names)))
			break
		}
		q = append(q, printable.Quote(n))
	}
	return "write one of " + strings.Join(q, ", ")
}

// shownNames is how many names oneOf lists.
const shownNames = 8

// prefixed is each name written toolset.name.
func prefixed(ts string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = ts + "." + n
	}
	return out
}

// selector is the diagnostic of a selector that matches nothing, with the
// closest of the candidates, when one is close, and otherwise the help of
// what it may be.
func selector(v Value, msg string, candidates []string) diag.Diagnostic {
	d := diag.Diagnostic{Rule: SelectorRule, Severity: diag.Error, Phase: diag.PhaseValidate, Message: msg, Span: v.Span, Suggestion: oneOf(candidates)}
	if near := similar.Suggest(v.Text, candidates); len(near) > 0 {
		d.Suggestion = fmt.Sprintf("write %q", near[0])
		d.Notes = []string{fmt.Sprintf("Did you mean %s?", quoteAll(near))}
	}
	return d
}

// check checks one claim.
func (c *checker) check(file string, e *Expect) Result {
	r := Result{File: file, Span: e.Span, Name: e.Name, Title: e.Title()}
	for _, w := range e.Decision {
		r.Want = append(r.Want, w.Text)
	}
	agents, tools, ds := c.resolve(e)
	if len(ds) > 0 {
		r.Problems = diag.Sort(ds)
		return r
	}
	type subject struct {
		node string
		path []string
	}
	var subjects []subject
	if e.Reach {
		seen := map[string]bool{}
		for _, a := range agents {
			order, paths := c.g.Paths(a)
			for _, n := range order {
				if !seen[n] {
					seen[n] = true
					var path []string
					if len(paths[n]) > 1 {
						path = paths[n]
					}
					subjects = append(subjects, subject{n, path})
				}
			}
		}
	} else {
		for _, a := range agents {
			subjects = append(subjects, subject{node: a})
		}
	}
	want := e.Wanted()
	turn := policy.Turn{Unattended: e.Unattended}
	for _, s := range subjects {
		ask := c.asker(s.node, e)
		// The links of a chain before the decision's own are the same for
		// every tool of a toolset: made once per subject and toolset.
		var path []Step
		prefix := map[string][]Step{}
		for _, q := range tools {
			r.Pairs++
			ans := ask(q, turn)
			if want[ans.Decision] {
				continue
			}
			r.Failing++
			if len(r.Failures) == Shown {
				continue
			}
			if path == nil {
				path = c.pathSteps(s.path)
			}
			ts := q.Toolset
			head, ok := prefix[ts]
			if !ok {
				head = append(slices.Clip(path), c.availability(s.node, ts, e)...)
				prefix[ts] = head
			}
			r.Failures = append(r.Failures, Failure{Agent: s.node, Tool: q.String(), Decision: ans.Decision, Path: s.path,
				Chain: append(slices.Clip(head), c.decided(s.node, q, ans)), Help: c.help(s.node, s.path, q, ans, want, e)})
		}
	}
	r.Passed = r.Failing == 0
	return r
}

// asker returns how one agent's decisions are asked for a claim: through
// the runtime's Decide, or a session of it. Without loaded, a tool of a
// toolset the agent defers is asked of a session that loaded exactly that
// toolset (its decision once loaded); with loaded, of one session that
// loaded those toolsets, in order.
func (c *checker) asker(node string, e *Expect) func(reach.Key, policy.Turn) policy.Answer {
	if node == reach.ComposedNode {
		label := c.d.Composed.LabelPrefix + "worker"
		return func(q reach.Key, turn policy.Turn) policy.Answer { return c.p.DecideIn(label, q.Toolset, q.Tool, turn) }
	}
	direct := func(q reach.Key, turn policy.Turn) policy.Answer { return c.p.DecideIn(node, q.Toolset, q.Tool, turn) }
	if e.HasLoaded {
		s, err := c.p.NewSession(node)
		if err != nil {
			return direct
		}
		for _, l := range e.Loaded {
			s.Load(l.Text)
		}
		return func(q reach.Key, turn policy.Turn) policy.Answer { return s.DecideIn(q.Toolset, q.Tool, turn) }
	}
	a := c.d.Agents[node]
	sessions := map[string]*policy.Session{}
	return func(q reach.Key, turn policy.Turn) policy.Answer {
		if !slices.Contains(a.Deferred, q.Toolset) {
			return direct(q, turn)
		}
		s := sessions[q.Toolset]
		if s == nil {
			var err error
			if s, err = c.p.NewSession(node); err != nil {
				return direct(q, turn)
			}
			s.Load(q.Toolset)
			sessions[q.Toolset] = s
		}
		return s.DecideIn(q.Toolset, q.Tool, turn)
	}
}

// A failure's chain says what produced its decision: the delegation path
// (pathSteps), the agent's availability of the tool's toolset
// (availability), and the policy's own reason (decided), each at its place
// in the config when the side knows it.

// pathSteps are the links of a delegation path: each delegates_to item,
// or the capabilities that let an agent compose workers.
func (c *checker) pathSteps(path []string) []Step {
	out := []Step{}
	for i := 1; i < len(path); i++ {
		from, to := path[i-1], path[i]
		if to == reach.ComposedNode {
			out = append(out, Step{Text: fmt.Sprintf("%s holds capabilities, so it composes workers (compose_subagent)", printable.Quote(from)),
				Place: c.side.AvailablePlace(from, kokua.Capabilities)})
			continue
		}
		out = append(out, Step{Text: fmt.Sprintf("delegates_to of %s names %s", printable.Quote(from), printable.Quote(to)), Place: c.side.DelegatePlace(from, to)})
	}
	return out
}

// availability says how the agent holds the toolset, or that it does not.
func (c *checker) availability(node, ts string, e *Expect) []Step {
	var out []Step
	switch {
	case node == reach.ComposedNode:
		out = append(out, Step{Text: "a composed worker holds every registered toolset but capabilities and entry-point-only ones, and always gets the default tier's pair ([assistant.tools])"})
	case ts == kokua.Core:
		out = append(out, Step{Text: "the tool is one of Kokua's core tools, which an agent holds by what it declares, not by available"})
	default:
		a := c.d.Agents[node]
		at := c.side.AvailablePlace(node, ts)
		switch {
		case a.Available.All && slices.Contains(a.Available.Expanded, ts):
			out = append(out, Step{Text: fmt.Sprintf("%s: \"all\" holds %s", at.Key, printable.Quote(ts)), Place: at})
		case slices.Contains(a.Available.Expanded, ts):
			out = append(out, Step{Text: fmt.Sprintf("%s lists %s", at.Key, printable.Quote(ts)), Place: at})
		default:
			out = append(out, Step{Text: fmt.Sprintf("%s does not list %s", at.Key, printable.Quote(ts)), Place: at})
		}
		if slices.Contains(a.Deferred, ts) {
			if e.HasLoaded && !slices.ContainsFunc(e.Loaded, func(v Value) bool { return v.Text == ts }) {
				out = append(out, Step{Text: fmt.Sprintf("%s is deferred, and the claim's loaded list does not load it", printable.Quote(ts))})
			} else {
				out = append(out, Step{Text: fmt.Sprintf("%s is deferred: judged as a session that loaded it", printable.Quote(ts))})
			}
		}
	}
	return out
}

// decided is the policy's own reason for the decision.
func (c *checker) decided(node string, q reach.Key, ans policy.Answer) Step {
	r := ans.Reason
	file := c.side.ConfigFile()
	switch {
	case ans.Decision == policy.Run && r.Inherited:
		at := diff.Place{File: file, Key: "[assistant.tools]"}
		if cfg := c.side.Config; cfg != nil && cfg.DefaultPair.Set {
			at.Line, at.Column = cfg.DefaultPair.Span.Start.Line, cfg.DefaultPair.Span.Start.Column
		}
		return Step{Text: fmt.Sprintf("no entry of the inherited [assistant.tools] names %s, so the call runs", printable.Quote(q.String())), Place: at}
	case ans.Decision == policy.Run:
		table := "the agent's own pair"
		if a := c.d.Agents[node]; a != nil && a.Approval.Table != "" {
			table = a.Approval.Table
		}
		at := diff.Place{File: file, Key: table}
		if cfg := c.side.Config; cfg != nil {
			if a := cfg.Agent(node); a != nil && a.Tools != nil {
				at.Line, at.Column = a.Tools.Span.Start.Line, a.Tools.Span.Start.Column
			}
		}
		return Step{Text: fmt.Sprintf("no entry of %s names %s, so the call runs", table, printable.Quote(q.String())), Place: at}
	case r.Entry != "":
		var pos *policy.Position
		if r.Position != (policy.Position{}) {
			p := r.Position
			pos = &p
		}
		return Step{Text: r.Summary, Place: c.side.EntryPlace(r.Key, pos)}
	}
	return Step{Text: r.Summary}
}

// help says how a failing pair could hold: the one config change that
// gives the agent a decision the claim wants, the least one first (a gate
// added or moved before a toolset taken away), and, when the agent was
// reached through delegation, the delegation that could go instead. Every
// help ends by naming the other way out: the claim itself may be what is
// wrong.
func (c *checker) help(node string, path []string, q reach.Key, ans policy.Answer, want map[policy.Decision]bool, e *Expect) string {
	if node == reach.ComposedNode {
		return c.composedHelp(q, ans, want)
	}
	tool, ts := printable.Quote(q.String()), printable.Quote(q.Toolset)
	asks := want[policy.Confirm] || want[policy.Review]
	gateList := "confirm or review"
	switch {
	case want[policy.Confirm] && !want[policy.Review]:
		gateList = "confirm"
	case want[policy.Review] && !want[policy.Confirm]:
		gateList = "review"
	}
	table := "[assistant.tools]"
	if a := c.d.Agents[node]; a != nil && a.Approval.Table != "" {
		table = a.Approval.Table
	}
	r := ans.Reason
	entry := ""
	if r != nil && r.Entry != "" {
		entry = fmt.Sprintf("the entry %s in %s", printable.Quote(r.Entry), r.Key)
	}
	takeAway := func() string {
		if q.Toolset == kokua.Core {
			return fmt.Sprintf("%s is a core tool, which comes with what the agent declares (delegates_to, capabilities), not with available", tool)
		}
		return fmt.Sprintf("drop %s from %s", ts, c.side.AvailablePlace(node, q.Toolset).Key)
	}
	var help string
	switch d := ans.Decision; {
	case d == policy.Run && asks:
		help = fmt.Sprintf("add %s to %s in %s", tool, gateList, table)
	case d == policy.Run && want[policy.Denied] && e.Unattended:
		help = fmt.Sprintf("add %s to confirm or review in %s: an unattended turn denies every gated call", tool, table)
	case d == policy.Run && (want[policy.Unavailable] || want[policy.NotLoaded]):
		help = takeAway()
	case (d == policy.Confirm || d == policy.Review) && want[policy.Run] && entry != "":
		help = fmt.Sprintf("remove %s, which gates it", entry)
	case (d == policy.Confirm || d == policy.Review) && asks && entry != "":
		help = fmt.Sprintf("move %s to %s", entry, gateList)
	case (d == policy.Confirm || d == policy.Review) && want[policy.Denied] && !e.Unattended:
		help = "a gated call is denied only in a turn nobody watches: write unattended = true in the claim"
	case (d == policy.Confirm || d == policy.Review || d == policy.Denied) && (want[policy.Unavailable] || want[policy.NotLoaded]):
		help = takeAway()
	case d == policy.Denied && want[policy.Run] && entry != "":
		help = fmt.Sprintf("remove %s: an unattended turn denies every gated call", entry)
	case d == policy.Denied && e.Unattended:
		help = "an unattended turn denies every gated call: leave out unattended = true, or want denied"
	case d == policy.NotLoaded && e.HasLoaded:
		help = fmt.Sprintf("%s is deferred, and the claim's session has not loaded it: add it to the claim's loaded list", ts)
	case d == policy.NotLoaded:
		help = fmt.Sprintf("%s is deferred: list it in resident of the agent's table too, to hold it from the start", ts)
	case d == policy.Unavailable && q.Toolset != kokua.Core:
		help = fmt.Sprintf("the agent does not hold %s: add it to %s", ts, c.side.AvailablePlace(node, q.Toolset).Key)
	default:
		help = "change the config lines above"
	}
	if len(path) > 1 {
		from, to := path[len(path)-2], path[len(path)-1]
		help += fmt.Sprintf("; or drop %s from delegates_to of %s, so that %s no longer reaches it", printable.Quote(to), printable.Quote(from), printable.Quote(path[0]))
	}
	return help + "; or change the claim, if it is what is wrong"
}

// composedHelp is help for a composed worker, which has no table: it
// holds every registered toolset but capabilities and entry-point-only
// ones, and always gets the default tier's pair. An entry of that pair
// must name a toolset some declared agent lists (entry-scope, R75), so
// for a toolset none lists, gating it there is refused: the ways out are
// to declare it on an agent and gate it in [assistant.tools], or to drop
// capabilities (docs/readings.md).
func (c *checker) composedHelp(q reach.Key, ans policy.Answer, want map[policy.Decision]bool) string {
	tool, ts := printable.Quote(q.String()), printable.Quote(q.Toolset)
	declared := q.Toolset == kokua.Core
	for _, a := range c.d.Agents {
		declared = declared || slices.Contains(a.Available.Expanded, q.Toolset)
	}
	const dropCapabilities = "drop capabilities from every agent Kokua builds, so that none composes workers"
	const orClaim = "; or change the claim, if it is what is wrong"
	asks := want[policy.Confirm] || want[policy.Review]
	switch {
	case ans.Decision == policy.Run && asks && declared:
		return fmt.Sprintf("composed workers get [assistant.tools]'s pair: add %s to its confirm or review; or %s%s", tool, dropCapabilities, orClaim)
	case ans.Decision == policy.Run && asks:
		return fmt.Sprintf("composed workers get [assistant.tools]'s pair, but Kokua refuses an entry there on %s while no declared agent lists it (entry-scope): declare %s on the agent that should hold it, then add %s to [assistant.tools]'s confirm or review; or %s%s", ts, ts, tool, dropCapabilities, orClaim)
	case ans.Decision != policy.Unavailable && want[policy.Unavailable]:
		return "a composed worker holds every registered toolset but capabilities and entry-point-only ones: " + dropCapabilities + orClaim
	}
	return "composed workers get [assistant.tools]'s pair: change it there" + orClaim
}
