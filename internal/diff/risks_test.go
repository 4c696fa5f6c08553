package diff_test

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
)

// jsonRisksCase is the one case of testdata/risks whose JSON report is a
// golden, want.json, the one docs/json-output.md shows.
const jsonRisksCase = "web-to-shell"

// TestRisksGolden compares kokua-compile risks of every case of
// testdata/risks (config.toml) with want.txt and want.md, and checks its
// JSON report (checkJSONReport; want.json for jsonRisksCase alone); go
// test ./internal/diff -update rewrites them.
func TestRisksGolden(t *testing.T) {
	// Each case's count of risk paths of each grade, stated here so that
	// -update cannot accept a change of them.
	grades := map[string]diff.GradeCount{
		"long-chain":                 {Critical: 2},
		"researcher-delegates-coder": {Critical: 8, High: 13},
		"shipped":                    {Critical: 7, High: 11},
		"web-to-shell":               {Critical: 2, High: 1},
	}
	m := lint.DefaultManifest()
	for _, dir := range golden.Cases(t, "risks") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r := diff.Risks(side(t, filepath.Join(dir, "config.toml"), m))
			want, ok := grades[filepath.Base(dir)]
			if !ok {
				t.Fatalf("state the case's count of risk paths of each grade in grades")
			}
			if r.Grades != want {
				t.Errorf("risk paths by grade %+v, want %+v", r.Grades, want)
			}
			for format, file := range map[string]string{"human": "want.txt", "markdown": "want.md", "json": "want.json"} {
				var b bytes.Buffer
				if err := diff.WriteRisks(&b, format, r); err != nil {
					t.Fatal(err)
				}
				if format == "json" {
					checkJSONReport(t, b.Bytes(), r)
					if filepath.Base(dir) != jsonRisksCase {
						golden.CheckOptional(t, filepath.Join(dir, file), nil)
						continue
					}
				}
				golden.Check(t, filepath.Join(dir, file), b.Bytes())
			}
		})
	}
}

// TestWebToShell: a researcher that delegates to the coder has, in its own
// view, the path from web content to run_command: it reads the web, sets
// the coder running, and the coder runs the command (issue 25). The
// shipped researcher has none.
func TestWebToShell(t *testing.T) {
	m := lint.DefaultManifest()
	find := func(file string) *reach.Path {
		s := side(t, filepath.Join("..", "..", "testdata", "risks", file, "config.toml"), m)
		for _, a := range s.Graph.Risks() {
			if a.Agent != "researcher" {
				continue
			}
			for _, p := range a.Paths {
				if p.Class == kokua.Exec && slices.Contains(p.Tools, "run_command") {
					return &p
				}
			}
		}
		return nil
	}
	if p := find("shipped"); p != nil {
		t.Errorf("the shipped researcher has a path to run_command: %+v", p)
	}
	p := find("researcher-delegates-coder")
	if p == nil {
		t.Fatal("no path from the researcher's web content to run_command")
	}
	var kinds []string
	for _, h := range p.Hops {
		kinds = append(kinds, h.Kind+" "+h.Agent+" "+h.To+" "+h.Answer.Toolset)
	}
	want := []string{"reads researcher  web", "delegates researcher coder core", "calls coder  compute"}
	if !slices.Equal(kinds, want) {
		t.Errorf("hops %q, want %q", kinds, want)
	}
	if p.Level != reach.Asks || p.Grade != reach.High {
		t.Errorf("level %v grade %v; want asks (run_command is in review, auto-approval off) and high", p.Level, p.Grade)
	}
}

// checkPaths holds every path of a side to what a path is: it starts by
// reading untrusted content, each hop moves from the agent the previous
// one reached, it ends by calling a tool of its class, and its level is
// the least of its hops'.
func checkPaths(t *testing.T, s *diff.Side) int {
	t.Helper()
	n := 0
	for _, a := range s.Graph.Risks() {
		view := s.Graph.Closure(a.Agent)
		// The first reach.MaxRuns agents of the view, the agent first, and
		// a count of them all.
		ok := a.RunsCount == len(view) && len(a.Runs) == min(len(view), reach.MaxRuns) && a.Runs[0] == a.Agent
		for _, r := range a.Runs {
			ok = ok && slices.Contains(view, r)
		}
		if !ok {
			t.Fatalf("%s: runs %v of %d, but the view is %v", a.Agent, a.Runs, a.RunsCount, view)
		}
		for _, p := range a.Paths {
			n++
			desc := strings.Join(pathDesc(p), " | ")
			if p.HopCount < len(p.Hops) || len(p.Hops) > reach.MaxHops || p.Omitted() > 0 && len(p.Hops) != reach.MaxHops {
				t.Fatalf("%s: %d hops kept of %d: %s", a.Agent, len(p.Hops), p.HopCount, desc)
			}
			first, last := p.Hops[0], p.Hops[len(p.Hops)-1]
			if first.Kind != reach.HopReads || !slices.Contains(s.Graph.ToolClasses(first.Answer.Toolset, first.Answer.Tool), kokua.UntrustedInput) {
				t.Fatalf("%s: does not start by reading untrusted content: %s", a.Agent, desc)
			}
			if last.Kind != reach.HopCalls || !slices.Contains(s.Graph.ToolClasses(last.Answer.Toolset, last.Answer.Tool), p.Class) {
				t.Fatalf("%s: does not end by calling a %s tool: %s", a.Agent, p.Class, desc)
			}
			lowest, at := reach.Runs, first.Agent
			for i, h := range p.Hops {
				lowest = min(lowest, h.Answer.Level)
				// Across the hops left out, the path moves on unseen.
				if i > 0 && h.Agent != at && !(p.Omitted() > 0 && i == reach.HeadHops) {
					t.Fatalf("%s: hop %d acts as %s, but the path is at %s: %s", a.Agent, i, h.Agent, at, desc)
				}
				if h.To != "" {
					at = h.To
				}
				if !slices.Contains(view, h.Agent) {
					t.Fatalf("%s: hop %d's agent %s is not in the view %v", a.Agent, i, h.Agent, view)
				}
			}
			if lowest != p.Level && !(p.Omitted() > 0 && lowest > p.Level) {
				t.Fatalf("%s: level %v, but the least hop is %v: %s", a.Agent, p.Level, lowest, desc)
			}
		}
	}
	return n
}

func pathDesc(p reach.Path) []string {
	var out []string
	for _, h := range p.Hops {
		out = append(out, h.Kind+" "+h.Agent+">"+h.To+" "+h.Answer.Tool+" "+h.Answer.Level.String())
	}
	return out
}

// TestRiskPathsHold checks every path of every golden case (the six pull
// requests among them) and of generated configs with classes against
// checkPaths.
func TestRiskPathsHold(t *testing.T) {
	m := lint.DefaultManifest()
	n := 0
	for _, area := range []string{"risks", "diff"} {
		for _, dir := range golden.Cases(t, area) {
			for _, f := range []string{"config.toml", "old.toml", "new.toml"} {
				if s := maybeSide(t, filepath.Join(dir, f), m); s != nil {
					n += checkPaths(t, s)
				}
			}
		}
	}
	for _, size := range []struct{ agents, toolsets int }{{3, 9}, {9, 40}, {30, 90}} {
		m := classed(t, size.toolsets)
		if g, ok := load(t, "gen.toml", gen.Config(size.agents, size.toolsets), m); ok {
			n += checkPaths(t, g.side)
		}
	}
	if n < 200 {
		t.Errorf("only %d paths checked", n)
	}
}

// BenchmarkRisks times the risk paths of a generated config of 1000
// agents, for docs/benchmarks.md's scale.
func BenchmarkRisks(b *testing.B) {
	m := classed(b, 90)
	s, _, err := diff.Load(lint.Source{Name: "gen.toml", Data: gen.Config(1000, 90)}, m, nil)
	if err != nil || s == nil {
		b.Fatal("the generated config does not lint clean", err)
	}
	for b.Loop() {
		diff.Risks(s)
	}
}

// bruteRisks finds, for one agent's view, the best level at which
// untrusted content reaches each dangerous (toolset, classes), by walking
// every simple path of the view: a brute force sharing nothing with
// reach's widest-path search but the graph's answers, which are the
// policy's own decisions (reach.New asks policy.Decide and Session).
func bruteRisks(g *reach.Graph, root string) map[string]reach.Level {
	view := g.Closure(root)
	in := map[string]bool{}
	for _, n := range view {
		in[n] = true
	}
	out := map[string]reach.Level{}
	var walk func(at string, level reach.Level, seen map[string]bool)
	walk = func(at string, level reach.Level, seen map[string]bool) {
		a := g.Agent(at)
		for _, ans := range a.Answers {
			cs := g.ToolClasses(ans.Toolset, ans.Tool)
			l := min(level, ans.Level)
			dangerous := false
			for _, c := range cs {
				dangerous = dangerous || c == kokua.Exec || c == kokua.Write || c == kokua.SelfModify || c == kokua.Persist || c == kokua.Egress
			}
			if !dangerous || l == reach.Unavailable || (slices.Contains(cs, kokua.UntrustedInput) && onlyEgress(cs)) {
				continue
			}
			p := reach.Path{Agent: root, Toolset: ans.Toolset, Classes: cs}
			out[p.Key()] = max(out[p.Key()], l)
		}
		for _, e := range g.Edges {
			next, gate := "", reach.Runs
			switch {
			case e.From == at && in[e.To]:
				tool := reach.Key{Toolset: kokua.Core, Tool: kokua.SpawnSubagent}
				if e.Via == "compose_subagent" {
					tool = reach.Key{Toolset: "capabilities", Tool: "compose_subagent"}
				}
				next, gate = e.To, a.Answers[tool].Level
			case e.To == at && in[e.From]:
				next = e.From
			}
			if next == "" || seen[next] || min(level, gate) == reach.Unavailable {
				continue
			}
			seen[next] = true
			walk(next, min(level, gate), seen)
			delete(seen, next)
		}
	}
	for _, n := range view {
		best := reach.Unavailable
		for _, ans := range g.Agent(n).Answers {
			if slices.Contains(g.ToolClasses(ans.Toolset, ans.Tool), kokua.UntrustedInput) {
				best = max(best, ans.Level)
			}
		}
		if best > reach.Unavailable {
			walk(n, best, map[string]bool{n: true})
		}
	}
	return out
}

// onlyEgress reports whether egress is the only dangerous class: a tool
// that reads untrusted content and only that is the lethal combination's
// way out, not a path of its own (docs/risks.md). Written here again, not
// taken from reach, so that the brute force shares no code with it.
func onlyEgress(cs []kokua.Class) bool {
	n := 0
	for _, c := range cs {
		if c == kokua.Exec || c == kokua.Write || c == kokua.SelfModify || c == kokua.Persist {
			n++
		}
	}
	return n == 0
}

// TestRisksBruteForce compares, on generated configs with classes and
// random edits of them (more delegation edges), the best level of every
// risk path reach finds with a walk over every simple path of each view.
func TestRisksBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 25))
	checked := 0
	for _, size := range []struct{ agents, toolsets int }{{3, 9}, {5, 12}, {7, 16}} {
		m := classed(t, size.toolsets)
		base, ok := load(t, "a.toml", gen.Config(size.agents, size.toolsets), m)
		if !ok {
			t.Fatal("the generated config does not lint clean")
		}
		toolsOf := map[string][]string{}
		var tsNames []string
		for _, ts := range base.ref.Registry {
			tsNames = append(tsNames, ts.Name)
			toolsOf[ts.Name] = ts.Tools
		}
		for range 8 {
			g := base
			if e, ok := edit(t, r, base, m, tsNames, toolsOf, "b.toml", 1+r.IntN(4), func() int { return r.IntN(13) }); ok {
				g = e
			}
			for _, a := range g.side.Graph.Risks() {
				found := map[string]reach.Level{}
				for _, p := range a.Paths {
					if !p.Lethal {
						found[p.Key()] = max(found[p.Key()], p.Level)
					}
				}
				want := bruteRisks(g.side.Graph, a.Agent)
				for k, l := range want {
					if found[k] != l {
						t.Fatalf("%s: %q: reach finds %v, the brute force %v\n%s", a.Agent, k, found[k], l, g.data)
					}
					checked++
				}
				if len(found) != len(want) {
					t.Fatalf("%s: reach finds %d paths, the brute force %d", a.Agent, len(found), len(want))
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d paths compared", checked)
	}
}
