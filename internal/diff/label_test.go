package diff_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// places lists every place of a report, by walking its JSON: each object
// with "file" and "key" members.
func places(t *testing.T, r *diff.Report) []diff.Place {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out []diff.Place
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if f, ok := x["file"].(string); ok {
				k, _ := x["key"].(string)
				line, _ := x["line"].(float64)
				out = append(out, diff.Place{File: f, Key: k, Line: int(line)})
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	walk(v)
	return out
}

// TestPolicySideLabels checks issue 21's "diff labels each position with
// the file it comes from": with a compiled policy on one side, every place
// on that side names the config the policy records (inputs.config.file),
// whose line and column it is, never the policy file. Before, the gate-removed
// case read "(policy.json:8:60 [assistant.tools].review)".
func TestPolicySideLabels(t *testing.T) {
	m := lint.DefaultManifest()
	for _, dir := range golden.Cases(t, "diff") {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			oldCfg := side(t, filepath.Join(dir, "old.toml"), m)
			data, err := policy.Marshal(oldCfg.Policy.Document())
			if err != nil {
				t.Fatal(err)
			}
			oldPol, _, err := diff.Load(lint.Source{Name: "policy.json", Data: data}, m, nil)
			if err != nil {
				t.Fatal(err)
			}
			newCfg := side(t, filepath.Join(dir, "new.toml"), m)
			for _, r := range []*diff.Report{diff.Compare(oldPol, newCfg), diff.Compare(newCfg, oldPol)} {
				if r.Old != "policy.json" && r.New != "policy.json" {
					t.Fatalf("the report's sides are %q and %q", r.Old, r.New)
				}
				for _, p := range places(t, r) {
					if p.File != "old.toml" && p.File != "new.toml" && p.File != m.Source.Name {
						t.Errorf("a place names %q (%s), not the config it is in", p.File, p)
					}
				}
				if want := diff.Compare(oldCfg, newCfg); r.Old == "policy.json" && (r.Widened != want.Widened || r.WidenedCount != want.WidenedCount || r.NarrowedCount != want.NarrowedCount) {
					t.Errorf("policy side: %d widened, %d narrowed; config side: %d, %d", r.WidenedCount, r.NarrowedCount, want.WidenedCount, want.NarrowedCount)
				}
			}
		})
	}
}

// TestComposedRegistryPlace checks the place of composed workers gaining
// a toolset: the registry is the manifest, so the place names the
// manifest file and its toolsets, not "(config.toml the registry)".
func TestComposedRegistryPlace(t *testing.T) {
	cfg := filepath.Join(golden.Root(t), "testdata", "diff", "no-change", "old.toml")
	def := lint.DefaultManifest()
	var doc map[string]any
	if err := json.Unmarshal(def.Source.Data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["toolsets"] = append(doc["toolsets"].([]any), map[string]any{"name": "wiki", "kind": "plugin", "description": "A wiki.",
		"tools": []any{map[string]any{"name": "read_page"}}})
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	wiki := lint.LoadManifest(lint.Source{Name: "wiki.manifest.json", Data: data})
	if err := wiki.Err(); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n, res, err := diff.Load(lint.Source{Name: "config.toml", Data: src}, wiki, nil)
	if err != nil || n == nil {
		t.Fatalf("the config does not compile against the wiki manifest: %v %v", err, res)
	}
	r := diff.Compare(side(t, cfg, def), n)
	text := reportText(t, r)
	if !strings.Contains(text, `composed workers now hold toolset "wiki" (wiki.manifest.json toolsets)`) || strings.Contains(text, "the registry)") {
		t.Errorf("the composed workers' new toolset is not placed in the manifest:\n%s", text)
	}
}
