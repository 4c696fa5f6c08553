package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
)

// The speed targets (docs/benchmarks.md): an in-process lint of the shipped
// config takes at most 200 µs, and the cost grows linearly with the number
// of agents (1000 agents at most 10 times the time of 100).

// shippedConfig is the config Kokua ships, kept as a golden case so that the
// benchmark does not read outside the repository.
var shippedConfig = filepath.Join("..", "testdata", "lint", "shipped", "config.toml")

// BenchmarkLintShipped lints the shipped config against the embedded
// default manifest, loaded once.
func BenchmarkLintShipped(b *testing.B) {
	data, err := os.ReadFile(shippedConfig)
	if err != nil {
		b.Fatal(err)
	}
	m := DefaultManifest()
	src := Source{Name: "config.toml", Data: data}
	if res := Lint(src, m); len(res.Diagnostics) > 0 {
		b.Fatalf("the shipped config should lint clean, got %v", res.Diagnostics)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Lint(src, m)
	}
}

// benchGenerated lints gen.Config(agents, toolsets) against
// gen.Manifest(toolsets), both generated and loaded outside the timer.
func benchGenerated(b *testing.B, agents, toolsets int) {
	data := gen.Config(agents, toolsets)
	m := LoadManifest(Source{Name: "manifest.json", Data: gen.Manifest(toolsets)})
	src := Source{Name: "config.toml", Data: data}
	if res := Lint(src, m); res.HasErrors() {
		b.Fatalf("gen.Config(%d, %d) has errors: %v", agents, toolsets, res.Diagnostics)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Lint(src, m)
	}
}

// BenchmarkLintLarge lints a config of 1000 agents over 200 toolsets.
func BenchmarkLintLarge(b *testing.B) { benchGenerated(b, 1000, 200) }

// BenchmarkLintAgents shows how the cost grows with the number of agents,
// over the same 200 toolsets: agents=100 and agents=1000 by default, or the
// comma-separated counts of $KOKUA_BENCH_AGENTS (e.g. 100,1000,3000,10000).
func BenchmarkLintAgents(b *testing.B) {
	counts := []int{100, 1000}
	if env := os.Getenv("KOKUA_BENCH_AGENTS"); env != "" {
		counts = nil
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				b.Fatalf("KOKUA_BENCH_AGENTS: %q is not a positive count", f)
			}
			counts = append(counts, n)
		}
	}
	for _, n := range counts {
		b.Run(fmt.Sprintf("agents=%d", n), func(b *testing.B) { benchGenerated(b, n, 200) })
	}
}
