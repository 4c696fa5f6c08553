package diff_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// pairNames are the tool names the pair test draws from: names holding a
// dot (one whose part before the dot is a toolset's name), a space and
// non-ASCII letters, and plain names, so that toolsets share names.
var pairNames = []string{"search", "echo", "repo.delete", "contents.write", "s1.search", "read file", "lire_été", "検索"}

// pairClasses are the classes a generated tool may carry.
var pairClasses = [][]string{nil, {"exec"}, {"write"}, {"egress"}, {"private-data"}, {"untrusted-input"}}

// pairManifest is an install of four toolsets s0 to s3, each offering one
// to three names of pairNames, with random classes.
func pairManifest(r *rand.Rand) ([]byte, map[string][]string) {
	type tool struct {
		Name    string   `json:"name"`
		Classes []string `json:"classes,omitempty"`
	}
	type toolset struct {
		Name        string `json:"name"`
		Kind        string `json:"kind"`
		Description string `json:"description"`
		Tools       []tool `json:"tools"`
	}
	core := []tool{{Name: "spawn_subagent"}, {Name: "activate_skill"}, {Name: "available_tools"}, {Name: "load_tools"}}
	m := struct {
		Version   int       `json:"manifest_version"`
		Source    string    `json:"source"`
		Toolsets  []toolset `json:"toolsets"`
		CoreTools []tool    `json:"core_tools"`
	}{Version: 1, Source: "pairs_test", CoreTools: core}
	toolsOf := map[string][]string{}
	for i := range 4 {
		ts := toolset{Name: fmt.Sprintf("s%d", i), Kind: "kokua", Description: "generated"}
		for _, n := range r.Perm(len(pairNames))[:1+r.IntN(3)] {
			ts.Tools = append(ts.Tools, tool{Name: pairNames[n], Classes: pairClasses[r.IntN(len(pairClasses))]})
			toolsOf[ts.Name] = append(toolsOf[ts.Name], pairNames[n])
		}
		m.Toolsets = append(m.Toolsets, ts)
	}
	data, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return data, toolsOf
}

// pairConfig is a config of two agents over s0 to s3: the assistant,
// which may delegate to the coder, each with a random available and
// resident list, and a default pair of random whole-toolset entries and
// entries on the plain names. The entry agent is the assistant, or one
// time in four the coder (the assistant then never runs).
func pairConfig(r *rand.Rand, toolsOf map[string][]string) []byte {
	toolsets := []string{"s0", "s1", "s2", "s3"}
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
	var entries []string
	for _, ts := range toolsets {
		entries = append(entries, ts)
		for _, t := range toolsOf[ts] {
			if !strings.ContainsAny(t, ". ") && t == strings.ToValidUTF8(t, "") && t[0] < 0x80 {
				entries = append(entries, ts+"."+t)
			}
		}
	}
	gates := some(entries, 0)
	split := r.IntN(len(gates) + 1)
	var b strings.Builder
	entry := "assistant"
	if r.IntN(4) == 0 {
		entry = "coder"
	}
	fmt.Fprintf(&b, "[assistant]\nagent = %q\n\n[assistant.tools]\nconfirm = %s\nreview = %s\n\n", entry, quote(gates[:split]), quote(gates[split:]))
	for _, agent := range []string{"assistant", "coder"} {
		fmt.Fprintf(&b, "[agents.%s]\ndescription = \"x\"\n", agent)
		if agent == "assistant" && r.IntN(2) == 0 {
			b.WriteString("delegates_to = [\"coder\"]\n")
		}
		available := some(toolsets, 1)
		fmt.Fprintf(&b, "\n[agents.%s.tools]\navailable = %s\n", agent, quote(available))
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "resident = %s\n", quote(some(available, 0)))
		}
		b.WriteString("\n")
	}
	if r.IntN(2) == 0 {
		b.WriteString("[security.auto_approval]\nenabled = true\n")
	}
	return []byte(b.String())
}

// sessionLevel is how permissive a call of the toolset's tool is, read the
// way kokua-run session reads it: a session of the agent that loaded the
// toolset if the agent defers it, asked by the bare name the model calls.
// The call reaches that toolset's tool only when the answer says the tool
// comes from it; otherwise another toolset holds the name. An agent
// startup does not build never calls anything (startupBuilds).
func sessionLevel(p *policy.Policy, agent, toolset, tool string) reach.Level {
	if !startupBuilds(p.Document(), agent) {
		return reach.Unavailable
	}
	s, err := p.NewSession(agent)
	if err != nil {
		return reach.Unavailable
	}
	s.Load(toolset)
	ans := s.Decide(tool, policy.Turn{})
	if ans.Toolset != toolset {
		return reach.Unavailable
	}
	switch ans.Decision {
	case policy.Run:
		return reach.Runs
	case policy.Confirm:
		return reach.Asks
	case policy.Review:
		if ans.Reason.Reviewer {
			return reach.Reviewer
		}
		return reach.Asks
	}
	return reach.Unavailable
}

// startupBuilds reports whether startup builds the agent: the entry agent
// and every agent its delegates_to reach, transitively ("startup builds
// only the entry agent and every worker reachable from it by
// delegates_to", tool-access.md), walked here over the policy's
// delegates_to lists, not read from its reachable field.
func startupBuilds(d *policy.Document, agent string) bool {
	built := []string{d.EntryAgent}
	for i := 0; i < len(built); i++ {
		if a := d.Agents[built[i]]; a != nil {
			for _, to := range a.DelegatesTo {
				if !slices.Contains(built, to) {
					built = append(built, to)
				}
			}
		}
	}
	return slices.Contains(built, agent)
}

// TestEveryPairWidening checks, over generated installs whose tool names
// hold dots, spaces and non-ASCII letters and are shared between
// toolsets, that diff reports a widened tool change for exactly the
// (agent, toolset, tool) whose call a session answers more permissively
// on the new side, named by its toolset and its own name.
func TestEveryPairWidening(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 1))
	compared, widened := 0, 0
	for i := 0; compared < reps(150) && i < 3000; i++ {
		data, toolsOf := pairManifest(r)
		m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: data})
		a, okA := load(t, "a.toml", pairConfig(r, toolsOf), m)
		b, okB := load(t, "b.toml", pairConfig(r, toolsOf), m)
		if !okA || !okB {
			continue
		}
		compared++
		rep := diff.Compare(a.side, b.side)
		reported := map[string]bool{}
		for _, c := range rep.Agents {
			for _, w := range c.Widened {
				reported[c.Agent+"\x00"+w.Toolset+"\x00"+w.Tool] = true
			}
		}
		found := map[string]bool{}
		for _, agent := range []string{"assistant", "coder"} {
			for ts, tools := range toolsOf {
				for _, tool := range tools {
					o, n := sessionLevel(a.side.Policy, agent, ts, tool), sessionLevel(b.side.Policy, agent, ts, tool)
					if n > o {
						found[agent+"\x00"+ts+"\x00"+tool] = true
					}
				}
			}
		}
		for k := range found {
			if !reported[k] {
				t.Fatalf("a session answers %q more permissively, diff does not report it:\n--- a\n%s\n--- b\n%s\n--- manifest\n%s\n%s",
					strings.ReplaceAll(k, "\x00", " "), a.data, b.data, data, reportText(t, rep))
			}
		}
		for k := range reported {
			if ts := strings.Split(k, "\x00")[1]; ts != "core" && !found[k] {
				t.Fatalf("diff reports %q widened, no session shows it:\n--- a\n%s\n--- b\n%s\n%s", strings.ReplaceAll(k, "\x00", " "), a.data, b.data, reportText(t, rep))
			}
		}
		if len(found) > 0 != rep.Widened && !slices.ContainsFunc(rep.Delegation, func(e diff.EdgeChange) bool { return e.Widened }) {
			t.Fatalf("report widened %v, sessions found %d widened calls:\n%s", rep.Widened, len(found), reportText(t, rep))
		}
		widened += len(found)
	}
	if compared < reps(150) || widened < reps(150) {
		t.Fatalf("compared %d pairs of configs with %d widened calls: the generator makes too few to be a test", compared, widened)
	}
	t.Logf("%d pairs of configs, %d widened calls", compared, widened)
}
