package lsp

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
)

// TestRangesOnOneLongLine opens hundreds of dead entries on one line, each
// holding characters of one, two and four UTF-16 units, in each encoding,
// and holds the range of every published diagnostic to the protocol
// position counted the plain way: the units of the line up to the
// finding's byte offset. Each range is one lookup in the document's line
// index, which decodes at most a checkpoint's bytes (lineindex's
// TestIndexAgreesWithScanning holds that bound), so the findings of a
// line cost time in proportion to their number (issue 18), not to their
// number times the line.
func TestRangesOnOneLongLine(t *testing.T) {
	text := strings.ReplaceAll(string(gen.DeadLine(300)), `"time.x`, `"time.é🦀x`)
	want := lintText("config.toml", text).Diagnostics
	if len(want) < 300 {
		t.Fatalf("%d findings, want at least 300", len(want))
	}
	plain := func(off int, e Encoding) Position {
		start := strings.LastIndexByte(text[:off], '\n') + 1
		col := len(text[start:off])
		switch e {
		case UTF16:
			col = len(utf16.Encode([]rune(text[start:off])))
		case UTF32:
			col = utf8.RuneCountInString(text[start:off])
		}
		return Position{Line: uint32(strings.Count(text[:off], "\n")), Character: uint32(col)}
	}
	for _, e := range []Encoding{UTF16, UTF8, UTF32} {
		c, _ := start(t, Options{}, map[string]any{"capabilities": map[string]any{"general": map[string]any{"positionEncodings": []Encoding{e}}}})
		u := fileURI(t, "config.toml")
		got := c.open(u, text)
		if len(got) != len(want) {
			t.Fatalf("%s: %d diagnostics, want %d", e, len(got), len(want))
		}
		for i, w := range want {
			if w.Span.File != "config.toml" {
				continue
			}
			r := Range{Start: plain(w.Span.Start.Offset, e), End: plain(w.Span.End.Offset, e)}
			if got[i].Range != r {
				t.Fatalf("%s: diagnostic %d (%s at %v): range %v, want %v", e, i, w.Rule, w.Span, got[i].Range, r)
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
