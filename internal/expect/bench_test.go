package expect_test

import (
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
