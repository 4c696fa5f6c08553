package compile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// BenchmarkCompile measures, for the shipped config and a generated one of
// 1,000 agents and 200 toolsets, linting alone beside linting, compiling
// and writing the policy: compiling may add at most half the lint time.
func BenchmarkCompile(b *testing.B) {
	shipped, err := os.ReadFile(filepath.Join("..", "examples", "shipped.config.toml"))
	if err != nil {
		b.Fatal(err)
	}
	inputs := []struct {
		name string
		cfg  []byte
		m    *lint.Manifest
	}{
		{"shipped", shipped, lint.DefaultManifest()},
		{"1000x200", gen.Config(1000, 200), lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(200)})},
	}
	for _, in := range inputs {
		src := lint.Source{Name: "config.toml", Data: in.cfg}
		b.Run(in.name+"/lint", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := engine.Run(src, in.m); res.HasErrors() {
					b.Fatal(res.Diagnostics[0])
				}
			}
		})
		b.Run(in.name+"/lint+compile", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res := engine.Run(src, in.m)
				doc := engine.Compile(res.World, engine.Source{Name: src.Name, Data: src.Data},
					engine.Source{Name: in.m.Source.Name, Data: in.m.Source.Data})
				if _, err := policy.Marshal(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
