package expect_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/expect"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/lint"
)

// BenchmarkRunEveryPair checks the widest claims there are, every agent
// and every tool, attended and with reach, on a generated config of 200
// agents over 100 toolsets: the work is one decision per selected pair.
func BenchmarkRunEveryPair(b *testing.B) {
	m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(100)})
	side, _, err := diff.Load(lint.Source{Name: "config.toml", Data: gen.Config(200, 100)}, m, nil)
	if err != nil || side == nil {
		b.Fatal(err)
	}
	f, ds := expect.Parse("kokua.test.toml", []byte("[[expect]]\nagent = \"*\"\ntool = \"*\"\ndecision = \"not run\"\n\n"+
		"[[expect]]\nagent = \"assistant\"\ntool = \"*\"\ndecision = \"asks\"\nreach = true\n"))
	if len(ds) > 0 {
		b.Fatal(ds)
	}
	b.ReportAllocs()
	for b.Loop() {
		rs := expect.Run(side, f)
		if len(rs) != 2 || rs[0].Pairs == 0 {
			b.Fatal("no pairs")
		}
	}
}

// BenchmarkScaleFailingClaims runs 30, 300 and 3,000 claims of every
// agent and every tool that every pair fails, against the shipped config,
// and writes the JSON report: the shape of issue 37, whose 3,000 claims
// held 2.3 GB and wrote 497 MB when each kept every failing pair
// (docs/benchmarks.md, "The shapes of issue 37").
func BenchmarkScaleFailingClaims(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "shipped.config.toml"))
	if err != nil {
		b.Fatal(err)
	}
	side, _, err := diff.Load(lint.Source{Name: "config.toml", Data: data}, lint.DefaultManifest(), nil)
	if err != nil || side == nil {
		b.Fatal(err)
	}
	for _, x := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("x=%d", x), func(b *testing.B) {
			f, ds := expect.Parse("kokua.test.toml", []byte(strings.Repeat("[[expect]]\nagent = \"*\"\ntool = \"*\"\ndecision = \"denied\"\n\n", 30*x)))
			if len(ds) > 0 {
				b.Fatal(ds)
			}
			b.ReportAllocs()
			for b.Loop() {
				r := &expect.Report{Config: "config.toml", Results: expect.Run(side, f)}
				if err := expect.WriteJSON(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
