package policy_test

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// scale is one size of the large-policy benchmark: gen.Config(agents,
// toolsets) against gen.Manifest(toolsets), compiled. The 100x size,
// 61.8 MB, is about the 61.5 MB policy of issue 13, just under
// policy.MaxBytes (64 MiB).
type scale struct {
	name             string
	agents, toolsets int
}

var scales = []scale{
	{"1x", 131, 20},
	{"10x", 1310, 200},
	{"100x", 13100, 2000},
}

// largePolicies caches each generated policy for the whole test process:
// the 100x one takes seconds to generate, lint and compile, and every
// benchmark round (b.N grows) and every benchmark would repeat it.
var largePolicies sync.Map // scale -> *largePolicy

type largePolicy struct {
	once sync.Once
	data []byte
	err  error
}

// generated returns the sealed policy of a scale, as compile.Write writes
// it, generating it on first use.
func generated(tb testing.TB, s scale) []byte {
	tb.Helper()
	v, _ := largePolicies.LoadOrStore(s, &largePolicy{})
	lp := v.(*largePolicy)
	lp.once.Do(func() { lp.data, lp.err = generate(s.agents, s.toolsets) })
	if lp.err != nil {
		tb.Fatal(lp.err)
	}
	return lp.data
}

// generate compiles gen.Config(agents, toolsets) against
// gen.Manifest(toolsets) into a sealed policy, as kokua-compile would.
func generate(agents, toolsets int) ([]byte, error) {
	cfg := gen.Config(agents, toolsets)
	m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(toolsets)})
	res := engine.Run(lint.Source{Name: "config.toml", Data: cfg}, m)
	if res.HasErrors() {
		return nil, fmt.Errorf("the generated config does not lint clean: %w", res.Diagnostics[0])
	}
	doc := engine.Compile(res.World, engine.Source{Name: "config.toml", Data: cfg},
		engine.Source{Name: m.Source.Name, Data: m.Source.Data})
	return compile.Write(doc, nil)
}

// aGatedCall finds an agent of the policy and a tool it holds that one of
// its entries gates, the first by name, so that the decision timed is a
// whole one and the same each run.
func aGatedCall(tb testing.TB, data []byte) (agent, tool string) {
	tb.Helper()
	p, err := policy.Parse("bench", data)
	if err != nil {
		tb.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(p.Document().Agents)) {
		for _, t := range p.Document().Agents[name].Tools {
			if d := p.Decide(name, t.Name, policy.Turn{}).Decision; d == policy.Confirm || d == policy.Review {
				return name, t.Name
			}
		}
	}
	tb.Fatal("no agent of the generated policy holds a gated tool")
	return "", ""
}

// BenchmarkLoadScale measures what a host pays to answer its first
// decision from a large policy: policy.Parse of the bytes (seal, verify
// the digest, decode, check the shape, validate, index) and one Decide.
// The three sizes are 0.57 MB, 6.1 MB and 61.8 MB (131, 1,310 and 13,100
// agents over 20, 200 and 2,000 toolsets); the time and memory of each
// step of 10x should grow at most 12x. The largest is skipped under
// -short.
//
// With KOKUA_LARGE_POLICY set to a path, the 100x policy is also written
// there, for timing a whole kokua-run process on it.
func BenchmarkLoadScale(b *testing.B) {
	for _, s := range scales {
		b.Run(s.name, func(b *testing.B) {
			if testing.Short() && s.name == "100x" {
				b.Skip("the 61.8 MB policy takes seconds to generate; run without -short")
			}
			data := generated(b, s)
			if out := os.Getenv("KOKUA_LARGE_POLICY"); out != "" && s.name == "100x" {
				if err := os.WriteFile(out, data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			agent, tool := aGatedCall(b, data)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				p, err := policy.Parse("bench", data)
				if err != nil {
					b.Fatal(err)
				}
				sink = p.Decide(agent, tool, policy.Turn{})
			}
		})
	}
}
