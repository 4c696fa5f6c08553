package tomlpos

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
)

func pos(l, c int) diag.Position { return diag.Position{Line: l, Column: c} }

// TestPositions checks that keys, values and list elements keep the exact
// spans they were written at, columns counted in characters.
func TestPositions(t *testing.T) {
	src := "# comment\n" +
		"[agents.coder.tools]\n" +
		"available = [\"fs\", 'x',\n" +
		"  \"\"\"y\"\"\"]  # trailing\n" +
		"confirm = [ ] \n" +
		"\"quoted.key\".sub = { a = 1, b = [true, [2]] }\n" +
		"[[mcp.server]]\n" +
		"name = \"é\"\n" +
		"url=\"u\"\n"
	root, err := Parse("c.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	avail := root.Lookup("agents", "coder", "tools", "available")
	server := root.Lookup("mcp", "server")
	tests := []struct {
		name       string
		got        diag.Span
		start, end diag.Position
	}{
		{"table header", root.Lookup("agents", "coder", "tools").Span(), pos(2, 1), pos(2, 21)},
		{"table key", root.Lookup("agents", "coder", "tools").Key(), pos(2, 15), pos(2, 20)},
		{"key", avail.Key(), pos(3, 1), pos(3, 10)},
		{"multi-line array", avail.Span(), pos(3, 13), pos(4, 11)},
		{"element", avail.Items[0].Span(), pos(3, 14), pos(3, 18)},
		{"literal string", avail.Items[1].Span(), pos(3, 20), pos(3, 23)},
		{"multi-line string on the next line", avail.Items[2].Span(), pos(4, 3), pos(4, 10)},
		{"empty array", root.Lookup("agents", "coder", "tools", "confirm").Span(), pos(5, 11), pos(5, 14)},
		{"dotted quoted key", root.Lookup("agents", "coder", "tools", "quoted.key", "sub").Key(), pos(6, 14), pos(6, 17)},
		{"inline table", root.Lookup("agents", "coder", "tools", "quoted.key", "sub").Span(), pos(6, 20), pos(6, 46)},
		{"nested array", root.Lookup("agents", "coder", "tools", "quoted.key", "sub", "b").Items[1].Span(), pos(6, 40), pos(6, 43)},
		{"array of tables header", server.Items[0].Span(), pos(7, 1), pos(7, 15)},
		{"non-ASCII value counts characters", server.Items[0].Get("name").Span(), pos(8, 8), pos(8, 11)},
		{"no spaces around =", server.Items[0].Get("url").Span(), pos(9, 5), pos(9, 8)},
	}
	for _, tt := range tests {
		if lines := lineindex.New("c.toml", []byte(src)); tt.got.Start != lines.Pos(tt.got.Start.Offset) || tt.got.End != lines.Pos(tt.got.End.Offset) {
			t.Errorf("%s: span %v-%v does not hold the byte offsets of its positions", tt.name, tt.got.Start, tt.got.End)
		}
		tt.got.Start, tt.got.End = lineCol(tt.got.Start), lineCol(tt.got.End)
		if tt.got.Start != tt.start || tt.got.End != tt.end || tt.got.File != "c.toml" {
			t.Errorf("%s: span %v-%v in %q, want %v-%v", tt.name, tt.got.Start, tt.got.End, tt.got.File, tt.start, tt.end)
		}
	}
	if got := avail.Items[2].Str; got != "y" {
		t.Errorf("multi-line string value %q, want y", got)
	}
	if !server.ArrayOfTables || len(server.Items) != 1 {
		t.Errorf("[[mcp.server]] should be an array of one table")
	}
}

// TestOffsetsAreTheSpans holds Offsets and KeyOffsets, at every node of a
// few documents, to the byte offsets Span and Key carry.
func TestOffsetsAreTheSpans(t *testing.T) {
	docs := append([]string{
		"# é\n[a.\"b\"]\nk = [\"🙂\", 'x', { c = 1 }]\n[[t]]\nn = \"日本\"\r\n[[t]]\nm.n = \"\"\"\nz\"\"\"\n",
	}, tableRules...)
	nodes := 0
	var walk func(doc string, n *Node)
	walk = func(doc string, n *Node) {
		nodes++
		sp, key := n.Span(), n.Key()
		if from, to := n.Offsets(); from != sp.Start.Offset || to != sp.End.Offset {
			t.Errorf("%q: node at %v: Offsets() = %d, %d, want %d, %d", doc, sp, from, to, sp.Start.Offset, sp.End.Offset)
		}
		from, to := n.KeyOffsets()
		if key.IsZero() && (from != 0 || to != 0) || !key.IsZero() && (from != key.Start.Offset || to != key.End.Offset) {
			t.Errorf("%q: node at %v: KeyOffsets() = %d, %d, want the key's %v", doc, sp, from, to, key)
		}
		for _, f := range n.Fields {
			walk(doc, f.Value)
		}
		for _, it := range n.Items {
			walk(doc, it)
		}
	}
	for _, doc := range docs {
		if root, err := Parse("c.toml", []byte(doc)); err == nil {
			walk(doc, root)
		}
	}
	if nodes < 50 {
		t.Fatalf("only %d nodes walked", nodes)
	}
}

// TestSyntaxErrors checks that invalid TOML comes back as a SyntaxError at
// the parser's position, including the TOML 1.0 rules the decoder enforces.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		at   diag.Position
	}{
		{"duplicate key", "a = 1\na = 2\n", pos(2, 1)},
		{"table defined twice", "[x]\n[x]\n", pos(2, 2)},
		{"unterminated array", "a = [1,\n", pos(1, 8)},
		{"bare value", "a = nope\n", pos(1, 5)},
		{"NUL byte", "a = \"x\x00\"\n", pos(1, 7)},
		{"invalid UTF-8", "a = \"\xff\"\n", pos(1, 6)},
	}
	for _, tt := range tests {
		_, err := Parse("bad.toml", []byte(tt.src))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want a *SyntaxError", tt.name, err)
			continue
		}
		if se.Span.File != "bad.toml" || se.Message == "" {
			t.Errorf("%s: %+v lacks a file or a message", tt.name, se)
		}
		if se.Limit {
			t.Errorf("%s: invalid TOML is reported as passing a limit of the reader", tt.name)
		}
		if se.Span.Start.Line != tt.at.Line {
			t.Errorf("%s: error at %v, want line %d", tt.name, se.Span.Start, tt.at.Line)
		}
	}
}

func TestComments(t *testing.T) {
	src := "# top\n" +
		"[a] # after header\n" +
		"x = [\"a\", # in array\n" +
		"  \"b#\"] # trailing\n" +
		"y = '''\n# not a comment\n''' # after a multi-line string\n" +
		"z = \"say \\\"#\\\"\"  # é\n"
	comments := Comments(lineindex.New("c.toml", []byte(src)))
	want := []struct {
		text  string
		at    diag.Position
		alone bool
	}{
		{"# top", pos(1, 1), true},
		{"# after header", pos(2, 5), false},
		{"# in array", pos(3, 11), false},
		{"# trailing", pos(4, 9), false},
		{"# after a multi-line string", pos(7, 5), false},
		{"# é", pos(8, 18), false},
	}
	if len(comments) != len(want) {
		t.Fatalf("found %d comments, want %d: %+v", len(comments), len(want), comments)
	}
	for i, w := range want {
		got := comments[i]
		if got.Text != w.text || lineCol(got.Span.Start) != w.at || got.Alone != w.alone {
			t.Errorf("comment %d = %q at %v alone=%v, want %q at %v alone=%v", i, got.Text, got.Span.Start, got.Alone, w.text, w.at, w.alone)
		}
	}
}

// TestDottedKeyEscapesControls: a key path prints no control character a
// terminal would act on, and stays valid TOML for the same key.
func TestDottedKeyEscapesControls(t *testing.T) {
	key := "x\x1b[31mRED\nfake.toml:1:1: error\u202e"
	got := DottedKey([]string{"agents", key, "tools"})
	want := `agents."x\u001B[31mRED\nfake.toml:1:1: error\u202E".tools`
	if got != want {
		t.Fatalf("DottedKey = %s, want %s", got, want)
	}
	root, err := Parse("k.toml", []byte("["+got+"]\nx = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if root.Lookup("agents", key, "tools", "x") == nil {
		t.Error("the escaped key path does not read back as the same key")
	}
}

// TestTOML10Refusals checks that what TOML 1.1 added, and tomllib refuses,
// is refused at the offending character with the reason in words, and
// that a character the parser stops at is named whole.
func TestTOML10Refusals(t *testing.T) {
	tests := []struct {
		name, src string
		at        diag.Position
		says      string
	}{
		{"newline in an inline table", "tools = {\n  available = [] }\n", pos(1, 10), "must close on the line it opens"},
		{"trailing comma in an inline table", "tools = { available = [\"memory\"], }\n", pos(1, 33), "trailing comma"},
		{"comment in an inline table", "a = { b = 1, # c\n}\n", pos(1, 14), "comment cannot go inside an inline table"},
		{"nested inline table", "a = [{ b = 1,\n }]\n", pos(1, 14), "must close on the line it opens"},
		{"\\x escape", "a = \"\\x41\"\n", pos(1, 6), `\x is not a TOML 1.0 escape`},
		{"\\e escape in a multi-line string", "a = \"\"\"\nred \\e[31m\"\"\"\n", pos(2, 5), `\e is not a TOML 1.0 escape`},
		{"\\x in a quoted key", "\"\\x41\" = 1\n", pos(1, 2), `\x is not a TOML 1.0 escape`},
		{"time without seconds", "wake = 07:30\n", pos(1, 8), "has no seconds"},
		{"date-time without seconds", "when = 1979-05-27T07:32Z\n", pos(1, 8), "has no seconds"},
		{"year 0", "d = 0000-01-01\n", pos(1, 5), "year 0"},
		{"not a day", "d = 1900-02-29\n", pos(1, 5), "not a day of the calendar"},
		{"hour 24", "t = 24:00:00\n", pos(1, 5), "hours up to 23"},
		{"a 1.1 form before a later error", "a = {\n}\nb = [\n", pos(1, 6), "must close on the line it opens"},
		{"a CJK character", "a = 研\n", pos(1, 5), "U+7814 '研'"},
		{"a leading BOM", "\ufeffa = 1\n", pos(1, 1), "byte order mark"},
		{"a BOM later", "a = 1\n\ufeffb = 2\n", pos(2, 1), "U+FEFF (a byte order mark)"},
		{"deep nesting", "a = " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n", pos(1, 205), "nest more than 200"},
	}
	for _, tt := range tests {
		_, err := Parse("bad.toml", []byte(tt.src))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want a *SyntaxError", tt.name, err)
			continue
		}
		if lineCol(se.Span.Start) != tt.at || !strings.Contains(se.Message, tt.says) {
			t.Errorf("%s: %v: %s; want %v and %q", tt.name, se.Span.Start, se.Message, tt.at, tt.says)
		}
		if strings.Contains(se.Message, "U+00") {
			t.Errorf("%s: %q names a byte, not the character", tt.name, se.Message)
		}
	}
}

// TestOutOfRange checks that integers and floats beyond 64 bits are read,
// as tomllib reads them, and flagged.
func TestOutOfRange(t *testing.T) {
	root, err := Parse("n.toml", []byte("up = 9223372036854775808\ndown = -9_223_372_036_854_775_809\n"+
		"hex = 0xffffffffffffffffff\nmax = 9223372036854775807\nbig = 1e400\nneg = -1e400\ntiny = 1e-400\nok = 1.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		key   string
		out   bool
		int   int64
		float float64
	}{
		{"up", true, math.MaxInt64, 0}, {"down", true, math.MinInt64, 0}, {"hex", true, math.MaxInt64, 0},
		{"max", false, math.MaxInt64, 0}, {"big", true, 0, math.Inf(1)}, {"neg", true, 0, math.Inf(-1)},
		{"tiny", false, 0, 0}, {"ok", false, 0, 1.5},
	} {
		n := root.Get(tt.key)
		if n.OutOfRange != tt.out || n.Int != tt.int || n.Float != tt.float {
			t.Errorf("%s: out of range %v, %d, %v; want %v, %d, %v", tt.key, n.OutOfRange, n.Int, n.Float, tt.out, tt.int, tt.float)
		}
	}
}

// lineCol is a position without its byte offset, for comparing with a
// line:column a test writes.
func lineCol(p diag.Position) diag.Position { return diag.Position{Line: p.Line, Column: p.Column} }
