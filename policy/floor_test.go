package policy_test

import (
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// floorManifest registers two toolsets that both offer x.
const floorManifest = `{"manifest_version": 1, "source": "floor test",
  "core_tools": [{"name": "spawn_subagent"}, {"name": "activate_skill"}, {"name": "available_tools"}, {"name": "load_tools"}],
  "toolsets": [
    {"name": "a", "kind": "kokua", "description": "A.", "tools": [{"name": "x"}, {"name": "y"}]},
    {"name": "b", "kind": "kokua", "description": "B.", "tools": [{"name": "x"}, {"name": "z"}]}]}`

// floorConfig holds a resident and b deferred, so the floor's entry on b
// is pending; auto-approval is on.
const floorConfig = `[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = ["a.y"]

[agents.assistant.tools]
available = ["a", "b"]
resident = ["a"]

[security]
never_auto_approve = ["b.x"]

[security.auto_approval]
enabled = true
reviewers = ["approval"]

[reviewers.approval]
model = "openai:gpt-4o-mini"
system_message = "Approve a call only when it does what the user asked."
`

// TestPendingFloorFailsClosed: a floor entry whose toolset no startup
// build reaches still keeps the reviewer from the tools its build would
// give, whichever toolset the call comes from ("failing closed", decide.go's
// index). The linter refuses a config whose review list reaches the floor
// (build-floor), so the policy is edited after compiling, as a hand-written
// or foreign document could be: the default review list gains a.x, a
// resolved entry on the name the pending floor entry b.x would hold.
func TestPendingFloorFailsClosed(t *testing.T) {
	m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: []byte(floorManifest)})
	res := engine.Run(lint.Source{Name: "config.toml", Data: []byte(floorConfig)}, m)
	if res.HasErrors() {
		t.Fatalf("the config lints with errors: %v", res.Diagnostics)
	}
	doc := engine.Compile(res.World, engine.Source{Name: "config.toml", Data: []byte(floorConfig)},
		engine.Source{Name: m.Source.Name, Data: m.Source.Data})
	if len(doc.Floor.List.Entries) != 1 || doc.Floor.List.Entries[0].Status != policy.StatusPending || !doc.Floor.Active {
		t.Fatalf("the floor is not one active pending entry: %+v", doc.Floor)
	}
	review := &doc.DefaultTier.Review
	review.Entries = append(review.Entries, policy.Entry{Status: policy.StatusResolved, Text: "a.x", Tool: "x", Toolset: "a", Tools: []string{"x"}, ToolsWhenBuilt: []string{}})
	review.Tools = append(review.Tools, "x")
	data, err := policy.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Parse("edited", data)
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string, a policy.Answer) {
		t.Helper()
		if a.Decision != policy.Review || a.Reason.Reviewer {
			t.Errorf("%s, x is %s with the reviewer first: %v; want review, the user alone (the floor's pending b.x holds x)", when, a.Decision, a.Reason.Reviewer)
		}
	}
	check("before any load", p.Decide("assistant", "x", policy.Turn{}))
	s, err := p.NewSession("assistant")
	if err != nil {
		t.Fatal(err)
	}
	check("in a fresh session", s.Decide("x", policy.Turn{}))
	if r := s.Load("b"); !r.OK {
		t.Fatalf("load b: %s", r.Message)
	}
	check("once b is loaded", s.Decide("x", policy.Turn{}))
	// y is gated by review and on no floor: the reviewer answers first.
	if a := p.Decide("assistant", "y", policy.Turn{}); a.Decision != policy.Review || !a.Reason.Reviewer {
		t.Errorf("y is %s with the reviewer first: %v; want review by the reviewer first", a.Decision, a.Reason.Reviewer)
	}
}

// TestComposedFirstHolder: a composed worker holds the whole registry but
// capabilities, entry-point-only toolsets and refused ones, and a tool
// name two toolsets offer is held from the first in trust order (R51,
// R185); the answer names that toolset.
func TestComposedFirstHolder(t *testing.T) {
	checked := 0
	for _, name := range []string{"composed-workers", "shipped", "tool-block", "shadowing", "skills-on-entry"} {
		p := load(t, name)
		d := p.Document()
		if !d.Composed.Possible {
			continue
		}
		first := map[string]string{}
		for _, ts := range d.TrustOrder {
			x := d.Toolsets[ts]
			if x.EntryPointOnly || ts == "capabilities" || x.LoadRefusal != "" {
				continue
			}
			for _, tool := range x.Tools {
				if _, ok := first[tool.Name]; !ok {
					first[tool.Name] = ts
				}
			}
		}
		for tool, ts := range first {
			a := p.Decide("composed:x", tool, policy.Turn{})
			if a.Toolset != ts {
				t.Errorf("%s: composed:x calls %q from %q (%s), want %q, the first in trust order", name, tool, a.Toolset, a.Decision, ts)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no golden policy has a composed worker: the test proves nothing")
	}
}

// TestComposedQualifiedShadowed: a composed worker builds every toolset
// it holds, so toolset.tool reaches a tool whose bare name an earlier
// toolset holds, and capabilities, which it never holds, is unavailable.
func TestComposedQualifiedShadowed(t *testing.T) {
	const man = `{"manifest_version": 1, "source": "composed test",
  "core_tools": [{"name": "spawn_subagent"}, {"name": "activate_skill"}, {"name": "available_tools"}, {"name": "load_tools"}],
  "toolsets": [
    {"name": "capabilities", "kind": "kokua", "description": "C.", "tools": [{"name": "compose_subagent"}]},
    {"name": "a", "kind": "kokua", "description": "A.", "tools": [{"name": "x"}, {"name": "y"}]},
    {"name": "b", "kind": "kokua", "description": "B.", "tools": [{"name": "x"}, {"name": "z"}]}]}`
	const cfg = `[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = []

[agents.assistant.tools]
available = ["capabilities", "a"]
`
	m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: []byte(man)})
	res := engine.Run(lint.Source{Name: "config.toml", Data: []byte(cfg)}, m)
	if res.HasErrors() {
		t.Fatalf("the config lints with errors: %v", res.Diagnostics)
	}
	data, err := policy.Marshal(engine.Compile(res.World, engine.Source{Name: "config.toml", Data: []byte(cfg)},
		engine.Source{Name: m.Source.Name, Data: m.Source.Data}))
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Parse("composed", data)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Document().Composed.Possible {
		t.Fatal("no composed worker: the test proves nothing")
	}
	for tool, want := range map[string]policy.Decision{"b.x": policy.Run, "a.x": policy.Run, "x": policy.Run, "capabilities.compose_subagent": policy.Unavailable} {
		if a := p.Decide("composed:w", tool, policy.Turn{}); a.Decision != want {
			t.Errorf("composed:w calls %q: %s (%s), want %s", tool, a.Decision, a.Reason.Summary, want)
		}
	}
}
