package lint

import (
	"bytes"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
)

// TestOutputGrowsLinearly writes the findings of each shape of issue 18
// (and of a chain of delegation cycles, whose messages once named every
// agent of each cycle) at
// n and 10n in every format: ten times the findings may write at most
// twelve times the bytes (each finding once named every agent, so 3,000
// unknown delegates wrote 80 MB).
func TestOutputGrowsLinearly(t *testing.T) {
	shapes := map[string]func(n int) ([]byte, *Manifest){
		"unknown delegates": func(n int) ([]byte, *Manifest) { return gen.UnknownDelegates(n), DefaultManifest() },
		"pending dead entries": func(n int) ([]byte, *Manifest) {
			return gen.PendingDeadEntries(n, n), DefaultManifest()
		},
		"dead entries on one line":     func(n int) ([]byte, *Manifest) { return gen.DeadLine(n), DefaultManifest() },
		"a chain of delegation cycles": func(n int) ([]byte, *Manifest) { return gen.DelegationChain(n), DefaultManifest() },
		"near-miss tool names": func(n int) ([]byte, *Manifest) {
			cfg, man := gen.NearMissManifest(n)
			return cfg, LoadManifest(Source{Name: "manifest.json", Data: man})
		},
	}
	const n = 40
	for name, shape := range shapes {
		for _, format := range Formats() {
			size := func(n int) int {
				cfg, m := shape(n)
				ds := Lint(Source{Name: "config.toml", Data: cfg}, m).Diagnostics
				if len(ds) < n {
					t.Fatalf("%s: %d findings for %d", name, len(ds), n)
				}
				var out bytes.Buffer
				if err := Write(&out, format, ds, WriteOptions{Sources: map[string][]byte{"config.toml": cfg}}); err != nil {
					t.Fatal(err)
				}
				return out.Len()
			}
			small, large := size(n), size(10*n)
			if large > 12*small {
				t.Errorf("%s, --format %s: %d findings wrote %d bytes, %.1f times the %d of %d",
					name, format, 10*n, large, float64(large)/float64(small), small, n)
			}
		}
	}
}

// TestWriteSARIFStreamsTheSameLog holds WriteSARIF, which writes the
// results one at a time into the encoded log, to the log toSARIF builds,
// indented: the same bytes, for findings with hostile names and for none.
func TestWriteSARIFStreamsTheSameLog(t *testing.T) {
	hostile, _ := hostileDiagnostics(t)
	for _, ds := range [][]diag.Diagnostic{nil, hostile} {
		var streamed, built bytes.Buffer
		if err := WriteSARIF(&streamed, ds); err != nil {
			t.Fatal(err)
		}
		if err := writeIndentedJSON(&built, toSARIF(ds)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(streamed.Bytes(), built.Bytes()) {
			t.Errorf("%d findings: WriteSARIF wrote %d bytes, the indented toSARIF log %d, and they differ", len(ds), streamed.Len(), built.Len())
		}
	}
}
