package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/policy"
)

// TestSpecBytesRange: a tool's spec_bytes (R163) is a whole number of bytes
// from 0 to policy.MaxSpecBytes, the most a compiled policy carries. A
// value outside that range, or not written as an integer, is one problem
// at the value, naming the range as kokua-compile's refusal does (issue 13,
// Why 5: a spec_bytes near 2^63 overflowed the tool-block sums); a value
// in the range is read.
func TestSpecBytesRange(t *testing.T) {
	if policy.MaxSpecBytes != 1073741824 {
		t.Fatalf("policy.MaxSpecBytes is %d: the messages below, docs/manifest.md and docs/benchmarks.md say 1073741824", policy.MaxSpecBytes)
	}
	const outside = " is not between 0 and 1073741824, the largest spec size a compiled policy carries"
	thirty := "123456789012345678901234567890"
	long := strings.Repeat("9", 1000)
	for _, c := range []struct {
		value string
		want  string // the message, or "" when the value is read
		size  int    // the size read
	}{
		{value: "0", size: 0},
		{value: "-0", size: 0},
		{value: "500", size: 500},
		{value: "1073741824", size: 1073741824},
		{value: "1073741825", want: "1073741825" + outside},
		{value: "-1", want: "-1" + outside},
		{value: "9223372036854775807", want: "9223372036854775807" + outside},
		{value: "9223372036854775808", want: "9223372036854775808" + outside},
		{value: thirty, want: thirty + outside},
		{value: "-" + thirty, want: "-" + thirty + outside},
		{value: long, want: strings.Repeat("9", 30) + "... (1000 characters)" + outside},
		{value: "1.5", want: "1.5 is not a whole number of bytes"},
		{value: "500.0", want: "500.0 is not a whole number of bytes"},
		{value: "1e3", want: "1e3 is not a whole number of bytes"},
		{value: "-2E+2", want: "-2E+2 is not a whole number of bytes"},
		{value: `"500"`, want: "must be a whole number of bytes, not a string"},
		{value: "true", want: "must be a whole number of bytes, not a boolean"},
		{value: "null", want: "must be a whole number of bytes, not null"},
		{value: "[500]", want: "must be a whole number of bytes, not an array"},
	} {
		for _, at := range []struct{ where, doc string }{
			{`toolset "fs".tools[1]`, `{"manifest_version": 1, "toolsets": [{"name": "fs", "kind": "kokua", "description": "d", ` +
				`"tools": [{"name": "list_directory"}, {"name": "read_file", "spec_bytes": %s}]}]}`},
			{`core_tools[0]`, "{\"manifest_version\": 1,\n \"toolsets\": [],\n \"core_tools\": [{\"name\": \"load_tools\",\n   \"spec_bytes\": %s}]}"},
		} {
			doc := fmt.Sprintf(at.doc, c.value)
			m, problems := Load("m.json", []byte(doc))
			if c.want == "" {
				if m == nil {
					t.Errorf("%s %s refused: %v", at.where, c.value, problems)
					continue
				}
				tools := m.CoreTools
				if len(m.Toolsets) > 0 {
					tools = m.Toolsets[0].Tools[1:]
				}
				if got := tools[0].SpecBytes; got != c.size {
					t.Errorf("%s %s: SpecBytes %d, want %d", at.where, c.value, got, c.size)
				}
				continue
			}
			if m != nil || len(problems) != 1 {
				t.Errorf("%s %s: manifest %v, problems %v; want one problem", at.where, c.value, m != nil, problems)
				continue
			}
			p := problems[0]
			want := at.where + ".spec_bytes " + c.want
			if p.Message != want {
				t.Errorf("%s %s:\n got %q\nwant %q", at.where, c.value, p.Message, want)
			}
			// The span is the value itself, on its line.
			lines := strings.Split(doc, "\n")
			line := len(lines)
			col := strings.Index(lines[line-1], `"spec_bytes": `) + len(`"spec_bytes": `) + 1
			if p.Span.File != "m.json" || p.Span.Start.Line != line || p.Span.Start.Column != col ||
				p.Span.End.Line != line || p.Span.End.Column != col+len(c.value) {
				t.Errorf("%s %s: span %+v, want line %d columns %d-%d", at.where, c.value, p.Span, line, col, col+len(c.value))
			}
		}
	}
}

// TestSpecBytesFromSpec: without spec_bytes, a tool's size is the length
// of its spec's compact JSON, and with neither it is unknown (-1).
func TestSpecBytesFromSpec(t *testing.T) {
	doc := `{"manifest_version": 1, "toolsets": [{"name": "fs", "kind": "kokua", "description": "d", "tools": [` +
		`{"name": "read_file", "spec": {"name": "read_file",  "parameters": {}}}, {"name": "list_directory"}]}]}`
	m, problems := Load("m.json", []byte(doc))
	if m == nil {
		t.Fatal(problems)
	}
	tools := m.Toolsets[0].Tools
	if want := len(`{"name":"read_file","parameters":{}}`); tools[0].SpecBytes != want || tools[1].SpecBytes != -1 {
		t.Errorf("SpecBytes %d and %d, want %d and -1", tools[0].SpecBytes, tools[1].SpecBytes, want)
	}
}

// TestSpecBytesDoc: the finding docs/manifest.md shows for a spec_bytes
// out of range is the one the reader gives for the manifest of the golden
// case testdata/lint/invalid-manifest--fail-spec-bytes-out-of-range, as
// kokua-lint prints it.
func TestSpecBytesDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "lint", "invalid-manifest--fail-spec-bytes-out-of-range", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "manifest.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, problems := Load("manifest.json", data)
	if len(problems) == 0 {
		t.Fatal("the golden case's manifest was read")
	}
	p := problems[0]
	want := fmt.Sprintf("\n```text\n%s:%d:%d: error: manifest: %s [invalid-manifest]\n```\n", p.Span.File, p.Span.Start.Line, p.Span.Start.Column, p.Message)
	if !strings.Contains(p.Message, "9223372036854775000") || !strings.Contains(string(doc), want) {
		t.Errorf("docs/manifest.md should show the finding%s", want)
	}
}

// TestNamesDoc: the finding docs/manifest.md shows for a toolset named
// with a space is a line of the golden case it links,
// testdata/lint/entry-shape--fail-toolset-name-with-space, whose want.txt
// TestGolden holds to what kokua-lint prints.
func TestNamesDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "manifest.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "lint", "entry-shape--fail-toolset-name-with-space", "want.txt"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "**Names.**")
	if !ok {
		t.Fatal("docs/manifest.md has no **Names.** paragraph")
	}
	_, block, ok := strings.Cut(section, "```text\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 || strings.TrimSpace(block) == "" {
		t.Fatal("the **Names.** paragraph shows no finding")
	}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		if !strings.Contains(string(want), line+"\n") {
			t.Errorf("docs/manifest.md shows %q, which kokua-lint does not print for the golden case", line)
		}
	}
}
