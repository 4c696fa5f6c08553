package policy

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// viaEncodingJSON is what encoding/json writes for a document, the
// reference the hand-written encoder must match byte for byte.
func viaEncodingJSON(t testing.TB, d *Document) []byte {
	t.Helper()
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(d); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}

func goldenDocuments(t testing.TB) []*Document {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "compile", "*", "want.json"))
	if len(paths) == 0 {
		t.Fatal("no golden policies")
	}
	var out []*Document
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var d Document
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, &d)
	}
	return out
}

func TestEncoderMatchesEncodingJSON(t *testing.T) {
	docs := goldenDocuments(t)
	// Strings and numbers that need care: escapes, HTML, line separators,
	// invalid UTF-8, floats in both notations, nulls.
	odd := &Document{
		Agents:       map[string]*Agent{"é<&>": {GateLabel: "a\"b\\c\n\t\r\b\f\x01\x1f\u2028\u2029\xff", NamesLine: nil}, "nil": nil},
		AutoApproval: AutoApproval{TimeoutSeconds: 1e-7, MaxPerTurn: -3},
		Toolsets:     map[string]*Toolset{"t": {Tools: []Tool{{Name: "x"}}}},
		TrustOrder:   []string{},
	}
	odd.Agents["é<&>"].ToolBlock = &ToolBlock{SavedPercent: 1e21}
	docs = append(docs, odd, &Document{}, &Document{AutoApproval: AutoApproval{TimeoutSeconds: 2.5}},
		&Document{AutoApproval: AutoApproval{TimeoutSeconds: math.Copysign(0, -1)}})
	for i, d := range docs {
		got := compact(d)
		if want := viaEncodingJSON(t, d); !bytes.Equal(got, want) {
			t.Errorf("document %d: the encoder writes\n%s\nencoding/json writes\n%s", i, got, want)
		}
		if bytes.Contains(got, []byte(`\ufffd`)) {
			continue // invalid UTF-8 reads back as U+FFFD itself; no input lets it in (see config)
		}
		laid, err := Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := Canonical(laid); err != nil || !bytes.Equal(c, got) {
			t.Errorf("document %d: Marshal's layout is not the canonical document (%v)", i, err)
		}
	}
}

func FuzzEncoderStrings(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"uote", "\x00\x7f\u00e9\u2028", "\xff\xfe", "<a&b>"} {
		f.Add(s, 1.5)
	}
	f.Fuzz(func(t *testing.T, s string, x float64) {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		d := &Document{Compiler: s, EntryAgent: s, CoreTools: []string{s}, AutoApproval: AutoApproval{TimeoutSeconds: x},
			Agents: map[string]*Agent{s: {GateLabel: s}}}
		got := compact(d)
		if want := viaEncodingJSON(t, d); !bytes.Equal(got, want) {
			t.Fatalf("the encoder writes %q, encoding/json %q", got, want)
		}
		if !utf8.ValidString(s) {
			return // invalid UTF-8 reads back as U+FFFD itself; no input lets it in (see config)
		}
		// The indented layout is the same document.
		laid, err := Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := Canonical(laid); err != nil || !bytes.Equal(c, got) {
			t.Fatalf("Marshal's layout is not the canonical document (%v):\n%s", err, laid)
		}
	})
}
