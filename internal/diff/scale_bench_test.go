package diff_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/lint"
)

// The shapes of issue 37 at 1x, 10x and 100x of 30 agents (docs/benchmarks.md,
// "The shapes of issue 37"): a chain read at its top, a chain read by
// every agent, and a diamond (riskShape). Each side is loaded (linted and
// compiled) once, outside the timing.

var riskShapes = []string{"chain-web-top", "chain-web-everywhere", "diamond"}

// scaleSides are the shape at 30 times x agents, and the same shape
// reading nothing (old), for diff.
func scaleSides(b *testing.B, shape string, x int) (old, now *diff.Side) {
	b.Helper()
	data := riskShape(shape, 30*x)
	m := lint.DefaultManifest()
	load := func(name string, data []byte) *diff.Side {
		s, _, err := diff.Load(lint.Source{Name: name, Data: data}, m, nil)
		if err != nil || s == nil {
			b.Fatalf("%s: %v", name, err)
		}
		return s
	}
	return load("old.toml", []byte(strings.ReplaceAll(string(data), `"web"`, `"time"`))), load("new.toml", data)
}

// BenchmarkScaleRisks is kokua-compile risks on a loaded side: every
// agent's view and paths, written in the human format.
func BenchmarkScaleRisks(b *testing.B) {
	for _, shape := range riskShapes {
		for _, x := range []int{1, 10, 100} {
			b.Run(fmt.Sprintf("%s/x=%d", shape, x), func(b *testing.B) {
				_, s := scaleSides(b, shape, x)
				b.ReportAllocs()
				for b.Loop() {
					// A graph keeps what it found: a new one each round, as
					// each run of the command has.
					fresh := *s
					fresh.Graph = reach.New(s.Policy)
					if err := diff.WriteRisks(io.Discard, "human", diff.Risks(&fresh)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkScaleDiff is kokua-compile diff of the shape against itself
// reading nothing, written in the human format.
func BenchmarkScaleDiff(b *testing.B) {
	for _, shape := range riskShapes {
		for _, x := range []int{1, 10, 100} {
			b.Run(fmt.Sprintf("%s/x=%d", shape, x), func(b *testing.B) {
				old, s := scaleSides(b, shape, x)
				b.ReportAllocs()
				for b.Loop() {
					o, n := *old, *s
					o.Graph, n.Graph = reach.New(old.Policy), reach.New(s.Policy)
					if err := diff.Write(io.Discard, "human", diff.Compare(&o, &n)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
