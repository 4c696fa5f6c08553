package lsp

import (
	"fmt"
	"testing"
	"time"

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

// BenchmarkScaleCodeActions is one code action request at a cursor on a
// document of 200, 2,000 and 20,000 findings with a fix each (bare
// "run_command" entries, bareEntries), "fix all" included: the request
// an editor makes at each cursor move. The first request of the version
// makes what the others share (actionIndex) and is not timed; a request
// then costs the findings at the cursor, not the file (issue 37: 2 to
// 6 s at 20,000). docs/benchmarks.md, "The shapes of issue 37".
func BenchmarkScaleCodeActions(b *testing.B) {
	for _, x := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("x=%d", x), func(b *testing.B) {
			c, _ := start(b, Options{}, nil)
			c.patience = 10 * time.Minute
			u := fileURI(b, "config.toml")
			ds := c.open(u, bareEntries(200*x))
			if len(ds) < 200*x {
				b.Fatalf("%d findings", len(ds))
			}
			c.actions(u, ds[0].Range)
			i := 0
			for b.Loop() {
				i = (i + 97) % len(ds)
				if n := len(c.actions(u, ds[i].Range)); n != 2 {
					b.Fatalf("%d actions at %v, want a quick fix and fix all", n, ds[i].Range)
				}
			}
		})
	}
}

// BenchmarkScaleFixAll is the language server on the shape of issue 37
// whose findings each have a fix: a document of 1,000, 10,000 and 100,000
// bare "run_command" entries (bareEntries) edited, its diagnostics
// published, and a code action requested at a cursor, which makes "fix
// all" for the new version (lint.Fix, round by round, and the edits that
// turn the text into the fixed one). The edit alternately adds and takes
// out a comment line at the top, so each round is a new version of the
// same size. docs/benchmarks.md, "The shapes of issue 37".
func BenchmarkScaleFixAll(b *testing.B) {
	for _, x := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("x=%d", x), func(b *testing.B) {
			c, _ := start(b, Options{}, nil)
			c.patience = 10 * time.Minute
			u := fileURI(b, "config.toml")
			c.open(u, bareEntries(1000*x))
			top, line := Range{}, Range{End: Position{Line: 1}}
			cursor := Range{Start: Position{Line: 5, Character: 3}, End: Position{Line: 5, Character: 3}}
			version := int32(1)
			b.ReportAllocs()
			for b.Loop() {
				version++
				if version%2 == 0 {
					c.change(u, version, top, "# edited\n")
				} else {
					c.change(u, version, line, "")
				}
				all := 0
				for _, a := range c.actions(u, cursor) {
					if a.Kind == sourceFixAll {
						all++
					}
				}
				if all != 1 {
					b.Fatalf("version %d: %d fix-all actions, want 1", version, all)
				}
			}
		})
	}
}
