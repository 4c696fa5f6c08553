package compile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// FuzzCompile compiles every config that lints without errors, from
// arbitrary bytes seeded with the compile and lint cases, against the
// default install or a case's manifest: compile.Write either refuses the
// document (and then the runtime would too) or writes a policy that
// policy.Parse loads and that answers for every agent. kokua-compile and
// the runtime thus never disagree about a policy.
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
	f.Fuzz(func(t *testing.T, cfg []byte, other bool) {
		m := manifests[0]
		if other {
			m = manifests[1]
		}
		res := lint.Lint(lint.Source{Name: "config.toml", Data: cfg}, m)
		if res.HasErrors() || res.World == nil {
			return
		}
		doc := compile.Compile(res.World, compile.Input{Name: "config.toml", Data: cfg}, compile.Input{Name: m.Source.Name, Data: m.Source.Data})
		out, err := compile.Write(doc, nil)
		if err != nil {
			if doc.Validate() == nil {
				t.Logf("refused for its size or encoding: %v", err)
			}
			return
		}
		p, err := policy.Parse("policy.json", out)
		if err != nil {
			t.Fatalf("kokua-compile wrote a policy the runtime refuses: %v", err)
		}
		for name, a := range p.Document().Agents {
			for _, tool := range a.Tools {
				_ = p.Decide(name, tool.Name, policy.Turn{})
			}
			s, err := p.NewSession(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range a.Deferred {
				_ = s.Load(d)
			}
		}
	})
}
