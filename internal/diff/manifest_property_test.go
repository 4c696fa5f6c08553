package diff_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/internal/testing/reference"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
)

// effectiveClasses are a tool's classes read straight from a manifest's
// JSON, as docs/manifest.md says: the tool's own when it writes the key,
// else its toolset's, else its kind's (none for kind kokua). Keyed by
// toolset, then tool.
func effectiveClasses(m jsonManifest) map[string]map[string][]kokua.Class {
	out := map[string]map[string][]kokua.Class{}
	for _, x := range m["toolsets"].([]any) {
		ts := x.(map[string]any)
		name := ts["name"].(string)
		out[name] = map[string][]kokua.Class{}
		for _, y := range ts["tools"].([]any) {
			tool := y.(map[string]any)
			var cs []kokua.Class
			switch {
			case tool["classes"] != nil:
				cs = jsonClasses(tool["classes"])
			case ts["classes"] != nil:
				cs = jsonClasses(ts["classes"])
			}
			out[name][tool["name"].(string)] = cs
		}
	}
	return out
}

func jsonClasses(v any) []kokua.Class {
	var out []kokua.Class
	switch xs := v.(type) {
	case []any:
		for _, x := range xs {
			out = append(out, kokua.Class(x.(string)))
		}
	case []kokua.Class:
		out = xs
	}
	return out
}

// sameClasses compares classes as sets.
func sameClasses(a, b []kokua.Class) bool {
	for _, c := range a {
		if !slices.Contains(b, c) {
			return false
		}
	}
	for _, c := range b {
		if !slices.Contains(a, c) {
			return false
		}
	}
	return true
}

func minusClasses(a, b []kokua.Class) []kokua.Class {
	var out []kokua.Class
	for _, c := range a {
		if !slices.Contains(b, c) {
			out = append(out, c)
		}
	}
	return out
}

// someClasses is a random set of classes, possibly empty.
func someClasses(r *rand.Rand) []kokua.Class {
	var out []kokua.Class
	for _, c := range kokua.Classes() {
		if r.IntN(4) == 0 {
			out = append(out, c)
		}
	}
	if out == nil {
		out = []kokua.Class{}
	}
	return out
}

// editManifest applies one random edit to a manifest: a tool's classes
// written, a toolset's classes written, a tool added (with or without
// classes), or a tool removed. Only tools no other toolset also offers
// are touched, so that the reference evaluator, which answers by tool
// name, names the one tool.
func editManifest(r *rand.Rand, m jsonManifest, fresh *int) {
	toolsets := m["toolsets"].([]any)
	ts := toolsets[r.IntN(len(toolsets))].(map[string]any)
	tools := ts["tools"].([]any)
	own := func() (int, map[string]any) {
		// A generated toolset's shared tool is its last.
		i := r.IntN(max(1, len(tools)-1))
		return i, tools[i].(map[string]any)
	}
	switch r.IntN(4) {
	case 0:
		_, tool := own()
		tool["classes"] = someClasses(r)
	case 1:
		ts["classes"] = someClasses(r)
	case 2:
		*fresh++
		tool := map[string]any{"name": fmt.Sprintf("fresh_tool_%03d", *fresh)}
		if r.IntN(2) == 0 {
			tool["classes"] = someClasses(r)
		}
		ts["tools"] = append(tools, tool)
	case 3:
		if len(tools) > 2 {
			i, _ := own()
			ts["tools"] = slices.Delete(tools, i, i+1)
		}
	}
}

// refCallable says, from the reference evaluator alone, whether some agent
// can call a tool: an agent the entry agent reaches by delegates_to
// (itself included) whose answer for it is anything but unavailable, or
// composed workers, which hold every tool of the registry, when they can
// exist.
func refCallable(ev *reference.Evaluator, tool string) bool {
	if ev.Composes() {
		for _, ts := range ev.Registry {
			if slices.Contains(ts.Tools, tool) {
				return true
			}
		}
	}
	for _, a := range refClosure(ev) {
		if level(ev, a, tool) > reach.Unavailable {
			return true
		}
	}
	return false
}

// refClosure is the entry agent and every agent it reaches.
func refClosure(ev *reference.Evaluator) []string {
	out := []string{ev.Entry}
	for i := 0; i < len(out); i++ {
		for _, a := range ev.Agents {
			if a.Name == out[i] {
				for _, d := range a.DelegatesTo {
					if !slices.Contains(out, d) {
						out = append(out, d)
					}
				}
			}
		}
	}
	return out
}

// wantToolGrade is the grade of a manifest tool change, restated from
// docs/diff.md apart from the code: classes added to a tool some agent
// can call are high for exec, write, self-modify or egress and medium
// otherwise, classes removed from it high; on a tool no agent can call,
// classes removed are medium and classes added info. A tool added is
// graded as a widened tool (by its classes) when some agent can call it,
// info when none can; a tool removed is a narrowing (no grade) when some
// agent could call it, info when none could.
func wantToolGrade(change string, old, cur []kokua.Class, callable bool) reach.Grade {
	high := func(cs []kokua.Class) bool {
		for _, c := range cs {
			if c == kokua.Exec || c == kokua.Write || c == kokua.SelfModify || c == kokua.Egress {
				return true
			}
		}
		return false
	}
	added, removed := minusClasses(cur, old), minusClasses(old, cur)
	switch change {
	case "added":
		switch {
		case !callable:
			return reach.Info
		case high(cur):
			return reach.High
		}
		return reach.Medium
	case "removed":
		if callable {
			return reach.NoGrade
		}
		return reach.Info
	}
	switch {
	case callable && (high(added) || len(removed) > 0):
		return reach.High
	case callable:
		return reach.Medium
	case len(removed) > 0:
		return reach.Medium
	}
	return reach.Info
}

// TestManifestEditsProperty: on generated configs and random edits of
// their manifest, every tool whose entry changed is reported, and only
// those; each is graded as wantToolGrade says, whether some agent can
// call it decided by the reference evaluator (which shares no code with
// reach or policy); a tool added is listed under every agent that can
// now call it, and counted once in widened_count. The low grades (info,
// medium) and the uncounted widenings are the permissive answers this
// holds.
func TestManifestEditsProperty(t *testing.T) {
	const agents, toolsets = 8, 30
	pairs := reps(60)
	var base jsonManifest
	if err := json.Unmarshal(gen.Manifest(toolsets), &base); err != nil {
		t.Fatal(err)
	}
	// Toolsets no generated agent names: what is in them no agent can
	// call.
	for i := range 6 {
		base["toolsets"] = append(base["toolsets"].([]any), map[string]any{"name": fmt.Sprintf("idle%d", i), "kind": "kokua", "description": "-",
			"tools": []any{map[string]any{"name": fmt.Sprintf("idle_a_%d", i)}, map[string]any{"name": fmt.Sprintf("idle_b_%d", i)},
				map[string]any{"name": fmt.Sprintf("idle_c_%d", i)}}})
	}
	for i, ts := range base["toolsets"].([]any) {
		if c := kokua.Classes()[i%len(kokua.Classes())]; i%3 != 2 {
			ts.(map[string]any)["classes"] = []kokua.Class{c}
		}
	}
	baseData, err := json.Marshal(base)
	if err != nil {
		t.Fatal(err)
	}
	oldM := lint.LoadManifest(lint.Source{Name: "old.json", Data: baseData})
	seed, ok := load(t, "a.toml", gen.Config(agents, toolsets), oldM)
	if !ok {
		t.Fatal("the generated config does not lint clean")
	}
	toolsOf := map[string][]string{}
	var tsNames []string
	for _, ts := range seed.ref.Registry {
		tsNames = append(tsNames, ts.Name)
		toolsOf[ts.Name] = ts.Tools
	}
	r := rand.New(rand.NewPCG(35, 2026))
	fresh := 0
	done, graded := 0, map[reach.Grade]int{}
	for tries := 0; done < pairs && tries < 10*pairs; tries++ {
		cfg := seed
		if r.IntN(2) == 0 {
			if cfg, ok = edit(t, r, seed, oldM, tsNames, toolsOf, "a.toml", 1+r.IntN(3), func() int { return r.IntN(12) }); !ok {
				continue
			}
		}
		var m jsonManifest
		if err := json.Unmarshal(baseData, &m); err != nil {
			t.Fatal(err)
		}
		for range 1 + r.IntN(3) {
			editManifest(r, m, &fresh)
		}
		newData, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		newM := lint.LoadManifest(lint.Source{Name: "new.json", Data: newData})
		nside, _, err := diff.Load(lint.Source{Name: "a.toml", Data: cfg.data}, newM, nil)
		if err != nil {
			t.Fatal(err)
		}
		if nside == nil {
			continue // a removed tool an entry named
		}
		done++
		oev, err := reference.New(cfg.data, baseData)
		if err != nil {
			t.Fatal(err)
		}
		nev, err := reference.New(cfg.data, newData)
		if err != nil {
			t.Fatal(err)
		}
		rep := diff.Compare(cfg.side, nside)
		text := reportText(t, rep)
		oc, nc := effectiveClasses(base), effectiveClasses(m)
		type key struct{ toolset, tool, change string }
		want := map[key]reach.Grade{}
		extra := 0
		for ts, tools := range nc {
			for tool, cs := range tools {
				old, had := oc[ts][tool]
				switch {
				case !had:
					want[key{ts, tool, "added"}] = wantToolGrade("added", nil, cs, refCallable(nev, tool))
				case !sameClasses(old, cs):
					callable := refCallable(nev, tool)
					want[key{ts, tool, "classes"}] = wantToolGrade("classes", old, cs, callable)
					if callable && len(minusClasses(cs, old)) > 0 {
						extra++
					}
				}
			}
		}
		for ts, tools := range oc {
			for tool := range tools {
				if _, ok := nc[ts][tool]; !ok {
					want[key{ts, tool, "removed"}] = wantToolGrade("removed", nil, nil, refCallable(oev, tool))
				}
			}
		}
		got := map[key]reach.Grade{}
		for _, c := range rep.Manifest.Tools {
			got[key{c.Toolset, c.Tool, c.Change}] = c.Grade
		}
		for k, g := range want {
			if gg, ok := got[k]; !ok || gg != g {
				t.Fatalf("%v: reported %v (%v), want %v\n%s", k, gg, ok, g, text)
			}
			graded[g]++
		}
		if len(got) != len(want) {
			t.Fatalf("%d manifest tool changes reported, %d made\n%s", len(got), len(want), text)
		}
		if d := rep.WidenedCount - agentWidened(rep); d != extra {
			t.Fatalf("the manifest adds %d to widened_count, want %d (classes added to a tool some agent calls)\n%s", d, extra, text)
		}
		// A tool added is listed under each agent that can now call it.
		for k := range want {
			if k.change != "added" {
				continue
			}
			for _, a := range refClosure(nev) {
				if level(nev, a, k.tool) == reach.Unavailable {
					continue
				}
				listed := false
				for _, ac := range rep.Agents {
					for _, tc := range ac.Widened {
						listed = listed || ac.Agent == a && tc.Tool == k.tool && tc.New.Toolset == k.toolset
					}
				}
				if !listed {
					t.Fatalf("%s can call the added %s.%s, and its tool changes do not list it\n%s", a, k.toolset, k.tool, text)
				}
			}
		}
		if rep.Widened != (rep.WidenedCount > 0 || len(rep.Agents) > 0 && anyWidened(rep)) {
			t.Fatalf("widened %v, widened_count %d\n%s", rep.Widened, rep.WidenedCount, text)
		}
	}
	if done < pairs {
		t.Fatalf("only %d of %d pairs lint clean", done, pairs)
	}
	// The edits must exercise every grade, or the test proves little.
	for _, g := range []reach.Grade{reach.High, reach.Medium, reach.Info, reach.NoGrade} {
		if graded[g] < reps(5) {
			t.Errorf("only %d changes graded %v: %v", graded[g], g, graded)
		}
	}
}

func anyWidened(r *diff.Report) bool {
	for _, a := range r.Agents {
		if len(a.Widened) > 0 {
			return true
		}
	}
	return false
}
