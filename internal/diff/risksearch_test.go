package diff_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
)

// The risk search of issue 37 (reach.Graph.Risks) shares what every
// view's search needs, keeps routes as pointers and a path's first and
// last hops, and finds the view of an agent that only passes work on
// without a search. Its answers must be those of the search it replaced,
// which copied each route whole: referenceRisks is that search, written
// again here on the graph's exported parts, one view at a time.

// refTaint is how content reaches one agent in the reference search.
type refTaint struct {
	level reach.Level
	hops  []reach.Hop
}

// refPath is a path of the reference search, whole.
type refPath struct {
	reach.Path
	hops []reach.Hop
}

// referenceRisks is, for each agent, its view (every agent it sets
// running, in the order met) and its paths with all their hops.
func referenceRisks(g *reach.Graph) map[string]struct {
	runs  []string
	paths []refPath
} {
	adj := map[string][]reach.Edge{}
	for _, e := range g.Edges {
		adj[e.From] = append(adj[e.From], e)
		if e.To != e.From {
			adj[e.To] = append(adj[e.To], e)
		}
	}
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
	rank := map[string]map[string]int{}
	n := 0
	for _, ts := range g.Doc.TrustOrder {
		rank[ts] = map[string]int{}
		for _, t := range g.Doc.Toolsets[ts].Tools {
			n++
			rank[ts][t.Name] = n
		}
	}
	ordered := func(a *reach.Agent) []reach.Key {
		tools := reach.SortedKeys(a.Answers)
		sort.SliceStable(tools, func(i, j int) bool {
			return rank[tools[i].Toolset][tools[i].Tool] < rank[tools[j].Toolset][tools[j].Tool]
		})
		return tools
	}
	out := map[string]struct {
		runs  []string
		paths []refPath
	}{}
	for _, root := range g.Agents {
		runs := []string{root.Name}
		in := map[string]bool{root.Name: true}
		for i := 0; i < len(runs); i++ {
			for _, e := range adj[runs[i]] {
				if e.From == runs[i] && !in[e.To] && g.Agent(e.To) != nil {
					in[e.To] = true
					runs = append(runs, e.To)
				}
			}
		}
		view := slices.Clone(runs)
		sort.Slice(view, func(i, j int) bool {
			if (view[i] == reach.ComposedNode) != (view[j] == reach.ComposedNode) {
				return view[j] == reach.ComposedNode
			}
			return view[i] < view[j]
		})
		steps := func(u string) []reach.Hop {
			var hs []reach.Hop
			a := g.Agent(u)
			for _, e := range adj[u] {
				switch {
				case e.From == u && in[e.To]:
					tool := reach.Key{Toolset: kokua.Core, Tool: kokua.SpawnSubagent}
					if e.Via == kokua.ComposeSubagent {
						tool = reach.Key{Toolset: kokua.Capabilities, Tool: kokua.ComposeSubagent}
					}
					ans, ok := a.Answers[tool]
					if !ok {
						ans = reach.Answer{Tool: tool.Tool, Toolset: tool.Toolset, Level: reach.Unavailable}
					}
					hs = append(hs, reach.Hop{Kind: reach.HopDelegates, Agent: u, To: e.To, Via: e.Via, Answer: ans})
				case e.To == u && in[e.From]:
					hs = append(hs, reach.Hop{Kind: reach.HopReturns, Agent: u, To: e.From, Answer: reach.Answer{Level: reach.Runs}})
				}
			}
			return hs
		}
		widest := func(best map[string]refTaint) {
			for level := reach.Runs; level > reach.Unavailable; level-- {
				var queue []string
				for _, v := range view {
					if best[v].level == level {
						queue = append(queue, v)
					}
				}
				for i := 0; i < len(queue); i++ {
					u := queue[i]
					if best[u].level != level {
						continue
					}
					for _, st := range steps(u) {
						l := min(level, st.Answer.Level)
						if l > best[st.To].level {
							best[st.To] = refTaint{level: l, hops: append(slices.Clone(best[u].hops), st)}
							if l == level {
								queue = append(queue, st.To)
							}
						}
					}
				}
			}
		}
		best := map[string]refTaint{}
		for _, v := range view {
			a := g.Agent(v)
			for _, k := range ordered(a) {
				ans := a.Answers[k]
				if ans.Level > best[v].level && slices.Contains(g.ToolClasses(ans.Toolset, ans.Tool), kokua.UntrustedInput) {
					best[v] = refTaint{level: ans.Level, hops: []reach.Hop{{Kind: reach.HopReads, Agent: v, Answer: ans}}}
				}
			}
		}
		widest(best)
		var paths []refPath
		byKey := map[string]int{}
		var priv *refPath
		for _, v := range view {
			t := best[v]
			if t.level == reach.Unavailable {
				continue
			}
			a := g.Agent(v)
			for _, k := range ordered(a) {
				ans := a.Answers[k]
				cs := g.ToolClasses(ans.Toolset, ans.Tool)
				l := min(t.level, ans.Level)
				if l == reach.Unavailable || len(cs) == 0 {
					continue
				}
				call := append(slices.Clone(t.hops), reach.Hop{Kind: reach.HopCalls, Agent: v, Answer: ans})
				if worst := refWorst(cs); worst != "" && !(slices.Contains(cs, kokua.UntrustedInput) && onlyEgress(cs)) {
					p := reach.Path{Agent: root.Name, Class: worst, Toolset: ans.Toolset, Tools: []string{k.Tool}, Classes: cs, Level: l}
					key := p.Key() + "\x00" + l.String()
					if i, ok := byKey[key]; !ok {
						byKey[key] = len(paths)
						paths = append(paths, refPath{p, call})
					} else if !slices.Contains(paths[i].Tools, k.Tool) {
						paths[i].Tools = append(paths[i].Tools, k.Tool)
					}
				}
				if slices.Contains(cs, kokua.PrivateData) && (priv == nil || l > priv.Level) {
					priv = &refPath{reach.Path{Toolset: ans.Toolset, Tools: []string{k.Tool}, Level: l}, call}
				}
			}
		}
		if priv != nil {
			from := map[string]refTaint{priv.hops[len(priv.hops)-1].Agent: {level: priv.Level, hops: priv.hops}}
			widest(from)
			var lethal *refPath
			for _, v := range view {
				t := from[v]
				if t.level == reach.Unavailable {
					continue
				}
				a := g.Agent(v)
				for _, k := range ordered(a) {
					ans := a.Answers[k]
					cs := g.ToolClasses(ans.Toolset, ans.Tool)
					if l := min(t.level, ans.Level); slices.Contains(cs, kokua.Egress) && l > reach.Unavailable && (lethal == nil || l > lethal.Level) {
						lethal = &refPath{reach.Path{Agent: root.Name, Class: kokua.Egress, Lethal: true, Toolset: ans.Toolset, Tools: []string{k.Tool},
							Classes: cs, Level: l}, append(slices.Clone(t.hops), reach.Hop{Kind: reach.HopCalls, Agent: v, Answer: ans})}
					}
				}
			}
			if lethal != nil {
				paths = append(paths, *lethal)
			}
		}
		out[root.Name] = struct {
			runs  []string
			paths []refPath
		}{runs, paths}
	}
	return out
}

// refWorst is the most dangerous of a tool's classes, "" for none.
func refWorst(cs []kokua.Class) kokua.Class {
	for _, c := range []kokua.Class{kokua.SelfModify, kokua.Exec, kokua.Egress, kokua.Write, kokua.Persist} {
		if slices.Contains(cs, c) {
			return c
		}
	}
	return ""
}

// pathText writes a path and its hops for comparing: each field, each
// hop's identity and gate.
func pathText(p reach.Path, hops []reach.Hop) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s lethal=%v %s %s %v %v %v:", p.Agent, p.Lethal, p.Class, p.Toolset, p.Tools, p.Classes, p.Level)
	for _, h := range hops {
		fmt.Fprintf(&b, " [%s %s>%s %s %s.%s %v]", h.Kind, h.Agent, h.To, h.Via, h.Answer.Toolset, h.Answer.Tool, h.Answer.Level)
	}
	return b.String()
}

// kept is what a path of hops keeps: all of them up to reach.MaxHops,
// else the first reach.HeadHops and the last ones.
func kept(hops []reach.Hop) []reach.Hop {
	if len(hops) <= reach.MaxHops {
		return hops
	}
	return append(slices.Clone(hops[:reach.HeadHops]), hops[len(hops)-(reach.MaxHops-reach.HeadHops):]...)
}

// checkAgainstReference holds a side's risks to the reference search:
// the same agents, the first reach.MaxRuns of each view in its order and
// their count, and the same paths (as a set), each with its hops kept as
// reach.MaxHops says and their count; two paths have one identity
// (Path.ID) exactly when their whole routes are the same; and each
// agent's reach (Graph.Reach) is what walking its closure finds.
func checkAgainstReference(t *testing.T, name string, g *reach.Graph) int {
	t.Helper()
	ref := referenceRisks(g)
	got := g.Risks()
	if len(got) != len(ref) {
		t.Fatalf("%s: %d views, the reference %d", name, len(got), len(ref))
	}
	ids := map[string]string{}
	n := 0
	for _, a := range got {
		want := ref[a.Agent]
		if a.RunsCount != len(want.runs) || !slices.Equal(a.Runs, want.runs[:min(len(want.runs), reach.MaxRuns)]) {
			t.Fatalf("%s: %s sets running %v of %d, the reference %v", name, a.Agent, a.Runs, a.RunsCount, want.runs)
		}
		var gotPaths, wantPaths []string
		for _, p := range a.Paths {
			if p.HopCount < len(p.Hops) {
				t.Fatalf("%s: %s: %d hops kept of %d", name, a.Agent, len(p.Hops), p.HopCount)
			}
			gotPaths = append(gotPaths, fmt.Sprintf("%s (%d hops)", pathText(p, p.Hops), p.HopCount))
		}
		for _, p := range want.paths {
			wantPaths = append(wantPaths, fmt.Sprintf("%s (%d hops)", pathText(p.Path, kept(p.hops)), len(p.hops)))
		}
		slices.Sort(gotPaths)
		slices.Sort(wantPaths)
		if !slices.Equal(gotPaths, wantPaths) {
			t.Fatalf("%s: %s's paths\n%s\nthe reference's\n%s", name, a.Agent, strings.Join(gotPaths, "\n"), strings.Join(wantPaths, "\n"))
		}
		// Identity: the path's own fields and its whole route.
		for _, p := range a.Paths {
			var whole string
			for _, w := range want.paths {
				if w.Lethal == p.Lethal && w.Toolset == p.Toolset && w.Level == p.Level && w.Class == p.Class && slices.Equal(w.Classes, p.Classes) {
					whole = pathText(p, w.hops)
				}
			}
			if other, ok := ids[p.ID()]; ok && other != whole {
				t.Fatalf("%s: one identity for two routes:\n%s\n%s", name, other, whole)
			}
			ids[p.ID()] = whole
			n++
		}
	}
	// Reach, found from the next agent's along a chain, is what walking
	// each agent's closure finds.
	for _, a := range g.Agents {
		want := map[reach.Key]reach.Reached{}
		for _, v := range g.Closure(a.Name) {
			for tool, ans := range g.Agent(v).Answers {
				if have, ok := want[tool]; !ok || ans.Level > have.Level {
					want[tool] = reach.Reached{Answer: ans, By: v}
				}
			}
		}
		if got := g.Reach(a.Name); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: the reach of %s is\n%v\nwalking its closure finds\n%v", name, a.Name, got, want)
		}
	}
	// Two routes, one identity, is checked above; one route, two
	// identities, here.
	seen := map[string]string{}
	for id, whole := range ids {
		if other, ok := seen[whole]; ok && other != id {
			t.Fatalf("%s: two identities for one route %s", name, whole)
		}
		seen[whole] = id
	}
	return n
}

// randomDAG is a config of n agents that delegate only to agents after
// them, each holding a random few of the default install's toolsets and
// gating some of their tools and its delegations in its own pair: paths
// of every length and level, returns and delegations, the lethal
// combination, agents that pass work on (one delegate, and only "time",
// or the web too: a way out for the lethal combination), and diamonds.
func randomDAG(rng *rand.Rand, n int) []byte {
	toolsets := []string{"web", "compute", "fs", "fs_write", "time", "memory", "messaging", "documents", "config", "github_backup", "scheduling"}
	gates := map[string]string{"web": "web.web_search", "compute": "compute.run_command", "fs": "fs.read_file", "fs_write": "fs_write",
		"config": "config.update_config", "github_backup": "github_backup"}
	var b strings.Builder
	auto := rng.IntN(2) == 0
	b.WriteString("[assistant]\nagent = \"a0\"\n\n[assistant.tools]\nconfirm = []\nreview = []\n")
	if auto {
		b.WriteString("\n[security]\nnever_auto_approve = []\n\n[security.auto_approval]\nenabled = true\nreviewers = [\"r\"]\n\n[reviewers.r]\nmodel = \"anthropic:claude-haiku-4-5\"\nsystem_message = \"Approve only what serves the request.\"\n")
	}
	for i := range n {
		var to []string
		passes := rng.IntN(4) == 0 && i+1 < n
		if passes {
			to = append(to, fmt.Sprintf("%q", fmt.Sprintf("a%d", i+1+rng.IntN(n-i-1))))
		} else {
			for j := i + 1; j < n; j++ {
				if rng.IntN(n-i) < 2 {
					to = append(to, fmt.Sprintf("%q", fmt.Sprintf("a%d", j)))
				}
			}
		}
		var av, confirm, review []string
		if passes {
			// An agent that passes work on may read the web, a way out for
			// the lethal combination, gated or not.
			av = []string{`"time"`}
			if rng.IntN(2) == 0 {
				av = append(av, `"web"`)
				switch rng.IntN(3) {
				case 0:
					confirm = append(confirm, `"web.web_search"`)
				case 1:
					review = append(review, `"web"`)
				}
			}
		} else {
			for _, ts := range toolsets {
				if rng.IntN(4) != 0 {
					continue
				}
				av = append(av, fmt.Sprintf("%q", ts))
				if e, ok := gates[ts]; ok {
					switch rng.IntN(3) {
					case 0:
						confirm = append(confirm, fmt.Sprintf("%q", e))
					case 1:
						review = append(review, fmt.Sprintf("%q", e))
					}
				}
			}
			if rng.IntN(6) == 0 {
				av = append(av, `"capabilities"`)
			}
		}
		if i == 0 && auto {
			av = append(av, `"compute"`)
			review = append(review, `"compute.execute_python"`)
		}
		fmt.Fprintf(&b, "\n[agents.a%d]\ndelegates_to = [%s]\n\n[agents.a%d.tools]\navailable = [%s]\nresident = []\nconfirm = [%s]\nreview = [%s]\n",
			i, strings.Join(to, ", "), i, strings.Join(av, ", "), strings.Join(confirm, ", "), strings.Join(review, ", "))
	}
	return []byte(b.String())
}

// TestRiskSearchAgreesWithReference (property): on the golden cases, on
// generated configs with classes, on random delegation graphs of the
// default install (chains, diamonds, agents that pass work on, the lethal
// combination) and on long chains, every agent's view and paths are the
// reference search's, and identities tell routes apart.
func TestRiskSearchAgreesWithReference(t *testing.T) {
	m := lint.DefaultManifest()
	n := 0
	for _, size := range []struct{ agents, toolsets int }{{3, 9}, {9, 40}, {30, 90}} {
		if g, ok := load(t, "gen.toml", gen.Config(size.agents, size.toolsets), classed(t, size.toolsets)); ok {
			n += checkAgainstReference(t, fmt.Sprint(size), g.side.Graph)
		}
	}
	rng := rand.New(rand.NewPCG(37, 9))
	compiled := 0
	for i := range 150 {
		data := randomDAG(rng, 2+rng.IntN(14))
		s, _, err := diff.Load(lint.Source{Name: "dag.toml", Data: data}, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s == nil {
			continue
		}
		compiled++
		n += checkAgainstReference(t, fmt.Sprintf("random graph %d:\n%s", i, data), s.Graph)
	}
	for _, shape := range []string{"chain-web-top", "chain-web-everywhere", "diamond"} {
		s, _, err := diff.Load(lint.Source{Name: shape + ".toml", Data: riskShape(shape, 40)}, m, nil)
		if err != nil || s == nil {
			t.Fatalf("%s: %v", shape, err)
		}
		n += checkAgainstReference(t, shape, s.Graph)
	}
	if compiled < 100 || n < 500 {
		t.Errorf("only %d random graphs compiled, %d paths checked", compiled, n)
	}
}

// riskShape is a shape of issue 37 of about n agents.
func riskShape(name string, n int) []byte {
	switch name {
	case "chain-web-top":
		return gen.RiskChain(n, false)
	case "chain-web-everywhere":
		return gen.RiskChain(n, true)
	}
	return gen.RiskDiamond(n / 2)
}

// TestLongPathIdentity: a path longer than reach.MaxHops keeps its first
// and last hops only, but its identity is its whole route: renaming an
// agent in the middle of a chain of 40 leaves the kept hops of the
// entry's path as they were, and kokua-compile diff still reports the
// path as new (by its way), where the same config on both sides reports
// nothing.
func TestLongPathIdentity(t *testing.T) {
	m := lint.DefaultManifest()
	a := gen.RiskChain(40, false)
	b := []byte(strings.ReplaceAll(string(a), `"c20"`, `"c20x"`))
	b = []byte(strings.ReplaceAll(string(b), `[agents.c20`, `[agents.c20x`))
	load := func(name string, data []byte) *diff.Side {
		s, _, err := diff.Load(lint.Source{Name: name, Data: data}, m, nil)
		if err != nil || s == nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	sa, sb := load("a.toml", a), load("b.toml", b)
	find := func(s *diff.Side) reach.Path {
		for _, r := range s.Graph.Risks() {
			if r.Agent == "c0" && len(r.Paths) == 1 {
				return r.Paths[0]
			}
		}
		t.Fatal("no path of c0")
		return reach.Path{}
	}
	pa, pb := find(sa), find(sb)
	if pa.HopCount != 41 || pa.Omitted() == 0 || pathText(pa, pa.Hops) != pathText(pb, pb.Hops) {
		t.Fatalf("the paths keep %d of %d hops; kept alike: %v", len(pa.Hops), pa.HopCount, pathText(pa, pa.Hops) == pathText(pb, pb.Hops))
	}
	if pa.ID() == pb.ID() {
		t.Error("two routes that differ in their middle have one identity")
	}
	if again := find(load("a.toml", a)); again.ID() != pa.ID() {
		t.Error("one route has two identities")
	}
	var raised []string
	for _, c := range diff.Compare(sa, sb).Risks {
		raised = append(raised, c.Agent)
	}
	if !slices.Contains(raised, "c0") {
		t.Errorf("diff reports the risk paths of %v, want c0's, new by its way", raised)
	}
	if same := diff.Compare(sa, load("a.toml", a)).Risks; len(same) != 0 {
		t.Errorf("diff of a config with itself reports %d risk paths", len(same))
	}
}

// TestRiskOutputGrowsLinearly (issue 37): for each shape of issue 37,
// ten times the agents write at most twelve times the bytes of
// kokua-compile risks, in every format, and of kokua-compile diff
// against the same shape reading nothing: each view names the first
// reach.MaxRuns agents it sets running and counts the rest, and each path
// keeps reach.MaxHops hops and counts the rest. Before, a chain of 1,000
// named every agent downstream of each and every hop of each path.
func TestRiskOutputGrowsLinearly(t *testing.T) {
	m := lint.DefaultManifest()
	for _, shape := range []string{"chain-web-top", "chain-web-everywhere", "diamond"} {
		sizes := map[string][2]int{}
		for i, n := range []int{30, 300} {
			data := riskShape(shape, n)
			s, _, err := diff.Load(lint.Source{Name: "new.toml", Data: data}, m, nil)
			if err != nil || s == nil {
				t.Fatalf("%s: %v", shape, err)
			}
			old, _, err := diff.Load(lint.Source{Name: "old.toml", Data: []byte(strings.ReplaceAll(string(data), `"web"`, `"time"`))}, m, nil)
			if err != nil || old == nil {
				t.Fatalf("%s: %v", shape, err)
			}
			r := diff.Risks(s)
			for _, a := range r.Agents {
				if len(a.Runs) > reach.MaxRuns || a.RunsCount < len(a.Runs) {
					t.Fatalf("%s: %s names %d of %d agents it sets running", shape, a.Agent, len(a.Runs), a.RunsCount)
				}
				for _, p := range a.Paths {
					if len(p.Hops) > reach.MaxHops || p.HopCount < len(p.Hops) {
						t.Fatalf("%s: %s keeps %d of %d hops", shape, a.Agent, len(p.Hops), p.HopCount)
					}
				}
			}
			for _, format := range diff.RiskFormats.Names() {
				var b strings.Builder
				if err := diff.WriteRisks(&b, format, r); err != nil {
					t.Fatal(err)
				}
				sz := sizes["risks "+format]
				sz[i] = b.Len()
				sizes["risks "+format] = sz
			}
			rep := diff.Compare(old, s)
			for _, format := range []string{"human", "markdown", "json"} {
				var b strings.Builder
				if err := diff.Write(&b, format, rep); err != nil {
					t.Fatal(err)
				}
				sz := sizes["diff "+format]
				sz[i] = b.Len()
				sizes["diff "+format] = sz
			}
		}
		for what, sz := range sizes {
			if sz[1] > 12*sz[0] {
				t.Errorf("%s, %s: 10 times the agents write %.1f times the bytes (%d, %d)", shape, what, float64(sz[1])/float64(sz[0]), sz[0], sz[1])
			}
		}
	}
}
