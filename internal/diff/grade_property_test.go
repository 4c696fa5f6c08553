package diff_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
)

// toolKey is a tool of a toolset.
type toolKey struct{ toolset, tool string }

// randomClasses is gen.Manifest with classes drawn at random: on about
// two toolsets of three a set of one to three classes, and on about one
// tool in four its own set, sometimes empty (which clears the toolset's).
// It returns the manifest and each tool's classes, read from the JSON it
// wrote as docs/manifest.md says a reader of the manifest must: a tool's
// own classes when its entry writes the key, else its toolset's, else
// none (every generated toolset is of kind kokua).
func randomClasses(t *testing.T, r *rand.Rand, toolsets int) (*lint.Manifest, map[toolKey][]kokua.Class) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(gen.Manifest(toolsets), &m); err != nil {
		t.Fatal(err)
	}
	// draw is least to most distinct classes.
	draw := func(least, most int) []any {
		out := []any{}
		for _, i := range r.Perm(len(kokua.Classes()))[:least+r.IntN(most-least+1)] {
			out = append(out, string(kokua.Classes()[i]))
		}
		return out
	}
	for _, ts := range m["toolsets"].([]any) {
		tt := ts.(map[string]any)
		if r.IntN(3) > 0 {
			tt["classes"] = draw(1, 3)
		}
		for _, tool := range tt["tools"].([]any) {
			if r.IntN(4) == 0 {
				tool.(map[string]any)["classes"] = draw(0, 2)
			}
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	// Read back from the bytes written, apart from the code that wrote
	// them.
	var back struct {
		Toolsets []struct {
			Name    string   `json:"name"`
			Classes []string `json:"classes"`
			Tools   []struct {
				Name    string    `json:"name"`
				Classes *[]string `json:"classes"`
			} `json:"tools"`
		} `json:"toolsets"`
	}
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	classes := map[toolKey][]kokua.Class{}
	for _, ts := range back.Toolsets {
		for _, tool := range ts.Tools {
			names := ts.Classes
			if tool.Classes != nil {
				names = *tool.Classes
			}
			for _, c := range names {
				classes[toolKey{ts.Name, tool.Name}] = append(classes[toolKey{ts.Name, tool.Name}], kokua.Class(c))
			}
		}
	}
	man := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: data})
	if err := man.Err(); err != nil {
		t.Fatalf("the generated manifest: %v", err)
	}
	return man, classes
}

// classGrade is the grade docs/diff.md gives new power over a tool of
// these classes: high for exec, write, self-modify or egress, medium for
// anything else, no class included. Written here from the table, apart
// from reach.ToolGrade.
func classGrade(cs []kokua.Class) reach.Grade {
	for _, c := range cs {
		if c == kokua.Exec || c == kokua.Write || c == kokua.SelfModify || c == kokua.Egress {
			return reach.High
		}
	}
	return reach.Medium
}

// TestWidenedGradesFollowClasses is the property that a widened tool's
// grade follows its classes and its gate, so that grades are not pinned
// by goldens alone. Over generated manifests with classes drawn at random
// (randomClasses) and generated configs with random edits, for every
// change diff reports:
//
//   - a widened tool's old and new levels are the reference evaluator's
//     (internal/testing/reference, which reads the config and the manifest
//     itself), the new one above the old, a reviewer level only where the
//     reference sends a review call to the reviewer (auto-approval on, the
//     tool off the floor); and its grade is classGrade of the tool's
//     classes in the manifest;
//   - a widened delegation edge is graded by the most serious tool it
//     newly carries, medium at least;
//   - auto-approval turned on is high exactly when the reference finds an
//     agent whose review call of a tool of a high class now goes to the
//     reviewer, medium otherwise;
//   - a floor change that widens is high.
func TestWidenedGradesFollowClasses(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 2026))
	counts := map[string]int{}
	for _, size := range []struct{ agents, toolsets, manifests int }{{2, 3, 6}, {3, 5, 4}, {3, 9, 3}, {5, 12, 3}, {9, 40, 2}} {
		for range reps(size.manifests) {
			m, classes := randomClasses(t, r, size.toolsets)
			base, ok := load(t, "a.toml", gen.Config(size.agents, size.toolsets), m)
			if !ok {
				t.Fatalf("the generated config of %d agents does not lint clean against the classed manifest", size.agents)
			}
			toolsOf := map[string][]string{}
			var tsNames []string
			byName := map[string][]kokua.Class{}
			for _, ts := range base.ref.Registry {
				tsNames = append(tsNames, ts.Name)
				toolsOf[ts.Name] = ts.Tools
				for _, tool := range ts.Tools {
					if _, dup := byName[tool]; dup {
						t.Fatalf("tool %s is offered twice; the reference answers by name", tool)
					}
					byName[tool] = classes[toolKey{ts.Name, tool}]
				}
			}
			for range reps(25) {
				a := base
				if r.IntN(2) == 0 {
					if a, ok = edit(t, r, base, m, tsNames, toolsOf, "a.toml", 1+r.IntN(3), func() int { return r.IntN(13) }); !ok {
						continue
					}
				}
				b, ok := edit(t, r, a, m, tsNames, toolsOf, "b.toml", 1+r.IntN(3), func() int { return r.IntN(13) })
				if !ok {
					continue
				}
				for _, pair := range [][2]generated{{a, b}, {b, a}} {
					checkGrades(t, pair[0], pair[1], classes, byName, counts)
				}
			}
		}
	}
	// The edits must reach every kind of change at both grades, or the
	// property proves little.
	for _, k := range []string{"tool high", "tool medium", "edge high", "edge medium", "auto-approval high", "auto-approval medium", "floor"} {
		if !testing.Short() && !raced && counts[k] < 3 {
			t.Errorf("%d changes of kind %q checked, want at least 3 (all: %v)", counts[k], k, counts)
		}
	}
	if counts["tool high"]+counts["tool medium"] < reps(200) {
		t.Errorf("%d widened tools checked, want at least 200", counts["tool high"]+counts["tool medium"])
	}
	t.Logf("checked: %v", counts)
}

// checkGrades checks the grades of diff(a, b) against the classes and
// the reference evaluator's answers (see TestWidenedGradesFollowClasses).
func checkGrades(t *testing.T, a, b generated, classes map[toolKey][]kokua.Class, byName map[string][]kokua.Class, counts map[string]int) {
	t.Helper()
	rep := diff.Compare(a.side, b.side)
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\n--- A\n%s\n--- B\n%s\n--- report\n%s", fmt.Sprintf(format, args...), a.data, b.data, reportText(t, rep))
	}
	for _, ag := range rep.Agents {
		if ag.Agent == reach.ComposedNode {
			continue
		}
		for _, c := range ag.Widened {
			if strings.HasPrefix(c.Because, "resident now gives the name") {
				continue // a holder change; the names here are all unique
			}
			oldL, newL := level(a.ref, ag.Agent, c.Tool), level(b.ref, ag.Agent, c.Tool)
			if c.Old.Level != oldL || c.New.Level != newL || newL <= oldL {
				fail("%s %s widened %v -> %v; the reference answers %v -> %v", ag.Agent, c.Tool, c.Old.Level, c.New.Level, oldL, newL)
			}
			if newL == reach.Reviewer && !b.ref.ReviewerFirst(c.Tool) {
				fail("%s %s goes to a reviewer, which the reference does not allow", ag.Agent, c.Tool)
			}
			want := classGrade(classes[toolKey{c.New.Toolset, c.Tool}])
			if c.Grade != want {
				fail("%s %s (toolset %s, classes %v) is graded %v, want %v", ag.Agent, c.Tool, c.New.Toolset, classes[toolKey{c.New.Toolset, c.Tool}], c.Grade, want)
			}
			counts["tool "+want.String()]++
		}
	}
	for _, e := range rep.Delegation {
		if !e.Widened {
			continue
		}
		want := reach.Medium
		for _, x := range e.New {
			want = max(want, classGrade(classes[toolKey{x.Answer.Toolset, x.Tool}]))
		}
		if e.Grade != want {
			fail("the edge %s -> %s is graded %v, want %v", e.From, e.To, e.Grade, want)
		}
		counts["edge "+want.String()]++
	}
	if au := rep.AutoApproval; au != nil && au.Widened {
		want := reach.Medium
		for _, ag := range b.ref.Agents {
			for tool, cs := range byName {
				if classGrade(cs) == reach.High && level(b.ref, ag.Name, tool) == reach.Reviewer {
					want = reach.High
				}
			}
		}
		if au.Grade != want {
			fail("auto-approval turned on is graded %v, want %v", au.Grade, want)
		}
		counts["auto-approval "+want.String()]++
	}
	if f := rep.Floor; f != nil && f.Widened {
		if f.Grade != reach.High {
			fail("a floor change that widens is graded %v", f.Grade)
		}
		counts["floor"]++
	}
}

// TestReviewerLimitsProperty is the property behind a lowered limit's
// info grade, the one reviewer change that lets a pull request through:
// over generated configs with classes, with max_per_turn and
// timeout_seconds set at random on both sides (zero and below included,
// timeout_seconds sometimes fractional) and auto-approval sometimes off
// on both, sometimes switched, each limit change is read here from the two TOML trees: a
// side with auto-approval off while the other has it on counts its limit
// as zero (R145), and the change widens exactly when the new value is
// above the old (R187, R67). It is high when it widens and the reference
// evaluator finds some agent whose review call goes to the reviewer on
// the new side, info otherwise; and a pair that changes only limits, all
// of them lowered, fails no --fail-on and has no digest.
func TestReviewerLimitsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 35))
	limit := func(timeout bool) any {
		v := []int64{-1, 0, 1, 2, 5, 10, 60}[r.IntN(7)]
		if timeout && r.IntN(3) == 0 {
			return float64(v) + 0.5
		}
		return v
	}
	number := func(v any) float64 {
		if f, ok := v.(float64); ok {
			return f
		}
		return float64(v.(int64))
	}
	counts := map[string]int{}
	for _, size := range []struct{ agents, toolsets int }{{2, 3}, {3, 9}, {5, 12}} {
		m, _ := randomClasses(t, r, size.toolsets)
		data := gen.Config(size.agents, size.toolsets)
		for range reps(30) {
			var sides [2]generated
			var trees [2]config
			switched, off := r.IntN(4) == 0, r.IntN(4) == 0
			for i := range sides {
				var c config
				if err := toml.Unmarshal(data, &c); err != nil {
					t.Fatal(err)
				}
				auto := table(table(c["security"])["auto_approval"])
				auto["max_per_turn"], auto["timeout_seconds"] = limit(false), limit(true)
				if off {
					auto["enabled"] = false
				}
				if switched && i == 1 {
					on, _ := auto["enabled"].(bool)
					auto["enabled"] = !on
				}
				out, err := toml.Marshal(c)
				if err != nil {
					t.Fatal(err)
				}
				g, ok := load(t, fmt.Sprintf("%c.toml", 'a'+i), out, m)
				if !ok {
					t.Fatalf("a generated config with limits %v does not lint clean:\n%s", auto, out)
				}
				sides[i], trees[i] = g, c
			}
			on := [2]bool{}
			for i := range trees {
				on[i], _ = table(table(trees[i]["security"])["auto_approval"])["enabled"].(bool)
			}
			reviewable := false
			for _, ag := range sides[1].ref.Agents {
				for _, ts := range sides[1].ref.Registry {
					for _, tool := range ts.Tools {
						reviewable = reviewable || level(sides[1].ref, ag.Name, tool) == reach.Reviewer
					}
				}
			}
			rep := diff.Compare(sides[0].side, sides[1].side)
			allLowered := !switched
			for _, field := range []string{"max_per_turn", "timeout_seconds"} {
				var v [2]float64
				for i := range trees {
					v[i] = number(table(table(trees[i]["security"])["auto_approval"])[field])
					if on[i] != on[1-i] && !on[i] {
						v[i] = 0
					}
				}
				var c *diff.ReviewerChange
				for i := range rep.Reviewers {
					if rep.Reviewers[i].Field == field {
						c = &rep.Reviewers[i]
					}
				}
				written := [2]any{table(table(trees[0]["security"])["auto_approval"])[field], table(table(trees[1]["security"])["auto_approval"])[field]}
				if number(written[0]) == number(written[1]) {
					if c != nil {
						t.Fatalf("%s %v -> %v is reported as a change", field, written[0], written[1])
					}
					continue
				}
				dir, grade := diff.Narrows, reach.Info
				if v[1] > v[0] {
					dir = diff.Widens
					allLowered = false
					if reviewable {
						grade = reach.High
					}
				}
				if c == nil || c.Direction != dir || c.Grade != grade {
					t.Fatalf("%s %v -> %v (auto-approval %v -> %v, a reviewer may approve: %v): the change %+v, want %s graded %v:\n%s",
						field, written[0], written[1], on[0], on[1], reviewable, c, dir, grade, reportText(t, rep))
				}
				counts[dir+" "+grade.String()]++
				if !on[0] && !on[1] {
					counts["both off"]++
				}
			}
			if allLowered && len(rep.Reviewers) > 0 {
				if got := failsUnder(rep); len(got) > 0 || rep.Digest != "" {
					t.Fatalf("limits lowered alone fail %v, digest %q:\n%s", got, rep.Digest, reportText(t, rep))
				}
				counts["lowered alone"]++
			}
		}
	}
	for _, k := range []string{"widens high", "widens info", "narrows info", "lowered alone", "both off"} {
		if counts[k] < 3 {
			t.Errorf("%d limit changes of kind %q, want at least 3 (all: %v)", counts[k], k, counts)
		}
	}
	t.Logf("checked: %v", counts)
}
