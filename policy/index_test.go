package policy_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// indexCases are the policies the index tests run on: every golden policy
// and a generated one with many agents, each holding or deferring 8 to 15
// of its 200 toolsets.
func indexCases(t *testing.T) map[string][]byte {
	t.Helper()
	cases := map[string][]byte{"generated 131x200": generated(t, scale{"index", 131, 200})}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "compile", "*", "want.json"))
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cases[filepath.Base(filepath.Dir(path))] = data
	}
	if len(cases) == 1 {
		t.Fatal("no golden policies")
	}
	return cases
}

// labels are every agent of a policy, the default tier's label and a
// composed worker's.
func labels(d *policy.Document) []string {
	return append(slices.Sorted(maps.Keys(d.Agents)), d.DefaultTier.Label, kokua.ComposedPrefix+"x")
}

// askable are the questions Decide can be asked of any label: every tool
// of every toolset, bare and qualified, every core tool, and names no
// toolset offers.
func askable(d *policy.Document) []string {
	qs := []string{"no_such_tool", "no_such.tool", kokua.Core + ".no_such_tool"}
	for _, name := range d.TrustOrder {
		for _, t := range d.Toolsets[name].Tools {
			qs = append(qs, t.Name, name+"."+t.Name)
		}
	}
	for _, t := range d.CoreTools {
		qs = append(qs, t, kokua.Core+"."+t)
	}
	return qs
}

// TestPrecomputedAnswersAgree holds Decide, which answers from what Parse
// precomputed, to the path a session takes, for every label, every tool
// of the registry by both its names, and both kinds of turn: indexing
// only the toolsets an agent holds or defers, each question once, loses
// no answer.
func TestPrecomputedAnswersAgree(t *testing.T) {
	for name, data := range indexCases(t) {
		t.Run(name, func(t *testing.T) {
			p, err := policy.Parse(name, data)
			if err != nil {
				t.Fatal(err)
			}
			qs := askable(p.Document())
			for _, label := range labels(p.Document()) {
				for _, q := range qs {
					for _, turn := range []policy.Turn{{}, {Unattended: true}} {
						want, ok := p.SlowDecide(label, q, turn)
						if !ok {
							continue
						}
						if got := p.Decide(label, q, turn); got != want {
							t.Fatalf("%s asks for %q (%+v): Decide says %+v, the session's path %+v", label, q, turn, got, want)
						}
					}
				}
			}
		})
	}
}

// TestIndexVisitsOwnToolsets holds the index of each agent to the
// toolsets the agent holds or defers, taken from its own lists and not
// found by a scan of the trust order: issue 13 measured 9 s to load a
// 61.5 MB policy, and a scan of every toolset for every agent (its agents
// times its toolsets, a hundredfold for every tenfold) was among the
// causes. The list an agent's index visits is the same with the trust
// order emptied after loading; a scan would find nothing.
func TestIndexVisitsOwnToolsets(t *testing.T) {
	p, err := policy.Parse("generated", generated(t, scale{"index", 131, 200}))
	if err != nil {
		t.Fatal(err)
	}
	d := p.Document()
	visited := map[string][]string{}
	for name, a := range d.Agents {
		own := slices.Concat(a.Resident, a.Skills, a.Deferred)
		if len(own) == 0 || len(own) >= len(d.TrustOrder)/2 {
			t.Fatalf("agent %s holds %d of %d toolsets: the policy cannot tell the two apart", name, len(own), len(d.TrustOrder))
		}
		visited[name] = p.Qualifying(name)
		if len(visited[name]) != len(own) {
			t.Errorf("agent %s: the index visits %d toolsets, not the %d it holds or defers", name, len(visited[name]), len(own))
		}
		for _, ts := range visited[name] {
			if !slices.Contains(own, ts) {
				t.Errorf("agent %s: the index visits toolset %s, which it neither holds nor defers", name, ts)
			}
		}
	}
	d.TrustOrder = nil
	for name, want := range visited {
		if got := p.Qualifying(name); !slices.Equal(got, want) {
			t.Errorf("agent %s: with the trust order emptied the index visits %v, not %v: it scans the trust order", name, got, want)
		}
	}
}
