package policy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// compiled compiles a config in process and loads the policy, outside any
// timer.
func compiled(tb testing.TB, cfg []byte, m *lint.Manifest) *policy.Policy {
	tb.Helper()
	res := engine.Run(lint.Source{Name: "config.toml", Data: cfg}, m)
	if res.HasErrors() {
		tb.Fatalf("the benchmark config does not lint clean: %v", res.Diagnostics[0])
	}
	doc, err := policy.Marshal(engine.Compile(res.World, engine.Source{Name: "config.toml", Data: cfg},
		engine.Source{Name: m.Source.Name, Data: m.Source.Data}))
	if err != nil {
		tb.Fatal(err)
	}
	p, err := policy.Parse("bench", doc)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

type question struct{ agent, tool string }

// sink keeps the compiler from dropping what a benchmark computes: both
// Decide and the floor hand back a whole answer.
var sink policy.Answer

// questions picks calls of every kind: held and gated, held and ungated,
// deferred, unreachable, qualified, and an unknown agent.
func questions(p *policy.Policy) []question {
	doc := p.Document()
	var qs []question
	for name, a := range doc.Agents {
		for i, t := range a.Tools {
			if i%3 == 0 {
				qs = append(qs, question{name, t.Name}, question{name, t.Toolset + "." + t.Name})
			}
		}
		for _, d := range a.Deferred {
			if ts := doc.Toolsets[d]; len(ts.Tools) > 0 {
				qs = append(qs, question{name, ts.Tools[0].Name})
			}
		}
		qs = append(qs, question{name, "no_such_tool"})
		if len(qs) > 4096 {
			break
		}
	}
	return append(qs, question{"ghost", "read_file"}, question{"composed:x", "run_command"})
}

// reachable lists every question about a tool an agent can reach, by bare
// name and as toolset.tool.
func reachable(p *policy.Policy) []question {
	doc := p.Document()
	var qs []question
	for name, a := range doc.Agents {
		for _, t := range a.Tools {
			qs = append(qs, question{name, t.Name}, question{name, t.Toolset + "." + t.Name})
		}
		for _, d := range a.Deferred {
			for _, t := range doc.Toolsets[d].Tools {
				qs = append(qs, question{name, t.Name}, question{name, d + "." + t.Name})
			}
		}
	}
	return qs
}

// BenchmarkDecide measures one decision against the shipped policy and a
// 1,000-agent, 200-toolset one, beside the floor: a Go map lookup of the
// precomputed answer for the same questions. Decide must not allocate and
// must stay within twice the floor, whatever the policy's size.
func BenchmarkDecide(b *testing.B) {
	shipped, err := os.ReadFile(filepath.Join("..", "examples", "shipped.config.toml"))
	if err != nil {
		b.Fatal(err)
	}
	large := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(200)})
	policies := []struct {
		name string
		p    *policy.Policy
	}{
		{"shipped", compiled(b, shipped, lint.DefaultManifest())},
		{"1000x200", compiled(b, gen.Config(1000, 200), large)},
	}
	for _, c := range policies {
		qs := questions(c.p)
		b.Run(c.name+"/decide", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				q := qs[i%len(qs)]
				sink = c.p.Decide(q.agent, q.tool, policy.Turn{})
			}
		})
		// The floor holds a precomputed answer for every question about a
		// tool an agent can reach, as many as the policy's own index.
		answers := map[question]policy.Answer{}
		for _, q := range reachable(c.p) {
			answers[q] = c.p.Decide(q.agent, q.tool, policy.Turn{})
		}
		b.Run(c.name+"/map-floor", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				q := qs[i%len(qs)]
				sink = answers[q]
			}
		})
	}
}

// TestDecideDoesNotAllocate holds Decide to zero allocations, the issue's
// target, on every kind of question.
func TestDecideDoesNotAllocate(t *testing.T) {
	shipped, err := os.ReadFile(filepath.Join("..", "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	p := compiled(t, shipped, lint.DefaultManifest())
	for _, q := range questions(p) {
		for _, turn := range []policy.Turn{{}, {Unattended: true}} {
			if n := testing.AllocsPerRun(20, func() { p.Decide(q.agent, q.tool, turn) }); n != 0 {
				t.Errorf("Decide(%q, %q, %+v) allocates %.0f times", q.agent, q.tool, turn, n)
			}
		}
	}
}

// BenchmarkWrite measures writing a compiled policy (Marshal: encode,
// seal, lay out) and loading it back (Parse: seal, verify, decode, check
// the shape, index), for the shipped config and the 1,000-agent one.
func BenchmarkWrite(b *testing.B) {
	shipped, err := os.ReadFile(filepath.Join("..", "examples", "shipped.config.toml"))
	if err != nil {
		b.Fatal(err)
	}
	large := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(200)})
	for _, c := range []struct {
		name string
		cfg  []byte
		m    *lint.Manifest
	}{
		{"shipped", shipped, lint.DefaultManifest()},
		{"1000x200", gen.Config(1000, 200), large},
	} {
		res := engine.Run(lint.Source{Name: "config.toml", Data: c.cfg}, c.m)
		doc := engine.Compile(res.World, engine.Source{Name: "config.toml", Data: c.cfg},
			engine.Source{Name: c.m.Source.Name, Data: c.m.Source.Data})
		data, err := policy.Marshal(doc)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/marshal", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := policy.Marshal(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/parse", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := policy.Parse("bench", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
