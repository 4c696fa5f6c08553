package manifest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestCanonical: texts that hold the same value, however spaced, ordered
// or escaped, have one canonical form; the canonical form is its own, and
// carries no rune a terminal would act on.
func TestCanonical(t *testing.T) {
	same := [][]string{
		{`{"b":1,"a":[true,null]}`, "{ \"a\" : [ true , null ] ,\n \"b\" : 1 }", `{"\u0061":[true,null],"b":1}`},
		{`"<tag> & \u202e"`, "\"<tag> & \u202e\"", `"\u003ctag\u003e \u0026 \u202E"`},
		{`{"a":1,"a":2}`, `{"a":2}`},
	}
	for _, group := range same {
		want, err := Canonical([]byte(group[0]))
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range group[1:] {
			got, err := Canonical([]byte(text))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("Canonical(%s) = %s (%v), want %s", text, got, err, want)
			}
		}
		again, _ := Canonical(want)
		if !bytes.Equal(again, want) {
			t.Errorf("Canonical is not its own: %s, then %s", want, again)
		}
	}
	if got, _ := Canonical([]byte(`{"n":1.50,"m":1e3}`)); string(got) != `{"m":1e3,"n":1.50}` {
		t.Errorf("numbers are not kept as written: %s", got)
	}
	if got, _ := Canonical([]byte("\"\u202e\x7f\"")); string(got) != `"\u202e\u007f"` {
		t.Errorf("unsafe runes are not escaped: %s", got)
	}
	for _, bad := range []string{``, `{`, `{} {}`, `nul`} {
		if _, err := Canonical([]byte(bad)); err == nil {
			t.Errorf("Canonical(%q) read it", bad)
		}
	}
}

// FuzzCanonical: whatever Canonical reads, its canonical form is valid
// JSON of the same value and its own canonical form.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null]}`, `"\u202e<&>"`, `[1.0e5,-0,"x"]`, `{"a":{"b":{"c":[]}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Canonical(data)
		if err != nil {
			return
		}
		if !json.Valid(c) {
			t.Fatalf("Canonical(%q) = %q, not JSON", data, c)
		}
		again, err := Canonical(c)
		if err != nil || !bytes.Equal(again, c) {
			t.Fatalf("Canonical(%q) = %q, then %q (%v)", data, c, again, err)
		}
	})
}

// digestManifest is a manifest of one MCP toolset with one tool whose
// spec is spec, with the tool's and the toolset's digests as given.
func digestManifest(spec, toolDigest, toolsetDigest string) string {
	tool := `{"name": "edit_page", "spec": ` + spec
	if toolDigest != "" {
		tool += `, "digest": "` + toolDigest + `"`
	}
	tool += `}`
	ts := `{"name": "wiki", "kind": "mcp", "description": "", `
	if toolsetDigest != "" {
		ts += `"digest": "` + toolsetDigest + `", `
	}
	return `{"manifest_version": 1, "toolsets": [` + ts + `"tools": [` + tool + `]}]}`
}

// TestDigestsRead: a tool's digest must be its spec's, and a toolset's
// its tools'; either, wrong or malformed, is a problem at the digest,
// since a pinned manifest whose spec was edited after its digest was
// taken would pin nothing.
func TestDigestsRead(t *testing.T) {
	spec := `{"name": "edit_page", "description": "Edit a page.", "parameters": {"type": "object"}}`
	toolDigest, err := SpecDigest([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	tsDigest := ToolsetDigest([]ToolDigest{{Name: "edit_page", Digest: toolDigest}})
	m, problems := Load("m.json", []byte(digestManifest(spec, toolDigest, tsDigest)))
	if len(problems) > 0 {
		t.Fatalf("the right digests are refused: %v", problems)
	}
	if m.Toolsets[0].Digest != tsDigest || m.Toolsets[0].Tools[0].Digest != toolDigest {
		t.Errorf("digests read as %q and %q", m.Toolsets[0].Digest, m.Toolsets[0].Tools[0].Digest)
	}
	// The same spec written otherwise has the same digest.
	respaced := `{"parameters":{"type":"object"},"name":"edit_page","description":"Edit a page."}`
	if _, problems := Load("m.json", []byte(digestManifest(respaced, toolDigest, tsDigest))); len(problems) > 0 {
		t.Errorf("the spec written otherwise is refused: %v", problems)
	}
	edited := strings.Replace(spec, "Edit a page.", "Edit a page, and mail it out.", 1)
	zero := "sha256:" + strings.Repeat("0", 64)
	for _, c := range []struct{ name, text, at, says string }{
		{"spec edited", digestManifest(edited, toolDigest, ""), `"` + toolDigest + `"`, "is not the digest of its spec"},
		{"toolset digest stale", digestManifest(spec, toolDigest, zero), `"` + zero + `"`, "is not the digest of its tools"},
		{"tool digest dropped", digestManifest(spec, "", tsDigest), `"` + tsDigest + `"`, "is not the digest of its tools"},
		{"malformed", digestManifest(spec, "sha256:ABC", ""), `"sha256:ABC"`, "is not a digest"},
		{"another algorithm", digestManifest(spec, "md5:"+strings.Repeat("0", 32), ""), `"md5:`, "is not a digest"},
		{"digest without spec", strings.Replace(digestManifest(`{}`, zero, ""), `"spec": {}, `, "", 1), `"` + zero + `"`, "has a digest and no spec"},
	} {
		_, problems := Load("m.json", []byte(c.text))
		if len(problems) != 1 {
			t.Errorf("%s: %d problems, want 1: %v", c.name, len(problems), problems)
			continue
		}
		p := problems[0]
		if got := c.text[p.Span.Start.Offset:p.Span.End.Offset]; !strings.HasPrefix(got, c.at) || !strings.Contains(p.Message, c.says) {
			t.Errorf("%s: %q at %q, want %q at %q", c.name, p.Message, got, c.says, c.at)
		}
	}
}
