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

// gradedSet is what a report grades medium or above, read from its
// fields, one line each: what the accept label stands for. Written here
// from the report's exported fields, not from the digest's own lines.
func gradedSet(r *diff.Report, classesOf func(toolset, tool string) string) string {
	var out []string
	add := func(g reach.Grade, parts ...any) {
		if g >= reach.Medium {
			out = append(out, fmt.Sprintf("%s %q", g, parts))
		}
	}
	for _, a := range r.Agents {
		for _, t := range a.Widened {
			add(t.Grade, "tool", a.Agent, t.Toolset, t.Tool, t.Old.Decision, t.Old.Level, t.New.Decision, t.New.Level, classesOf(t.Toolset, t.Tool))
		}
	}
	for _, e := range r.Delegation {
		for _, x := range e.New {
			add(e.Grade, "edge", e.From, e.To, e.Via, x.Toolset, x.Tool, x.Answer.Decision, x.Answer.Level, classesOf(x.Toolset, x.Tool))
		}
	}
	if a := r.AutoApproval; a != nil {
		add(a.Grade, "auto", a.New, a.Unprotected)
	}
	if f := r.Floor; f != nil {
		add(f.Grade, "floor", f.Unprotected)
	}
	for _, c := range r.Risks {
		var hops []string
		for _, h := range c.Path.Hops {
			hops = append(hops, h.Kind, h.Agent, h.To, h.Answer.Toolset, h.Answer.Tool)
		}
		add(c.Grade, "risk", c.Agent, c.Path.Toolset, c.Path.Tools, c.Path.Classes, c.Path.Level, hops)
	}
	for _, c := range r.Reviewers {
		add(c.Grade, "reviewer", c.Reviewer, c.Field, c.Old, c.New)
	}
	if m := r.Manifest; m != nil {
		for _, c := range m.Tools {
			add(c.Grade, "manifest", c.Toolset, c.Tool, c.Change, c.OldClasses, c.NewClasses)
		}
		for _, c := range m.Toolsets {
			add(c.Grade, "toolset", c.Toolset, c.Change)
		}
		for _, c := range m.Servers {
			add(c.Grade, "server", c.Server, c.Field, c.Old, c.New)
		}
	}
	slices.Sort(out)
	return strings.Join(slices.Compact(out), "\n")
}

// TestDigestNamesEverythingGraded: over generated installs (tool names
// shared between toolsets, classes drawn at random) and pairs of configs,
// two reports share a digest only when they grade the same changes: the
// same agent, toolset, tool, decisions, levels, classes and grade; the
// same paths, reviewer values and manifest changes. So a label accepted
// for one change accepts no other.
func TestDigestNamesEverythingGraded(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 5))
	byDigest := map[string]string{}
	reports := 0
	for i := 0; reports < reps(300) && i < 10000; i++ {
		data, toolsOf := pairManifest(r)
		m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: data})
		a, okA := load(t, "a.toml", pairConfig(r, toolsOf), m)
		b, okB := load(t, "b.toml", pairConfig(r, toolsOf), m)
		if !okA || !okB {
			continue
		}
		rep := diff.Compare(a.side, b.side)
		set := gradedSet(rep, func(ts, tool string) string { return fmt.Sprint(b.side.Graph.ToolClasses(ts, tool)) })
		if (set == "") != (rep.Digest == "") {
			t.Fatalf("digest %q for graded set %q", rep.Digest, set)
		}
		if rep.Digest == "" {
			continue
		}
		reports++
		if had, ok := byDigest[rep.Digest]; ok && had != set {
			t.Fatalf("two reports share digest %s with different graded changes:\n--- one\n%s\n--- other\n%s", rep.Digest, had, set)
		}
		byDigest[rep.Digest] = set
	}
	if reports < reps(300) || len(byDigest) < reps(250) {
		t.Fatalf("%d graded reports, %d digests: too few to test", reports, len(byDigest))
	}
}

// TestDigestTellsToolsetsApart is the reused label of the issue: giving
// an agent the wiki server and giving it prod_db, which offer the same
// tool names with other classes, grade as different changes.
func TestDigestTellsToolsetsApart(t *testing.T) {
	manifest := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: []byte(`{"manifest_version": 1, "source": "test",
"core_tools": [{"name": "spawn_subagent"}, {"name": "activate_skill"}, {"name": "available_tools"}, {"name": "load_tools"}],
"toolsets": [
 {"name": "base", "kind": "kokua", "description": "x", "tools": [{"name": "ping"}]},
 {"name": "wiki", "kind": "kokua", "description": "x", "tools": [{"name": "query"}, {"name": "write_page"}]},
 {"name": "prod_db", "kind": "kokua", "description": "x", "classes": ["private-data", "write"], "tools": [{"name": "query"}, {"name": "write_page"}]}]}`)})
	config := func(available string) []byte {
		return fmt.Appendf(nil, "[assistant]\nagent = \"assistant\"\n\n[assistant.tools]\nconfirm = []\nreview = []\n\n"+
			"[agents.assistant]\ndescription = \"x\"\n\n[agents.assistant.tools]\navailable = %s\n", available)
	}
	side := func(name, available string) generated {
		g, ok := load(t, name, config(available), manifest)
		if !ok {
			t.Fatalf("%s does not lint clean", name)
		}
		return g
	}
	base := side("a.toml", `["base"]`)
	wiki := diff.Compare(base.side, side("b.toml", `["base", "wiki"]`).side)
	db := diff.Compare(base.side, side("b.toml", `["base", "prod_db"]`).side)
	if wiki.Digest == "" || db.Digest == "" || wiki.Digest == db.Digest {
		t.Errorf("wiki's digest %q, prod_db's %q: want two digests", wiki.Digest, db.Digest)
	}
}
