package diff_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
)

// classed is gen.Manifest with capability classes on its toolsets, in a
// cycle of every class alone, none, and a few together (as web, fs_write
// and github_backup carry them), so that risk paths and grades have work.
func classed(t testing.TB, toolsets int) *lint.Manifest {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(gen.Manifest(toolsets), &m); err != nil {
		t.Fatal(err)
	}
	var cycle [][]kokua.Class
	for _, c := range kokua.Classes() {
		cycle = append(cycle, []kokua.Class{c})
	}
	cycle = append(cycle, nil, []kokua.Class{kokua.UntrustedInput, kokua.Egress}, []kokua.Class{kokua.Write, kokua.SelfModify},
		[]kokua.Class{kokua.UntrustedInput, kokua.Egress, kokua.Write}, []kokua.Class{kokua.PrivateData, kokua.Egress})
	for i, ts := range m["toolsets"].([]any) {
		if c := cycle[i%len(cycle)]; c != nil {
			ts.(map[string]any)["classes"] = c
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	man := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: data})
	return man
}

// orderEdit reorders a list whose order no answer depends on: an approval
// list (of the default pair or an agent's), the floor, or delegates_to.
// (The order of available decides which of two same-named tools a
// resident build keeps, so it is not one of them.)
func orderEdit(r *rand.Rand, c config) {
	var lists []struct {
		t   map[string]any
		key string
	}
	add := func(t map[string]any, key string) {
		if len(strs(t[key])) > 1 {
			lists = append(lists, struct {
				t   map[string]any
				key string
			}{t, key})
		}
	}
	add(table(table(c["assistant"])["tools"]), "confirm")
	add(table(table(c["assistant"])["tools"]), "review")
	add(table(c["security"]), "never_auto_approve")
	agents := table(c["agents"])
	for _, name := range reach.Sorted(agents) {
		a := table(agents[name])
		add(a, "delegates_to")
		add(table(a["tools"]), "confirm")
		add(table(a["tools"]), "review")
	}
	if len(lists) == 0 {
		return
	}
	l := pick(r, lists)
	xs := strs(l.t[l.key])
	r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	l.t[l.key] = anys(xs)
}

// commentEdit writes a comment line before a random line of a TOML text
// that starts a table or a key (never inside a value).
func commentEdit(r *rand.Rand, data []byte) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	var starts []int
	for i, l := range lines {
		if strings.HasPrefix(l, "[") || (len(l) > 0 && (l[0] >= 'a' && l[0] <= 'z')) {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return data
	}
	i := pick(r, starts)
	return []byte(strings.Join(lines[:i], "") + fmt.Sprintf("# note %d\n", r.IntN(1000)) + strings.Join(lines[i:], ""))
}

// TestNothingButInfo checks issue 25's first grading property: for every
// generated config (internal/testing/gen, with classes, at several sizes,
// and random edits of each), a change of residency, of order or of
// comments alone grades info at most, both ways, and fails no --fail-on.
// Residency's one real change (TestResidencyHolder: a name another
// toolset now holds) is counted as power and skipped here.
func TestNothingButInfo(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 2026))
	checked, graded := 0, 0
	for _, size := range []struct{ agents, toolsets int }{{2, 3}, {3, 9}, {5, 12}, {9, 40}, {14, 45}} {
		m := classed(t, size.toolsets)
		base, ok := load(t, "a.toml", gen.Config(size.agents, size.toolsets), m)
		if !ok {
			t.Fatalf("the generated config of %d agents does not lint clean", size.agents)
		}
		for range reps(15) {
			var c config
			if err := toml.Unmarshal(base.data, &c); err != nil {
				t.Fatal(err)
			}
			kind := r.IntN(3)
			for range 1 + r.IntN(3) {
				switch kind {
				case 0:
					residencyEdit(r, c)
				case 1:
					orderEdit(r, c)
				}
			}
			data, err := toml.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			if kind == 2 {
				data = commentEdit(r, base.data)
			}
			b, ok := load(t, "b.toml", data, m)
			if !ok {
				continue
			}
			checked++
			for _, pair := range [][2]generated{{base, b}, {b, base}} {
				rep := diff.Compare(pair[0].side, pair[1].side)
				if holderOnly(rep) {
					continue
				}
				if rep.Grade > reach.Info || rep.Fails("any") || rep.Fails("medium") {
					t.Fatalf("a change of residency, order or comments grades %v:\n--- A\n%s\n--- B\n%s\n--- report\n%s",
						rep.Grade, pair[0].data, pair[1].data, reportText(t, rep))
				}
				if rep.Grade == reach.Info {
					graded++
				}
			}
		}
	}
	if checked < reps(40) || graded < reps(40) {
		t.Errorf("%d edits checked, %d reports graded info; want at least 40 of each", checked, graded)
	}
}

// listOf finds, in a config tree, the list an approval key path names:
// [assistant.tools].confirm, [agents.<name>.tools].review.
func listOf(c config, key string) (map[string]any, string) {
	path, list, _ := strings.Cut(strings.TrimPrefix(key, "["), "].")
	parts := strings.Split(path, ".")
	t := map[string]any(c)
	for _, p := range parts {
		t = table(t[p])
	}
	return t, list
}

// TestRemovingAGateGradesAsAdding checks issue 25's second grading
// property: removing the gate on a tool never grades below adding the
// same tool ungated. For random gated (agent, tool) pairs of generated
// configs with classes, B is the config with the deciding entry removed,
// and C is B without the tool's toolset in the agent's available; the
// tool's change in diff(A, B) must grade at least its change in
// diff(C, B), and the reports' grades compare the same way.
func TestRemovingAGateGradesAsAdding(t *testing.T) {
	r := rand.New(rand.NewPCG(2025, 25))
	checked := 0
	for _, size := range []struct{ agents, toolsets int }{{3, 9}, {5, 12}, {9, 40}} {
		m := classed(t, size.toolsets)
		base, ok := load(t, "a.toml", gen.Config(size.agents, size.toolsets), m)
		if !ok {
			t.Fatal("the generated config does not lint clean")
		}
		type gated struct {
			agent string
			ans   reach.Answer
		}
		var pairs []gated
		for _, a := range base.side.Graph.Agents {
			if a.Composed {
				continue
			}
			for _, k := range reach.SortedKeys(a.Answers) {
				if ans := a.Answers[k]; ans.Entry != "" && ans.Toolset != kokua.Core && !ans.OnDemand {
					pairs = append(pairs, gated{a.Name, ans})
				}
			}
		}
		for range reps(25) {
			p := pick(r, pairs)
			var c config
			if err := toml.Unmarshal(base.data, &c); err != nil {
				t.Fatal(err)
			}
			l, key := listOf(c, p.ans.Key)
			l[key] = anys(slices.DeleteFunc(strs(l[key]), func(s string) bool { return s == p.ans.Entry }))
			dataB, err := toml.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			tools := table(table(table(c["agents"])[p.agent])["tools"])
			for _, k := range []string{"available", "resident"} {
				if _, ok := tools[k]; ok {
					tools[k] = anys(slices.DeleteFunc(strs(tools[k]), func(s string) bool { return s == p.ans.Toolset }))
				}
			}
			dataC, err := toml.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			b, okB := load(t, "b.toml", dataB, m)
			cc, okC := load(t, "c.toml", dataC, m)
			if !okB || !okC {
				continue
			}
			removed, added := diff.Compare(base.side, b.side), diff.Compare(cc.side, b.side)
			gr, ga := toolGradeIn(removed, p.agent, p.ans.Tool), toolGradeIn(added, p.agent, p.ans.Tool)
			if ga == reach.NoGrade {
				continue // the tool still runs gated in B: another entry holds it
			}
			checked++
			if gr < ga || removed.Grade < reach.Medium {
				var buf bytes.Buffer
				_ = diff.Write(&buf, "human", removed)
				t.Fatalf("removing the gate on %s for %s grades %v, adding it grades %v:\n%s\n---\n%s", p.ans.Tool, p.agent, gr, ga, buf.String(), reportText(t, added))
			}
		}
	}
	if checked < reps(20) {
		t.Errorf("only %d gates checked", checked)
	}
}

// toolGradeIn is the grade of one agent's widened tool in a report.
func toolGradeIn(r *diff.Report, agent, tool string) reach.Grade {
	for _, a := range r.Agents {
		if a.Agent != agent {
			continue
		}
		for _, c := range a.Widened {
			if c.Tool == tool {
				return c.Grade
			}
		}
	}
	return reach.NoGrade
}

// TestDigest: the digest of a report names what widened and nothing of
// where: the same change with the new file's lines shifted has the same
// digest, a change that widens further has another, and a change that
// widens nothing has none.
func TestDigest(t *testing.T) {
	m := lint.DefaultManifest()
	dir := "../../testdata/diff/pr-researcher-delegates-coder"
	read := func(name string) []byte {
		data, err := os.ReadFile(dir + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	load := func(name string, data []byte) *diff.Side {
		s, res, err := diff.Load(lint.Source{Name: name, Data: data}, m, nil)
		if err != nil || s == nil {
			t.Fatalf("%s: %v %v", name, err, res)
		}
		return s
	}
	old, nw := load("old.toml", read("old.toml")), read("new.toml")
	base := diff.Compare(old, load("new.toml", nw))
	shifted := diff.Compare(old, load("new.toml", append([]byte("# moved down\n\n"), nw...)))
	further := diff.Compare(old, load("new.toml", bytes.Replace(nw, []byte(`available = ["web", "misc", "time", "messaging"]`),
		[]byte(`available = ["web", "misc", "time", "messaging", "fs"]`), 1)))
	none := diff.Compare(old, old)
	if !strings.HasPrefix(base.Digest, "sha256:") || shifted.Digest != base.Digest {
		t.Errorf("digest %q, shifted %q: want one sha256 digest", base.Digest, shifted.Digest)
	}
	if further.Digest == base.Digest || further.Digest == "" {
		t.Errorf("a further widening has digest %q, the same as the change's", further.Digest)
	}
	if none.Digest != "" {
		t.Errorf("no change has digest %q", none.Digest)
	}
}

// TestReviewerInstructionsStayText: instructions holding a code fence and
// control characters stay inside a longer fence in markdown, escaped, and
// in human output no control character reaches the terminal.
func TestReviewerInstructionsStayText(t *testing.T) {
	m := lint.DefaultManifest()
	data, err := os.ReadFile("../../testdata/diff/pr-auto-approval-on/new.toml")
	if err != nil {
		t.Fatal(err)
	}
	hostile := bytes.Replace(data, []byte("Approve a call only when it does what the user asked and nothing more."),
		[]byte("```\\n</details>\\u001b[31mApprove all\\u202e"), 1)
	o, _, err := diff.Load(lint.Source{Name: "old.toml", Data: data}, m, nil)
	if err != nil || o == nil {
		t.Fatal(err)
	}
	n, res, err := diff.Load(lint.Source{Name: "new.toml", Data: hostile}, m, nil)
	if err != nil || n == nil {
		t.Fatal(err, res)
	}
	r := diff.Compare(o, n)
	if len(r.Reviewers) != 1 || r.Reviewers[0].Grade != reach.High {
		t.Fatalf("reviewer changes %+v", r.Reviewers)
	}
	for _, format := range []string{"human", "markdown", "github"} {
		var b bytes.Buffer
		if err := diff.Write(&b, format, r); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(b.String(), "\x1b\u202e") {
			t.Errorf("%s: a control character reached the output:\n%q", format, b.String())
		}
		if format == "markdown" && !strings.Contains(b.String(), "````diff\n") {
			t.Errorf("markdown: the diff's fence is not longer than the instructions' own:\n%s", b.String())
		}
	}
}
