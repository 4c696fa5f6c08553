package tomlpos

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestPath checks the key path of every kind of node: tables made by
// headers and by dotted keys, values, inline tables, array elements and
// the tables of an array of tables (which have their array's path).
func TestPath(t *testing.T) {
	src := "top = 1\n" +
		"[agents.coder.tools]\n" +
		"available = [\"fs\", [\"x\"]]\n" +
		"a.b.c = { d = 1, e.f = 2 }\n" +
		"[[mcp.server]]\n" +
		"name = \"one\"\n" +
		"[[mcp.server]]\n" +
		"name = \"two\"\n"
	root, err := Parse("c.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	avail := root.Lookup("agents", "coder", "tools", "available")
	servers := root.Lookup("mcp", "server")
	inline := root.Lookup("agents", "coder", "tools", "a", "b", "c")
	tests := []struct {
		name string
		node *Node
		want []string
	}{
		{"root", root, nil},
		{"top-level value", root.Get("top"), []string{"top"}},
		{"implicit table", root.Get("agents"), []string{"agents"}},
		{"header table", root.Lookup("agents", "coder", "tools"), []string{"agents", "coder", "tools"}},
		{"array", avail, []string{"agents", "coder", "tools", "available"}},
		{"array element", avail.Items[0], []string{"agents", "coder", "tools", "available"}},
		{"element of a nested array", avail.Items[1].Items[0], []string{"agents", "coder", "tools", "available"}},
		{"dotted-key table", root.Lookup("agents", "coder", "tools", "a", "b"), []string{"agents", "coder", "tools", "a", "b"}},
		{"inline table", inline, []string{"agents", "coder", "tools", "a", "b", "c"}},
		{"key in an inline table", inline.Get("d"), []string{"agents", "coder", "tools", "a", "b", "c", "d"}},
		{"dotted key in an inline table", inline.Lookup("e", "f"), []string{"agents", "coder", "tools", "a", "b", "c", "e", "f"}},
		{"array of tables", servers, []string{"mcp", "server"}},
		{"its second table", servers.Items[1], []string{"mcp", "server"}},
		{"a key of that table", servers.Items[1].Get("name"), []string{"mcp", "server", "name"}},
	}
	for _, tt := range tests {
		if got := tt.node.Path(); !slices.Equal(got, tt.want) || (tt.want == nil) != (got == nil) {
			t.Errorf("%s: Path() = %q, want %q", tt.name, got, tt.want)
		}
	}
	// Each call gives a path of its own: changing one changes no node.
	p := avail.Path()
	p[0] = "changed"
	if got := avail.Path()[0]; got != "agents" {
		t.Errorf("a caller's change to a returned path reached the tree: %q", got)
	}
}

// TestDeepKeysShareTheirPaths: a header of 20,000 dotted segments makes
// 20,000 nested tables. When each held a copy of its parent's path, that
// cost 3.2 GB; shared, the tree grows linearly, and the deepest path is
// still whole.
func TestDeepKeysShareTheirPaths(t *testing.T) {
	const depth = 20000
	src := "[" + strings.Repeat("a.", depth-1) + "b]\nk = 1\n"
	var root *Node
	allocs := testing.AllocsPerRun(1, func() {
		var err error
		if root, err = Parse("c.toml", []byte(src)); err != nil {
			t.Fatal(err)
		}
	})
	n := root
	for range depth - 1 {
		n = n.Get("a")
	}
	k := n.Get("b").Get("k")
	path := k.Path()
	if len(path) != depth+1 || path[0] != "a" || path[depth-1] != "b" || path[depth] != "k" {
		t.Fatalf("the deepest key's path has %d segments, ending %q", len(path), path[max(len(path)-3, 0):])
	}
	// A few allocations a segment (key, node, field), not one a segment
	// per level above it.
	if allocs > 20*depth {
		t.Errorf("parsing %d segments took %.0f allocations", depth, allocs)
	}
}

// TestLimits: each of the reader's own limits is refused at the place it
// is passed, with a message that names the limit; one less is accepted.
func TestLimits(t *testing.T) {
	if nodeLimit != MaxNodes {
		t.Fatalf("the node limit is %d, not MaxNodes", nodeLimit)
	}
	// The node limit is lowered so that the documents that reach it stay
	// small; the count is the same at any limit.
	const limit = 1000
	defer func(n int) { nodeLimit = n }(nodeLimit)
	nodeLimit = limit
	long := strings.Repeat("k", MaxKeyBytes+1)
	tests := []struct {
		name    string
		src     string
		line    int
		column  int
		message string
	}{
		{"a key one byte too long", "[agents]\n" + long + " = 1\n", 2, 1, fmt.Sprintf("longer than the %d kokua-lint reads", MaxKeyBytes)},
		{"a quoted header segment too long", "[agents.\"" + long + "\"]\n", 1, 9, fmt.Sprintf("this key is %d bytes, longer", MaxKeyBytes+1)},
		{"nesting one deeper than the limit", "x = " + strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1) + "\n", 1, 5 + maxDepth, fmt.Sprintf("nest more than %d deep", maxDepth)},
		{"one element more than the document may hold", "x = [" + strings.Repeat("1,", limit) + "]\n", 1, 6 + 2*(limit-1), fmt.Sprintf("more than %d keys, tables and array elements", limit)},
		{"one dotted segment more than the document may hold", "[" + strings.Repeat("a.", limit) + "a]\n", 1, 2 * limit, fmt.Sprintf("more than %d keys", limit)},
		{"one key more than the document may hold", keys(limit + 1), limit + 1, 9, fmt.Sprintf("more than %d keys", limit)},
	}
	for _, tt := range tests {
		_, err := Parse("c.toml", []byte(tt.src))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want a syntax error", tt.name, err)
			continue
		}
		if se.Span.Start.Line != tt.line || se.Span.Start.Column != tt.column || !strings.Contains(se.Message, tt.message) {
			t.Errorf("%s: %v: %s; want %d:%d and %q", tt.name, se.Span.Start, se.Message, tt.line, tt.column, tt.message)
		}
		if !se.Limit {
			t.Errorf("%s: the error does not say it is the reader's own limit", tt.name)
		}
	}
	accepted := []string{
		"[agents]\n" + long[1:] + " = 1\n",
		"x = " + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + "\n",
		"x = [" + strings.Repeat("1,", limit-1) + "]\n", // the key's value and its elements
		keys(limit),
	}
	for _, src := range accepted {
		if _, err := Parse("c.toml", []byte(src)); err != nil {
			t.Errorf("at the limit, %.40q... was refused: %v", src, err)
		}
	}
}

// keys is a document of n keys, one a line.
func keys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d = 1\n", i)
	}
	return b.String()
}
