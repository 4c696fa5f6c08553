package diff_test

import (
	"math/rand/v2"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/lint"
)

// TestHeadlineCountsTheListedChanges: on generated pairs of configs, the
// headline's widened and narrowed counts are the changes the report
// lists, each counted once: every widened and narrowed tool, every
// gained edge that carries something new and every lost edge,
// auto-approval turned on with a tool a reviewer may now answer (widened)
// or turned off (narrowed), and the floor, read on both sides, widened
// or grown. Widened is true exactly when something is counted widened or
// composed workers appear holding some tool.
func TestHeadlineCountsTheListedChanges(t *testing.T) {
	const agents, toolsets = 6, 20
	m, base, tsNames, toolsOf := classedBase(t, agents, toolsets)
	r := rand.New(rand.NewPCG(35, 6))
	kind := func() int { return r.IntN(13) }
	pairs, counted := 0, 0
	for pairs < reps(80) {
		a, ok := edit(t, r, base, m, tsNames, toolsOf, "a.toml", 1+r.IntN(3), kind)
		if !ok {
			continue
		}
		b, ok := edit(t, r, a, m, tsNames, toolsOf, "b.toml", 1+r.IntN(3), kind)
		if !ok {
			continue
		}
		pairs++
		for _, sides := range [][2]generated{{a, b}, {b, a}} {
			rep := diff.Compare(sides[0].side, sides[1].side)
			widened, narrowed := 0, 0
			for _, c := range rep.Agents {
				widened += len(c.Widened)
				narrowed += len(c.Narrowed)
			}
			for _, e := range rep.Delegation {
				switch {
				case e.Change == "gained" && len(e.New) > 0:
					widened++
				case e.Change == "lost":
					narrowed++
				}
				if e.Widened != (e.Change == "gained" && len(e.New) > 0) {
					t.Fatalf("edge %s -> %s (%s) widened=%v carrying %d new tools", e.From, e.To, e.Change, e.Widened, len(e.New))
				}
			}
			if c := rep.AutoApproval; c != nil {
				if c.Widened != (c.New && len(c.Unprotected) > 0) {
					t.Fatalf("auto-approval %v -> %v widened=%v with %d tools unprotected", c.Old, c.New, c.Widened, len(c.Unprotected))
				}
				switch {
				case c.Widened:
					widened++
				case !c.New:
					narrowed++
				}
			}
			if f := rep.Floor; f != nil && f.OldActive && f.NewActive {
				if f.Widened != (len(f.Unprotected) > 0) {
					t.Fatalf("the floor widened=%v with %d tools unprotected", f.Widened, len(f.Unprotected))
				}
				switch {
				case f.Widened:
					widened++
				case len(f.Added) > 0:
					narrowed++
				}
			}
			composed := false
			for _, c := range rep.Agents {
				if n := sides[1].side.Graph.Agent(reach.ComposedNode); c.Agent == reach.ComposedNode && c.Change == "added" && n != nil && len(n.Answers) > 0 {
					composed = true
				}
			}
			if rep.WidenedCount != widened || rep.NarrowedCount != narrowed || rep.Widened != (widened > 0 || composed) {
				t.Fatalf("the headline counts %d widened, %d narrowed (widened=%v); the report lists %d and %d (composed workers added: %v)\n%s",
					rep.WidenedCount, rep.NarrowedCount, rep.Widened, widened, narrowed, composed, reportText(t, rep))
			}
			counted += widened + narrowed
		}
	}
	if counted < reps(100) {
		t.Errorf("only %d changes counted over %d pairs", counted, pairs)
	}
}

// TestReportOrderAndGrades: on generated pairs, each agent's widened
// tools come most serious grade first, then by toolset and tool; each
// gained edge's new tools come dangerous classes first (reach.ToolGrade),
// then by toolset and tool; the report's grade counts are the grades of
// the changes it lists, and its grade the most serious of them.
func TestReportOrderAndGrades(t *testing.T) {
	const agents, toolsets = 6, 20
	m, base, tsNames, toolsOf := classedBase(t, agents, toolsets)
	r := rand.New(rand.NewPCG(35, 7))
	kind := func() int { return r.IntN(13) }
	ordered := 0
	for pairs := 0; pairs < reps(80); {
		a, ok := edit(t, r, base, m, tsNames, toolsOf, "a.toml", 1+r.IntN(3), kind)
		if !ok {
			continue
		}
		b, ok := edit(t, r, a, m, tsNames, toolsOf, "b.toml", 1+r.IntN(4), kind)
		if !ok {
			continue
		}
		pairs++
		rep := diff.Compare(a.side, b.side)
		var grades []reach.Grade
		if rep.EntryAgent != nil {
			grades = append(grades, rep.EntryAgent.Grade)
		}
		for _, c := range rep.Agents {
			for i, w := range c.Widened {
				grades = append(grades, w.Grade)
				if i == 0 {
					continue
				}
				p := c.Widened[i-1]
				if p.Grade < w.Grade || (p.Grade == w.Grade && (p.New.Toolset > w.New.Toolset || (p.New.Toolset == w.New.Toolset && p.Tool > w.Tool))) {
					t.Fatalf("agent %s lists %s.%s (%v) before %s.%s (%v)", c.Agent, p.New.Toolset, p.Tool, p.Grade, w.New.Toolset, w.Tool, w.Grade)
				}
				ordered++
			}
		}
		for _, e := range rep.Delegation {
			grades = append(grades, e.Grade)
			for i := 1; i < len(e.New); i++ {
				p, x := e.New[i-1], e.New[i]
				gp := reach.ToolGrade(b.side.Graph.ToolClasses(p.Answer.Toolset, p.Tool))
				gx := reach.ToolGrade(b.side.Graph.ToolClasses(x.Answer.Toolset, x.Tool))
				if gp < gx || (gp == gx && (p.Answer.Toolset > x.Answer.Toolset || (p.Answer.Toolset == x.Answer.Toolset && p.Tool > x.Tool))) {
					t.Fatalf("edge %s -> %s lists %s.%s before %s.%s", e.From, e.To, p.Answer.Toolset, p.Tool, x.Answer.Toolset, x.Tool)
				}
				ordered++
			}
		}
		if c := rep.AutoApproval; c != nil {
			grades = append(grades, c.Grade)
		}
		if f := rep.Floor; f != nil {
			grades = append(grades, f.Grade)
		}
		for _, c := range rep.Residency {
			grades = append(grades, c.Grade)
		}
		for i, c := range rep.Risks {
			grades = append(grades, c.Grade)
			if i > 0 && rep.Risks[i-1].Grade < c.Grade {
				t.Fatalf("risk paths: a %v path is listed before a %v one", rep.Risks[i-1].Grade, c.Grade)
			}
		}
		for _, c := range rep.Reviewers {
			grades = append(grades, c.Grade)
		}
		for range rep.Info {
			grades = append(grades, reach.Info)
		}
		want := diff.GradeCount{}
		most := reach.NoGrade
		for _, g := range grades {
			switch g {
			case reach.Critical:
				want.Critical++
			case reach.High:
				want.High++
			case reach.Medium:
				want.Medium++
			case reach.Info:
				want.Info++
			}
			most = max(most, g)
		}
		if rep.Grades != want || rep.Grade != most {
			t.Fatalf("the report counts %+v, most %v; its changes grade %+v, most %v\n%s", rep.Grades, rep.Grade, want, most, reportText(t, rep))
		}
	}
	if ordered < reps(100) {
		t.Errorf("only %d neighbouring tools checked for order", ordered)
	}
}

// classedBase is a generated config over classed(toolsets), loaded, with
// the names of its toolsets and their tools, for the edits of edit.
func classedBase(t *testing.T, agents, toolsets int) (*lint.Manifest, generated, []string, map[string][]string) {
	t.Helper()
	m := classed(t, toolsets)
	base, ok := load(t, "a.toml", gen.Config(agents, toolsets), m)
	if !ok {
		t.Fatal("the generated config does not lint clean")
	}
	toolsOf := map[string][]string{}
	var tsNames []string
	for _, ts := range base.ref.Registry {
		tsNames = append(tsNames, ts.Name)
		toolsOf[ts.Name] = ts.Tools
	}
	return m, base, tsNames, toolsOf
}
