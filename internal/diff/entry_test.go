package diff_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/lint"
)

// f4Old is the attack's pair of issue 35 (finding 4): the entry agent
// main, and rogue, which nothing delegates to, holding fs_write, compute
// and web with no gate. f4New makes rogue the entry agent, and nothing
// else changes.
const f4Old = `[assistant]
agent = "main"

[assistant.tools]
confirm = []
review = ["fs_write"]

[agents.main.tools]
available = ["time", "fs_write"]

[agents.rogue.tools]
available = ["fs_write", "compute", "web"]
confirm = []
review = []
`

// TestUnreachableAgentMadeEntry: an agent startup does not build never
// runs a tool, so the change that makes it the entry agent widens by all
// it can call: rogue's fs_write and compute tools high, the risk paths
// from web content to them critical, and every --fail-on fails. Before,
// its answers were compared as if it ran on both sides, and the report
// was "1 info; 0 widened", exit 0 at every --fail-on. The other way,
// rogue narrows, and main, now unreachable, is listed as narrowed too.
func TestUnreachableAgentMadeEntry(t *testing.T) {
	f4New := strings.Replace(f4Old, `agent = "main"`, `agent = "rogue"`, 1)
	o, n := loadDefault(t, "old.toml", []byte(f4Old)), loadDefault(t, "new.toml", []byte(f4New))
	r := diff.Compare(o, n)
	if got := failsUnder(r); !slices.Equal(got, diff.FailOn) {
		t.Errorf("fails under %v, want every --fail-on %v:\n%s", got, diff.FailOn, reportText(t, r))
	}
	grades := map[string]reach.Grade{}
	for _, a := range r.Agents {
		for _, c := range a.Widened {
			grades[a.Agent+" "+c.Toolset+"."+c.Tool] = c.Grade
			if !strings.HasPrefix(c.Because, "the agent is now reachable: it is the entry agent") || c.At.Key != "[assistant].agent" {
				t.Errorf("%s %s.%s: because %q at %s, want the entry agent's line", a.Agent, c.Toolset, c.Tool, c.Because, c.At)
			}
		}
	}
	for _, tool := range []string{"fs_write.write_file", "fs_write.edit_file", "compute.run_command", "compute.execute_python"} {
		if g := grades["rogue "+tool]; g != reach.High {
			t.Errorf("rogue %s widened at %v, want high:\n%s", tool, g, reportText(t, r))
		}
	}
	critical := 0
	for _, c := range r.Risks {
		if c.Agent == "rogue" && c.Grade == reach.Critical && c.Old == reach.Unavailable {
			critical++
		}
	}
	if critical < 2 {
		t.Errorf("%d new critical risk paths in rogue's view, want the two from web to fs_write and compute:\n%s", critical, reportText(t, r))
	}

	back := diff.Compare(n, o)
	narrowed := map[string]int{}
	for _, a := range back.Agents {
		narrowed[a.Agent] += len(a.Narrowed)
	}
	if narrowed["rogue"] == 0 {
		t.Errorf("rogue made unreachable again narrows nothing:\n%s", reportText(t, back))
	}
	if len(back.Risks) != 0 {
		t.Errorf("rogue made unreachable raises risk paths:\n%s", reportText(t, back))
	}
	// Only main's own tools widen back (it runs again); none of rogue's.
	for _, a := range back.Agents {
		if a.Agent == "rogue" && len(a.Widened) > 0 {
			t.Errorf("rogue made unreachable widens:\n%s", reportText(t, back))
		}
	}
}

// entryConfig is a config of three agents over s0 to s3 (pairManifest):
// assistant, coder and rogue, each with a random available list and
// maybe its own pair, delegating only down that order (never a cycle),
// each edge at random, and the entry agent named by entry.
func entryConfig(r *rand.Rand, entry string) []byte {
	toolsets := []string{"s0", "s1", "s2", "s3"}
	agents := []string{"assistant", "coder", "rogue"}
	quote := func(xs []string) string {
		q := make([]string, len(xs))
		for i, x := range xs {
			q[i] = fmt.Sprintf("%q", x)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	some := func(xs []string, least int) []string {
		var out []string
		for _, i := range r.Perm(len(xs))[:least+r.IntN(len(xs)+1-least)] {
			out = append(out, xs[i])
		}
		return out
	}
	gates := some(toolsets, 0)
	split := r.IntN(len(gates) + 1)
	var b strings.Builder
	fmt.Fprintf(&b, "[assistant]\nagent = %q\n\n[assistant.tools]\nconfirm = %s\nreview = %s\n\n", entry, quote(gates[:split]), quote(gates[split:]))
	for i, agent := range agents {
		fmt.Fprintf(&b, "[agents.%s]\ndescription = \"x\"\n", agent)
		var to []string
		for _, w := range agents[i+1:] {
			if r.IntN(3) == 0 {
				to = append(to, w)
			}
		}
		if len(to) > 0 {
			fmt.Fprintf(&b, "delegates_to = %s\n", quote(to))
		}
		available := some(toolsets, 1)
		fmt.Fprintf(&b, "\n[agents.%s.tools]\navailable = %s\n", agent, quote(available))
		if r.IntN(3) == 0 {
			own := some(available, 0)
			cut := r.IntN(len(own) + 1)
			fmt.Fprintf(&b, "confirm = %s\nreview = %s\n", quote(own[:cut]), quote(own[cut:]))
		}
		b.WriteString("\n")
	}
	if r.IntN(2) == 0 {
		b.WriteString("[security.auto_approval]\nenabled = true\n")
	}
	return []byte(b.String())
}

// TestEntryAgentSwitchProperty: over generated pairs of configs where only
// the entry agent changes, whenever a session of the new entry agent
// answers some call with less asking than the same agent could get on the
// old side (nothing, when startup did not build it there), the report
// lists that call as widened and fails --fail-on any. Sessions and
// "startup builds" are read from the policies (policy.Session, the
// delegates_to lists), not from diff or reach.
func TestEntryAgentSwitchProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 6))
	agents := []string{"assistant", "coder", "rogue"}
	pairs, widening := 0, 0
	for i := 0; pairs < reps(200) && i < 4000; i++ {
		data, toolsOf := pairManifest(r)
		m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: data})
		from, to := agents[r.IntN(3)], agents[r.IntN(3)]
		if from == to {
			continue
		}
		seed := r.Uint64()
		a, okA := load(t, "a.toml", entryConfig(rand.New(rand.NewPCG(seed, 1)), from), m)
		b, okB := load(t, "b.toml", entryConfig(rand.New(rand.NewPCG(seed, 1)), to), m)
		if !okA || !okB {
			continue
		}
		pairs++
		rep := diff.Compare(a.side, b.side)
		reported := map[string]bool{}
		for _, c := range rep.Agents {
			for _, w := range c.Widened {
				reported[c.Agent+" "+w.Toolset+" "+w.Tool] = true
			}
		}
		found := false
		for ts, tools := range toolsOf {
			for _, tool := range tools {
				old, cur := sessionLevel(a.side.Policy, to, ts, tool), sessionLevel(b.side.Policy, to, ts, tool)
				if cur <= old {
					continue
				}
				found = true
				if k := to + " " + ts + " " + tool; !reported[k] {
					t.Fatalf("the new entry agent's session answers %s %v -> %v; diff does not list it:\n--- a\n%s\n--- b\n%s\n%s",
						k, old, cur, a.data, b.data, reportText(t, rep))
				}
			}
		}
		if found {
			widening++
			if !rep.Fails("any") {
				t.Fatalf("the new entry agent gets calls with less asking, and --fail-on any passes:\n--- a\n%s\n--- b\n%s\n%s", a.data, b.data, reportText(t, rep))
			}
		}
	}
	if pairs < reps(200) || widening < reps(60) {
		t.Fatalf("%d pairs, %d where the new entry agent widens: the generator makes too few to be a test", pairs, widening)
	}
	t.Logf("%d pairs whose entry agent changes, %d widening", pairs, widening)
}

// TestReachabilityChanges states the other ways an agent comes to run, or
// stops, and what each reports: a delegates_to item that reaches rogue
// widens by its tools, placed at that item; the agent that stops being
// the entry agent narrows, placed at the entry agent's line; and an edge
// gained between two agents nothing reaches carries nothing anyone can
// cause, so it widens nothing and fails no --fail-on, until a change
// reaches them, which then widens by both agents' tools.
func TestReachabilityChanges(t *testing.T) {
	helper := "\n[agents.helper.tools]\navailable = [\"compute\"]\nconfirm = []\nreview = []\n"
	base := f4Old + helper
	delegating := strings.Replace(base, "[agents.main.tools]", "[agents.main]\ndelegates_to = [\"rogue\"]\n\n[agents.main.tools]", 1)
	rogueEdge := strings.Replace(base, "[agents.rogue.tools]", "[agents.rogue]\ndelegates_to = [\"helper\"]\n\n[agents.rogue.tools]", 1)
	rogueEntry := strings.Replace(rogueEdge, `agent = "main"`, `agent = "rogue"`, 1)
	sides := map[string]*diff.Side{}
	for name, data := range map[string]string{"base": base, "delegating": delegating, "rogueEdge": rogueEdge, "rogueEntry": rogueEntry} {
		sides[name] = loadDefault(t, name+".toml", []byte(data))
	}
	because := func(r *diff.Report, agent string, widened bool) map[string]string {
		out := map[string]string{}
		for _, a := range r.Agents {
			list := a.Narrowed
			if widened {
				list = a.Widened
			}
			if a.Agent == agent {
				for _, c := range list {
					out[c.Toolset+"."+c.Tool] = c.Because + " @ " + c.At.Key
				}
			}
		}
		return out
	}

	r := diff.Compare(sides["base"], sides["delegating"])
	got := because(r, "rogue", true)
	if want := `the agent is now reachable: "main" delegates to it @ [agents.main].delegates_to`; got["compute.run_command"] != want || got["fs_write.write_file"] != want {
		t.Errorf("a delegates_to item that reaches rogue: %v, want %q on its tools:\n%s", got, want, reportText(t, r))
	}
	if fails := failsUnder(r); !slices.Equal(fails, diff.FailOn) {
		t.Errorf("a delegates_to item that reaches rogue fails under %v, want all", fails)
	}

	r = diff.Compare(sides["base"], sides["rogueEntry"])
	got = because(r, "main", false)
	if want := "the agent is no longer reachable; on the old side, it is the entry agent @ [assistant].agent"; got["time.convert_time"] != want {
		t.Errorf("main, no longer the entry agent: %v, want %q:\n%s", got, want, reportText(t, r))
	}
	got = because(r, "helper", true)
	if want := `the agent is now reachable: "rogue" delegates to it @ [agents.rogue].delegates_to`; got["compute.run_command"] != want {
		t.Errorf("helper, reached from the new entry agent: %v, want %q:\n%s", got, want, reportText(t, r))
	}

	r = diff.Compare(sides["base"], sides["rogueEdge"])
	if len(r.Delegation) != 1 || r.Delegation[0].Widened || len(r.Delegation[0].New) != 0 || r.Widened || len(failsUnder(r)) != 0 {
		t.Errorf("an edge between two agents nothing reaches: widened %v, edges %+v, fails under %v; want a gained edge that widens nothing:\n%s",
			r.Widened, r.Delegation, failsUnder(r), reportText(t, r))
	}
}
