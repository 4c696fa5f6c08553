package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// reference is the canonical form as docs/policy.md defines it, computed
// the plain way: decode into Go values with numbers kept as written, drop
// the digest, and let encoding/json write the values back (it sorts map
// keys). seal must agree with it on every document whose names are not
// repeated.
func reference(doc []byte) ([]byte, error) {
	if !json.Valid(doc) {
		return nil, errors.New("not JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if v == nil {
		return nil, errors.New("not an object")
	}
	delete(v, "digest")
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// oddJSON are documents that need care: white space everywhere, escapes
// in names and strings, names that sort differently escaped, nested empty
// containers, numbers in every notation, a digest that is not a string.
var oddJSON = []string{
	`{}`,
	` { "b" : [ 1 , 2.50 , -1e2 , 1E+2 , 0.0 ] , "a" : { } , "c" : [ ] , "digest" : 3 } `,
	"{\"z\":1,\"\\u0061\":2,\"\\n\":3,\"é\":4,\"\\u00e9x\":5,\"~\":6,\"\\\\\":7,\"\\\"\":8}",
	`{"s":"<&>\u003c\/\u2028\u2029\u007f\t\u0000 \ud83d\ude00 \ud800 x","t":"caf\u00e9","u":"\"\\"}`,
	`{"a":[{"z":[{"y":null,"x":true}],"w":false},[[],[{}]]],"digest":"sha256:00","policy_version":1}`,
	`{"n":{"digest":1,"b":2,"a":3}}`,
	`{"digest":"x","b":{"d":[1,{"f":2,"e":3}],"c":4},"a":5}`,
	`{"a":1,"digest":"x"}`,
	`{"digest":"x"}`,
	"{\"bad\":\"\xff\xfe\",\"\xc3\":\"\xe2\x80\xa8\"}",
}

// TestCanonicalMatchesReference holds seal to the plain computation on
// every golden policy, written compact and indented, and on odd documents.
func TestCanonicalMatchesReference(t *testing.T) {
	var docs [][]byte
	for _, path := range goldenPaths(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, data, compact.Bytes())
	}
	for _, s := range oddJSON {
		docs = append(docs, []byte(s))
	}
	for _, doc := range docs {
		want, err := reference(doc)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if got, err := Canonical(doc); err != nil || !bytes.Equal(got, want) {
			t.Errorf("the canonical form of\n%s\nis\n%s\nseal writes\n%s (%v)", doc, want, got, err)
		}
	}
}

// TestCanonicalRefuses: not one object, or a name repeated in an object.
func TestCanonicalRefuses(t *testing.T) {
	for _, doc := range []string{``, `null`, `[]`, `"x"`, `1`, `{"a":1}{}`, `{"a":1`, `{"a":1,"a":2}`,
		`{"x":{"a":1,"b":2,"\u0061":3}}`, `{"digest":"a","digest":"b"}`} {
		if c, err := Canonical([]byte(doc)); err == nil {
			t.Errorf("Canonical(%s) = %s, want an error", doc, c)
		}
	}
}

// FuzzCanonical compares seal with the plain computation on arbitrary
// bytes: where one gives a canonical form the other gives the same, or
// refuses a repeated name.
func FuzzCanonical(f *testing.F) {
	for _, s := range oddJSON {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, err := Canonical(doc)
		want, refErr := reference(doc)
		switch {
		case err == nil && refErr != nil:
			t.Fatalf("seal accepts what encoding/json refuses (%v):\n%q", refErr, doc)
		case err == nil && !bytes.Equal(got, want):
			t.Fatalf("for %q seal writes\n%s\nthe canonical form is\n%s", doc, got, want)
		case err != nil && refErr == nil && !strings.Contains(err.Error(), "is repeated"):
			t.Fatalf("seal refuses %q: %v", doc, err)
		}
	})
}

// TestMarshalIsCanonical: the digest Marshal writes is the digest of the
// written document's canonical form, and the document parses back.
func TestMarshalIsCanonical(t *testing.T) {
	d := &Document{PolicyVersion: Version, EntryAgent: "a", Agents: map[string]*Agent{"a": {GateLabel: "a"}},
		Toolsets: map[string]*Toolset{}}
	out, err := Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	digest, err := DigestOf(out)
	if err != nil || digest != d.Digest {
		t.Fatalf("written digest %s, content digest %s (%v)", d.Digest, digest, err)
	}
	if !strings.HasSuffix(string(out), "\n  \"digest\": \""+digest+"\"\n}\n") {
		t.Errorf("the document does not end with its digest:\n%s", out)
	}
}

// TestMarshalLayout: the written file is the canonical form with the
// digest last, indented two spaces a level, whatever the content.
func TestMarshalLayout(t *testing.T) {
	for i, d := range append(goldenDocuments(t), oddDocument()) {
		out, err := Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Canonical(out)
		if err != nil {
			t.Fatal(err)
		}
		want := append(bytes.TrimSuffix(c, []byte("}")), []byte(`,"digest":"`+d.Digest+`"}`)...)
		var laid bytes.Buffer
		if err := json.Indent(&laid, want, "", "  "); err != nil {
			t.Fatal(err)
		}
		laid.WriteByte('\n')
		if !bytes.Equal(out, laid.Bytes()) {
			t.Errorf("document %d: Marshal does not write the indented canonical form:\n%s", i, out)
		}
		// Writing what was read gives the same bytes.
		var back Document
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		again, err := Marshal(&back)
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("document %d: writing it again gives other bytes (%v)", i, err)
		}
	}
}

// TestGoldenPoliciesVerify: every golden policy carries the digest of its
// own content.
func TestGoldenPoliciesVerify(t *testing.T) {
	paths := goldenPaths(t)
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var head struct{ Digest string }
		if err := json.Unmarshal(data, &head); err != nil {
			t.Fatal(err)
		}
		if got, err := DigestOf(data); err != nil || got != head.Digest {
			t.Errorf("%s: digest %s, content digest %s (%v)", path, head.Digest, got, err)
		}
	}
}

func goldenPaths(t testing.TB) []string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "compile", "*", "want.json"))
	if len(paths) == 0 {
		t.Fatal("no golden policies")
	}
	return paths
}

func goldenDocuments(t testing.TB) []*Document {
	t.Helper()
	var out []*Document
	for _, path := range goldenPaths(t) {
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

// oddDocument holds strings and numbers that need care: escapes, HTML,
// line separators, floats in both notations, nulls.
func oddDocument() *Document {
	d := &Document{
		Agents:       map[string]*Agent{"é<&>": {GateLabel: "a\"b\\c\n\t\r\b\f\x01\x1f\u2028\u2029/"}, "nil": nil},
		AutoApproval: AutoApproval{TimeoutSeconds: 1e-7, MaxPerTurn: -3},
		Toolsets:     map[string]*Toolset{"t": {Tools: []Tool{{Name: "x"}}}},
		TrustOrder:   []string{},
	}
	d.Agents["é<&>"].ToolBlock = &ToolBlock{SavedPercent: 1e21}
	return d
}

// FuzzMarshalSeals writes documents holding arbitrary strings and numbers:
// the digest Marshal sets is always the one the loader computes from the
// written bytes, and the bytes read back as the same document.
func FuzzMarshalSeals(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"uote", "\x00\x7f\u00e9\u2028", "\xff\xfe", "<a&b>"} {
		f.Add(s, 1.5)
	}
	f.Fuzz(func(t *testing.T, s string, x float64) {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return // encoding/json refuses these; a policy never holds one
		}
		d := &Document{Compiler: s, EntryAgent: s, CoreTools: []string{s}, AutoApproval: AutoApproval{TimeoutSeconds: x},
			Agents: map[string]*Agent{s: {GateLabel: s}}}
		out, err := Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if digest, err := DigestOf(out); err != nil || digest != d.Digest {
			t.Fatalf("Marshal sets digest %s, the written bytes have %s (%v):\n%s", d.Digest, digest, err, out)
		}
		if !utf8.ValidString(s) {
			return // invalid UTF-8 is written as U+FFFD; no config lets it in
		}
		var back Document
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&back, d) {
			t.Fatalf("read back as %+v, written from %+v", back, *d)
		}
	})
}

// TestRepeatedMember: a repeated name is a *RepeatedMemberError naming
// the member, decoded, and where its first repeat starts, at any depth
// and whatever the order of the members.
func TestRepeatedMember(t *testing.T) {
	for _, c := range []struct {
		doc  string
		name string
		at   string // the text the offset points at
	}{
		{`{"a":1,"a":2}`, "a", `"a":2}`},
		{`{"b":1,"a":2,"b":3,"a":4,"b":5}`, "b", `"b":3,"a":4,"b":5}`},
		{`{"x":{"z":1,"a":1,"b":2,"\u0061":3}}`, "a", `"\u0061":3}}`},
		{`{"l":[{"q":1},{"q":1,"q":2}],"l":[]}`, "q", `"q":2}],"l":[]}`},
		{`{"digest":"a","digest":"b"}`, "digest", `"digest":"b"}`},
		{`{"signature":1, "signature":2}`, "signature", `"signature":2}`},
		{`{"unattended":true,"unattended":false}`, "unattended", `"unattended":false}`},
	} {
		_, err := Canonical([]byte(c.doc))
		var rep *RepeatedMemberError
		if !errors.As(err, &rep) {
			t.Errorf("%s: %v, want a *RepeatedMemberError", c.doc, err)
			continue
		}
		if rep.Name != c.name || c.doc[rep.Offset:] != c.at || !strings.Contains(rep.Error(), `"`+c.name+`" is repeated`) {
			t.Errorf("%s: %q at %q (%v), want %q at %q", c.doc, rep.Name, c.doc[rep.Offset:], rep, c.name, c.at)
		}
	}
}
