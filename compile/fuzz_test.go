package compile_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/testing/reference"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// FuzzCompile compiles every config that lints without errors, from
// arbitrary bytes seeded with the compile and lint cases, against the
// default install or a case's manifest. compile.Write may refuse only a
// document Validate refuses (and then the runtime would too); the policy
// it writes loads, and answers every agent's call of every tool as the
// reference evaluator does, in a fresh session and after each load of its
// deferred toolsets. kokua-compile and the runtime thus never disagree
// about a policy, and the policy says what the config says.
func FuzzCompile(f *testing.F) {
	for _, pattern := range []string{
		filepath.Join("..", "testdata", "compile", "*", "config.toml"),
		filepath.Join("..", "testdata", "lint", "*--pass-*", "config.toml"),
	} {
		paths, _ := filepath.Glob(pattern)
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data, false)
		}
	}
	toolBlock, err := os.ReadFile(filepath.Join("..", "testdata", "compile", "tool-block", "manifest.json"))
	if err != nil {
		f.Fatal(err)
	}
	manifests := []*lint.Manifest{lint.DefaultManifest(), lint.LoadManifest(lint.Source{Name: "manifest.json", Data: toolBlock})}
	manifestData := [][]byte{manifest.DefaultManifest(), toolBlock}
	f.Fuzz(func(t *testing.T, cfg []byte, other bool) {
		which := 0
		if other {
			which = 1
		}
		m := manifests[which]
		res := engine.Run(lint.Source{Name: "config.toml", Data: cfg}, m)
		if res.HasErrors() || res.World == nil {
			return
		}
		doc := engine.Compile(res.World, engine.Source{Name: "config.toml", Data: cfg}, engine.Source{Name: m.Source.Name, Data: m.Source.Data})
		out, err := compile.Write(doc, nil)
		if err != nil {
			if doc.Validate() == nil {
				t.Fatalf("Write refuses a document Validate accepts: %v", err)
			}
			t.Logf("the document is refused: %v", err)
			return
		}
		p, err := policy.Parse("policy.json", out)
		if err != nil {
			t.Fatalf("kokua-compile wrote a policy the runtime refuses: %v", err)
		}
		ref, err := reference.New(cfg, manifestData[which])
		if err != nil {
			// go-toml, the reference's reader, refuses a few documents
			// that TOML 1.0 (and the linter) accept: nothing to compare.
			t.Logf("the reference cannot read it: %v", err)
			return
		}
		fuzzCompare(t, p, ref, manifestData[which])
	})
}

// fuzzCompare asks every agent about every tool name of the manifest, the
// core tools and a made-up name, in a fresh session and after each load
// of its deferred toolsets, and compares with the reference's session.
func fuzzCompare(t *testing.T, p *policy.Policy, ref *reference.Evaluator, man []byte) {
	t.Helper()
	var mf manifestFile
	if err := json.Unmarshal(man, &mf); err != nil {
		t.Fatal(err)
	}
	tools := append(slices.Clone(coreTools), diffMadeUpTool)
	for _, ts := range mf.Toolsets {
		for _, tool := range ts.Tools {
			if !slices.Contains(tools, tool.Name) {
				tools = append(tools, tool.Name)
			}
		}
	}
	for name, a := range p.Document().Agents {
		s, err := p.NewSession(name)
		if err != nil {
			t.Fatal(err)
		}
		rs := ref.NewSession(name)
		if rs == nil {
			t.Fatalf("the reference has no agent %q", name)
		}
		compare := func(after string) {
			for _, tool := range tools {
				want := rs.Answer(tool)
				ans := s.Decide(tool, policy.Turn{})
				if d := p.Decide(name, tool, policy.Turn{}); after == "" && d != ans {
					t.Fatalf("agent %q calls %q: Decide says %+v, a fresh session %+v", name, tool, d, ans)
				}
				if got := diffRuntimeAnswer[ans.Decision]; got != want {
					t.Fatalf("agent %q calls %q%s: the policy says %s (%s), the reference %s", name, tool, after, ans.Decision, ans.Reason.Summary, want)
				}
			}
		}
		compare("")
		for _, d := range a.Deferred {
			res := s.Load(d)
			ok, added := rs.Load(d)
			if res.OK != ok || strings.Join(res.Added, ",") != strings.Join(added, ",") {
				t.Fatalf("agent %q loads %q: ok %v, added %v; the reference ok %v, added %v", name, d, res.OK, res.Added, ok, added)
			}
			compare(" after loading " + d)
		}
	}
}
