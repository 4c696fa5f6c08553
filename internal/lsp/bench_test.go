package lsp

import (
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/lint"
)

// The speed target (docs/benchmarks.md): one edit-to-diagnostics round on
// the shipped config within 2 ms in process, so that typing never waits.
// A round is what the editor sees: a didChange notification encoded,
// framed and sent over a pipe, the edit applied, the config linted, and
// the publishDiagnostics notification written back and decoded by the
// client. The debounce is off: it is a wait, not work.

// benchRound types and deletes one character inside a string of the
// config, alternately, waiting for the diagnostics of each version.
func benchRound(b *testing.B, opts Options, text, anchor string) {
	c, _ := start(b, opts, nil)
	u := fileURI(b, "config.toml")
	if ds := c.open(u, text); len(ds) > 0 && ds[0].Severity == SeverityError {
		b.Fatalf("the config should have no error: %+v", ds)
	}
	at := find(b, text, anchor, len(anchor))
	after := at
	after.Character++
	version := int32(1)
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		version++
		if version%2 == 0 {
			c.change(u, version, Range{Start: at, End: at}, "x")
		} else {
			c.change(u, version, Range{Start: at, End: after}, "")
		}
	}
}

// BenchmarkEditRound is one round on the shipped config, against the
// embedded default manifest, and on a generated config of 1000 agents
// over 200 toolsets (internal/testing/gen, 345 KB), against its manifest.
func BenchmarkEditRound(b *testing.B) {
	b.Run("shipped", func(b *testing.B) {
		benchRound(b, Options{}, shipped(b), `description = "`)
	})
	b.Run("agents=1000", func(b *testing.B) {
		text := string(gen.Config(1000, 200))
		m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(200)})
		benchRound(b, Options{Manifest: m}, text, `description = "`)
	})
}
