package diff_test

import (
	"cmp"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// pathIdentity is a placed path as kokua-compile risks writes it in JSON,
// without what is not its identity: the places (another file, other
// lines), the grade and the levels of the path and its hops (compared
// apart). Written from the JSON, not from reach.Path.ID.
func pathIdentity(t *testing.T, agent string, p diff.PlacedPath) (string, string) {
	t.Helper()
	var v map[string]any
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	level := v["level"].(string)
	delete(v, "level")
	delete(v, "grade")
	for _, h := range v["hops"].([]any) {
		hop := h.(map[string]any)
		delete(hop, "at")
		answer := hop["answer"].(map[string]any)
		hop["answer"] = map[string]any{"toolset": answer["toolset"], "tool": answer["tool"]}
	}
	v["view"] = agent
	id, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(id), level
}

// levelRank orders the levels as risks writes them.
var levelRank = map[string]int{"unavailable": 0, "asks": 1, "reviewer": 2, "runs": 3}

// TestRiskSectionIsRisksDifference checks, on generated pairs of configs,
// that diff's risk section is exactly the paths kokua-compile risks lists
// on the new side and not on the old, or lists there at a less permissive
// level: computed here from the two risks reports alone, each side's
// views of reachable agents only (an agent startup does not build runs
// nothing; its view is listed and marked). They are listed most serious
// first, and paths of one grade in the order risks lists them.
func TestRiskSectionIsRisksDifference(t *testing.T) {
	const agents, toolsets = 7, 30
	m, base, tsNames, toolsOf := classedBase(t, agents, toolsets)
	r := rand.New(rand.NewPCG(35, 4))
	kind := func() int { return r.IntN(13) }
	pairs, nonEmpty, unreached := 0, 0, 0
	for pairs < reps(60) {
		a, ok := edit(t, r, base, m, tsNames, toolsOf, "a.toml", 1+r.IntN(3), kind)
		if !ok {
			continue
		}
		b, ok := edit(t, r, a, m, tsNames, toolsOf, "b.toml", 1+r.IntN(4), kind)
		if !ok {
			continue
		}
		pairs++
		old := map[string]int{}
		for _, ar := range diff.Risks(a.side).Agents {
			if !ar.Reachable {
				continue
			}
			for _, p := range ar.Paths {
				id, level := pathIdentity(t, ar.Agent, p)
				old[id] = max(old[id], levelRank[level])
			}
		}
		type listed struct {
			id    string
			grade reach.Grade
		}
		var want []listed
		for _, ar := range diff.Risks(b.side).Agents {
			if !ar.Reachable {
				unreached++
				continue
			}
			for _, p := range ar.Paths {
				id, level := pathIdentity(t, ar.Agent, p)
				if had, ok := old[id]; !ok || levelRank[level] > had {
					want = append(want, listed{id + level, p.Grade})
				}
			}
		}
		// Most serious first; within a grade, in the order risks lists
		// them.
		slices.SortStableFunc(want, func(x, y listed) int { return cmp.Compare(y.grade, x.grade) })
		var got []listed
		for _, c := range diff.Compare(a.side, b.side).Risks {
			id, level := pathIdentity(t, c.Agent, c.Path)
			got = append(got, listed{id + level, c.Grade})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("diff's risk section is not risks(B) minus risks(A), most serious first, else in risks' order:\n got %v\nwant %v\n--- A\n%s\n--- B\n%s", got, want, a.data, b.data)
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	if unreached == 0 && !testing.Short() && !raced {
		t.Error("no generated side has an agent startup does not build: the reachable views are not tested apart")
	}
	if nonEmpty < reps(15) {
		t.Errorf("only %d of %d pairs add a risk path: the edits should add plenty", nonEmpty, pairs)
	}
}
