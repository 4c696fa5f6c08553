package manifest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/hostile"
)

// problemsOf loads a manifest that must be refused and returns its
// problems as "line:column: message".
func problemsOf(t *testing.T, doc string) []string {
	t.Helper()
	m, problems := Load("m.json", []byte(doc))
	if m != nil || len(problems) == 0 {
		t.Fatalf("the manifest was accepted:\n%.200s", doc)
	}
	var out []string
	for _, p := range problems {
		out = append(out, fmt.Sprintf("%d:%d: %s", p.Span.Start.Line, p.Span.Start.Column, p.Message))
	}
	return out
}

// TestDuplicateMembers: a member written twice is reported at its second
// name, in small objects (searched) and large ones (a set) alike, and only
// the repeats are.
func TestDuplicateMembers(t *testing.T) {
	for _, extra := range []int{0, 20} {
		var b strings.Builder
		b.WriteString("{\n\"manifest_version\": 1,\n\"toolsets\": [],\n")
		for i := range extra {
			fmt.Fprintf(&b, "\"x%d\": 1,\n", i)
		}
		b.WriteString("\"toolsets\": []\n}\n")
		got := problemsOf(t, b.String())
		var twice []string
		for _, p := range got {
			if strings.Contains(p, "twice") {
				twice = append(twice, p)
			}
		}
		want := fmt.Sprintf("%d:1: the manifest has \"toolsets\" twice", 4+extra)
		if len(twice) != 1 || twice[0] != want {
			t.Errorf("with %d other members: %q, want [%q]", extra, twice, want)
		}
		if len(got) != extra+1 {
			t.Errorf("with %d other members: %d problems, want one a member and the repeat", extra, len(got))
		}
	}
}

// TestNameLimit: toolset and tool names longer than MaxNameBytes are
// refused at the name; names at the limit are read.
func TestNameLimit(t *testing.T) {
	long := strings.Repeat("n", MaxNameBytes+1)
	doc := func(toolset, tool string) string {
		return fmt.Sprintf(`{"manifest_version": 1, "toolsets": [{"name": %q, "kind": "plugin", "description": "d", "tools": [{"name": %q}]}]}`, toolset, tool)
	}
	want := fmt.Sprintf("1:47: toolsets[0].name is %d bytes long; kokua-lint reads toolset and tool names of at most %d bytes", MaxNameBytes+1, MaxNameBytes)
	if got := problemsOf(t, doc(long, "t")); len(got) != 1 || got[0] != want {
		t.Errorf("a long toolset name: %q, want [%q]", got, want)
	}
	got := problemsOf(t, doc("s", long))
	if len(got) != 1 || !strings.Contains(got[0], fmt.Sprintf(`toolset "s".tools[0].name is %d bytes long`, MaxNameBytes+1)) {
		t.Errorf("a long tool name: %q", got)
	}
	if m, problems := Load("m.json", []byte(doc(long[1:], long[1:]))); m == nil {
		t.Errorf("names of %d bytes were refused: %v", MaxNameBytes, problems)
	}
}

// TestReaderLimits: JSON past the reader's limits is one problem at the
// place the limit is passed, saying it is a limit, not invalid JSON.
func TestReaderLimits(t *testing.T) {
	deep := `{"manifest_version": 1, "toolsets": ` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + "}"
	got := problemsOf(t, deep) // the object is the first level: the 10,000th [ passes the limit
	want := "1:10036: the manifest is beyond kokua-lint's limits: arrays and objects nest more than 10000 deep here; the reader goes no deeper"
	if len(got) != 1 || got[0] != want {
		t.Errorf("%q, want [%q]", got, want)
	}
}

// TestNameCharacters: a toolset or a tool name is read as Kokua registers
// it (issue 20): white space ("my wiki", an MCP server Kokua registers),
// letters of any script, and even control, bidirectional or invisible
// characters, which every output escapes; only an empty name is refused.
// (Before, issue 13 refused white space and those characters here, so
// "my wiki" was invalid-manifest: "a name is one word".)
func TestNameCharacters(t *testing.T) {
	doc := func(toolset, tool string) string {
		return fmt.Sprintf(`{"manifest_version": 1, "toolsets": [{"name": %s, "kind": "mcp", "description": "d", "tools": [{"name": %s}]}]}`, hostile.JSONString(toolset), hostile.JSONString(tool))
	}
	for _, good := range []string{"my wiki", "two  spaces", "tab\tname", "café", "日本語", "mcp-files_2", "files.v2",
		"esc\x1b[31m", "lf\n::error file=x::forged", "rtl\u202eevil", "zero\u200bwidth", "del\x7f"} {
		m, problems := Load("m.json", []byte(doc(good, good)))
		if m == nil {
			t.Errorf("name %q refused: %v", good, problems)
			continue
		}
		if m.Toolsets[0].Name != good || m.Toolsets[0].Tools[0].Name != good {
			t.Errorf("name %q read as %q and %q", good, m.Toolsets[0].Name, m.Toolsets[0].Tools[0].Name)
		}
	}
	for _, c := range []struct{ toolset, tool, want string }{
		{"", "t", "toolsets[0].name is empty"},
		{"s", "", `toolset "s".tools[0].name is empty`},
	} {
		if got := problemsOf(t, doc(c.toolset, c.tool)); len(got) != 1 || !strings.Contains(got[0], c.want) {
			t.Errorf("%q/%q: %q, want one problem with %q", c.toolset, c.tool, got, c.want)
		}
	}
}
