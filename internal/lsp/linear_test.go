package lsp

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
)

// TestRangerAgreesWithRangeOf holds the walker that turns sorted findings'
// spans into ranges to the plain conversion, for positions in order, out
// of order, past a line's end and inside multi-byte and astral characters,
// in every encoding.
func TestRangerAgreesWithRangeOf(t *testing.T) {
	tx := newText("a = [\"é\", \"😀x\", 1]\r\n\nb = \"\tß\"\nlast")
	var spans []diag.Span
	for l1 := 0; l1 <= 5; l1++ {
		for c1 := 0; c1 <= 22; c1 += 3 {
			for l2 := 0; l2 <= 5; l2 += 2 {
				for c2 := 0; c2 <= 22; c2 += 5 {
					spans = append(spans, diag.Span{Start: diag.Position{Line: l1, Column: c1}, End: diag.Position{Line: l2, Column: c2}})
				}
			}
		}
	}
	shuffled := append([]diag.Span(nil), spans...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, e := range []Encoding{UTF8, UTF16, UTF32} {
		for _, order := range [][]diag.Span{spans, shuffled} {
			rg := newRanger(tx, e)
			for _, s := range order {
				from, to, got := rg.span(s)
				want := tx.rangeOf(s, e)
				wantFrom, wantTo := tx.diagOffset(s.Start), tx.diagOffset(s.End)
				if s.IsZero() {
					wantFrom, wantTo = 0, 0
				}
				if s.End.IsZero() || wantTo < wantFrom {
					wantTo = wantFrom
				}
				if got != want || from != wantFrom || to != wantTo {
					t.Errorf("%s: span %v: %v [%d, %d], want %v [%d, %d]", e, s, got, from, to, want, wantFrom, wantTo)
				}
			}
		}
	}
}

// TestPublishedDiagnosticsGrowLinearly opens configs of n and 10n pending
// dead entries under a toolset n agents could load (issue 18: at 3,000 one
// publishDiagnostics was 79 MB, every finding naming every agent): ten
// times the findings may publish at most twelve times the bytes.
func TestPublishedDiagnosticsGrowLinearly(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	size := func(n int) int {
		u := fileURI(t, "config.toml")
		got := c.open(u, string(gen.PendingDeadEntries(n, n)))
		if len(got) < n {
			t.Fatalf("%d diagnostics for %d dead entries", len(got), n)
		}
		c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
		data, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		return len(data)
	}
	small, large := size(30), size(300)
	if large > 12*small {
		t.Errorf("300 findings published %d bytes, %.1f times the %d of 30: more than linear", large, float64(large)/float64(small), small)
	}
}
