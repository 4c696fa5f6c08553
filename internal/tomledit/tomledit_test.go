package tomledit

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/textdiff"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// apply makes one change to doc and returns the result, or "" when the
// change was refused.
func apply(t *testing.T, doc string, change func(e *Edits, root *tomlpos.Node) bool) string {
	t.Helper()
	root, err := tomlpos.Parse("doc.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	e := New([]byte(doc), root).Edit()
	if !change(e, root) {
		if edits := e.Done(); len(edits) > 0 {
			t.Fatalf("a refused change made edits: %v", edits)
		}
		return ""
	}
	out, err := textdiff.Apply([]byte(doc), e.Done())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tomlpos.Parse("doc.toml", out); err != nil {
		t.Fatalf("the result is not TOML: %v\n%s", err, out)
	}
	return string(out)
}

// lookup finds a table by path, the last element of an array of tables
// on the way.
func lookup(root *tomlpos.Node, path ...string) *tomlpos.Node {
	n := root
	for _, p := range path {
		n = n.Get(p)
		if n != nil && n.ArrayOfTables {
			n = n.Items[len(n.Items)-1]
		}
	}
	return n
}

// TestAddKeys writes a key into a table in each form TOML 1.0 lets a file
// give it, and states the text each gets: where the key goes and how it
// is spelled.
func TestAddKeys(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		table     []string
		want      string // "" when no key can be added
	}{
		{"header", "[security]\nx = 1\n", []string{"security"},
			"[security]\nx = 1\nk = [\"v\"]\n"},
		{"header with no key", "[security]\n\n[other]\n", []string{"security"},
			"[security]\nk = [\"v\"]\n\n[other]\n"},
		{"header on the last line", "[security]", []string{"security"},
			"[security]\nk = [\"v\"]\n"},
		{"header, last key on the last line", "[security]\nx = 1", []string{"security"},
			"[security]\nx = 1\nk = [\"v\"]\n"},
		{"header with a comment below its keys", "[a]\nx = 1 # one\n# about b\n\n[b]\n", []string{"a"},
			"[a]\nx = 1 # one\nk = [\"v\"]\n# about b\n\n[b]\n"},
		{"indented keys", "[a]\n  x = 1\n", []string{"a"},
			"[a]\n  x = 1\n  k = [\"v\"]\n"},
		{"a key over several lines", "[a]\nx = [\n  1,\n]\n[b]\n", []string{"a"},
			"[a]\nx = [\n  1,\n]\nk = [\"v\"]\n[b]\n"},
		{"inline", "security = { x = 1 }\n", []string{"security"},
			"security = { x = 1, k = [\"v\"] }\n"},
		{"empty inline", "security = {}\n", []string{"security"},
			"security = { k = [\"v\"] }\n"},
		{"inline ending in a dotted key", "security = { a.b = 1 }\n", []string{"security"},
			"security = { a.b = 1, k = [\"v\"] }\n"},
		{"inline in an inline", "security = { auto = { on = true } }\n", []string{"security", "auto"},
			"security = { auto = { on = true, k = [\"v\"] } }\n"},
		{"dotted inside an inline", "s = { a.b = 1, c = 2 }\n", []string{"s", "a"},
			"s = { a.b = 1, c = 2, a.k = [\"v\"] }\n"},
		{"dotted at the top", "security.a.on = true # on\nsecurity.b = [\n  1,\n]\n\n[x]\n", []string{"security"},
			"security.a.on = true # on\nsecurity.b = [\n  1,\n]\nsecurity.k = [\"v\"]\n\n[x]\n"},
		{"dotted in a dotted table", "security.a.on = true\nsecurity.b = 2\n", []string{"security", "a"},
			"security.a.on = true\nsecurity.a.k = [\"v\"]\nsecurity.b = 2\n"},
		{"dotted with a header's table in it", "a.b = 1\n\n[a.c]\nd = 2\n", []string{"a"},
			"a.b = 1\na.k = [\"v\"]\n\n[a.c]\nd = 2\n"},
		{"dotted below a header", "[agents.coder]\ntools.available = []\n", []string{"agents", "coder", "tools"},
			"[agents.coder]\ntools.available = []\ntools.k = [\"v\"]\n"},
		{"dotted on the last line", "a.b = 1", []string{"a"},
			"a.b = 1\na.k = [\"v\"]\n"},
		{"a super-table", "[security.auto]\non = true\n", []string{"security"},
			"[security]\nk = [\"v\"]\n\n[security.auto]\non = true\n"},
		{"a super-table with a comment above its sub-table", "x = 1\n\n# auto\n[security.auto]\non = true\n", []string{"security"},
			"x = 1\n\n# auto\n[security]\nk = [\"v\"]\n\n[security.auto]\non = true\n"},
		{"a super-table at the top, of two", "[security.b]\nx = 1\n[security.a]\ny = 2\n", []string{"security"},
			"[security]\nk = [\"v\"]\n\n[security.b]\nx = 1\n[security.a]\ny = 2\n"},
		{"the root of an empty document", "", nil, "k = [\"v\"]\n"},
		{"a super-table of an array of tables", "[[mcp.server]]\nname = \"a\"\n", []string{"mcp"},
			"[mcp]\nk = [\"v\"]\n\n[[mcp.server]]\nname = \"a\"\n"},
		{"an array of tables' element", "[[a]]\nx = 1\n\n[[a]]\nx = 2\n\n[b]\n", []string{"a"},
			"[[a]]\nx = 1\n\n[[a]]\nx = 2\nk = [\"v\"]\n\n[b]\n"},
		{"the root", "x = 1\n\n[a]\n", nil,
			"x = 1\nk = [\"v\"]\n\n[a]\n"},
		{"the root with no key", "# top\n[a]\n", nil,
			"k = [\"v\"]\n# top\n[a]\n"},
		{"a quoted key's table", "[\"a b\"]\nx = 1\n", []string{"a b"},
			"[\"a b\"]\nx = 1\nk = [\"v\"]\n"},
		{"a value", "a = 1\n", []string{"a"}, ""},
		{"an array", "a = [1]\n", []string{"a"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := apply(t, c.doc, func(e *Edits, root *tomlpos.Node) bool {
				table := lookup(root, c.table...)
				return e.AddKeys(table, []Key{{Key: "k", Value: `["v"]`}})
			})
			if got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
			if crlf := strings.ReplaceAll(c.doc, "\n", "\r\n"); c.want != "" && strings.Contains(c.doc, "\n") {
				got := apply(t, crlf, func(e *Edits, root *tomlpos.Node) bool {
					return e.AddKeys(lookup(root, c.table...), []Key{{Key: "k", Value: `["v"]`}})
				})
				if want := strings.ReplaceAll(c.want, "\n", "\r\n"); got != want {
					t.Fatalf("with CRLF got\n%q\nwant\n%q", got, want)
				}
			}
		})
	}
}

// TestInlineInAnArray adds a key to an inline table written as an element
// of an array: inside its braces, its comment above the line the array's
// statement is on.
func TestInlineInAnArray(t *testing.T) {
	got := apply(t, "y = 1\nx = [{ a = 1 }, { a = 2 }]\n", func(e *Edits, root *tomlpos.Node) bool {
		return e.AddKeys(root.Get("x").Items[1], []Key{{Key: "k", Value: "3", Trailing: " # why"}})
	})
	if want := "y = 1\n# why\nx = [{ a = 1 }, { a = 2, k = 3 }]\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, c := range []struct{ segment, want string }{{"tools", "tools"}, {"a b", `"a b"`}, {"", `""`}} {
		if got := Bare(c.segment); got != c.want {
			t.Errorf("Bare(%q) = %s, want %s", c.segment, got, c.want)
		}
	}
}

// TestWriteKeys writes a key into a table that may not exist yet: it is
// made in the form of the table above it.
func TestWriteKeys(t *testing.T) {
	keys := []Key{{Key: "confirm", Value: "[]"}, {Key: "review", Value: `["x"]`, Trailing: "  # r"}}
	for _, c := range []struct {
		name, doc string
		path      []string
		where     func(root *tomlpos.Node) Where
		want      string
	}{
		{"no parent", "[agents.a]\n", []string{"assistant", "tools"}, nil,
			"[agents.a]\n\n[assistant.tools]\nconfirm = []\nreview = [\"x\"]  # r\n"},
		{"no parent, no final line end", "[agents.a]", []string{"assistant", "tools"}, nil,
			"[agents.a]\n\n[assistant.tools]\nconfirm = []\nreview = [\"x\"]  # r\n"},
		{"an empty document", "", []string{"assistant", "tools"}, nil,
			"[assistant.tools]\nconfirm = []\nreview = [\"x\"]  # r\n"},
		{"before a header", "[agents.a]\n\n# sec\n[security]\nx = 1\n", []string{"assistant", "tools"},
			func(root *tomlpos.Node) Where { return Where{Before: root.Get("security")} },
			"[agents.a]\n\n# sec\n[assistant.tools]\nconfirm = []\nreview = [\"x\"]  # r\n\n[security]\nx = 1\n"},
		{"a header parent", "[assistant]\nagent = \"a\"\n\n[agents.a]\n", []string{"assistant", "tools"}, nil,
			"[assistant]\nagent = \"a\"\n\n[assistant.tools]\nconfirm = []\nreview = [\"x\"]  # r\n\n[agents.a]\n"},
		{"a header parent, at the end", "[assistant]\nagent = \"a\"\n\n[agents.a]\n", []string{"assistant", "tools"},
			func(*tomlpos.Node) Where { return Where{End: true} },
			"[assistant]\nagent = \"a\"\n\n[agents.a]\n\n[assistant.tools]\nconfirm = []\nreview = [\"x\"]  # r\n"},
		{"a super-table parent", "[assistant.x]\ny = 1\n", []string{"assistant", "tools"}, nil,
			"[assistant.tools]\nconfirm = []\nreview = [\"x\"]  # r\n\n[assistant.x]\ny = 1\n"},
		{"a dotted parent", "assistant.agent = \"a\"\n\n[agents.a]\n", []string{"assistant", "tools"}, nil,
			"assistant.agent = \"a\"\nassistant.tools.confirm = []\nassistant.tools.review = [\"x\"]  # r\n\n[agents.a]\n"},
		{"an inline parent", "assistant = { agent = \"a\" }\n", []string{"assistant", "tools"}, nil,
			"# r\nassistant = { agent = \"a\", tools = { confirm = [], review = [\"x\"] } }\n"},
		{"an existing table", "[assistant.tools]\nconfirm = [\"a\"]\n", []string{"assistant", "tools"}, nil,
			"[assistant.tools]\nconfirm = [\"a\"]\nconfirm = []\nreview = [\"x\"]  # r\n"},
		{"through a value", "assistant = 1\n", []string{"assistant", "tools"}, nil, ""},
		{"through an array of tables", "[[assistant]]\n", []string{"assistant", "tools"}, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got string
			if c.name == "an existing table" {
				// A key written twice is the caller's to avoid: the edit only
				// writes; tomlpos refuses the result.
				root, _ := tomlpos.Parse("doc.toml", []byte(c.doc))
				e := New([]byte(c.doc), root).Edit()
				if !e.WriteKeys(c.path, keys, Where{}) {
					t.Fatal("refused")
				}
				out, _ := textdiff.Apply([]byte(c.doc), e.Done())
				got = string(out)
			} else {
				got = apply(t, c.doc, func(e *Edits, root *tomlpos.Node) bool {
					w := Where{}
					if c.where != nil {
						w = c.where(root)
					}
					return e.WriteKeys(c.path, keys, w)
				})
			}
			if got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

// TestArrays adds to and removes from arrays in each layout, and states
// the text each gets: a trailing comma stays the last, one item a line
// stays so, comments stay by their items.
func TestArrays(t *testing.T) {
	for _, c := range []struct {
		name, arr string
		change    func(e *Edits, a *tomlpos.Node) bool
		want      string
	}{
		{"append to one line", `["a", "b"]`, appendZ, `["a", "b", "z"]`},
		{"append before a trailing comma", `["a", "b",]`, appendZ, `["a", "b", "z",]`},
		{"append to an empty array", `[]`, appendZ, `["z"]`},
		{"append to a blank array", `[  ]`, appendZ, `["z"]`},
		{"append one a line", "[\n  \"a\",\n  \"b\",\n]", appendZ, "[\n  \"a\",\n  \"b\",\n  \"z\",\n]"},
		{"append one a line without a trailing comma", "[\n  \"a\",\n  \"b\"\n]", appendZ, "[\n  \"a\",\n  \"b\",\n  \"z\",\n]"},
		{"append after a comment", "[\n  \"a\", # one\n  \"b\" # two\n]", appendZ, "[\n  \"a\", # one\n  \"b\", # two\n  \"z\",\n]"},
		{"append to an empty array over lines", "[\n  # none\n]", appendZ, "[\n  # none\n  \"z\",\n]"},
		{"append where the bracket closes the last line", "[ \"a\",\n  \"b\" ]", appendZ, "[ \"a\",\n  \"b\", \"z\" ]"},
		{"append where the comma follows a comment", "[\n  \"a\" # one\n  ,\n]", appendZ, "[\n  \"a\" # one\n  ,\n  \"z\",\n]"},
		{"append where the comma starts a line", "[\n  \"a\" # one\n,\n]", appendZ, "[\n  \"a\" # one\n,\n  \"z\",\n]"},
		{"append nothing", `["a"]`, func(e *Edits, a *tomlpos.Node) bool { return e.Append(a, nil) }, ""},
		{"remove the first", `["a", "b"]`, remove(0), `["b"]`},
		{"remove the last", `["a", "b"]`, remove(1), `["a"]`},
		{"remove the last before a trailing comma", `["a", "b",]`, remove(1), `["a",]`},
		{"remove the only one", `["a",]`, remove(0), `[]`},
		{"remove a line", "[\n  \"a\", # one\n  \"b\", # two\n]", remove(0), "[\n  \"b\", # two\n]"},
		{"remove the last line", "[\n  \"a\", # one\n  \"b\" # two\n]", remove(1), "[\n  \"a\", # one\n]"},
		{"remove the last, the bracket on its line", "[\n  \"a\", # one\n  \"b\" ]", remove(1), "[\n  \"a\" # one\n   ]"},
		{"remove in the middle", `["a", "b",  "c"]`, remove(1), `["a", "c"]`},
		{"remove in the middle, one a line", "[\n  \"a\", \"b\", # two\n  \"c\",\n]", remove(1), "[\n  \"a\", # two\n  \"c\",\n]"},
		{"remove outside", `["a"]`, remove(1), ""},
		{"remove before the start", `["a"]`, remove(-1), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := "x = " + c.arr + "\n"
			got := apply(t, doc, func(e *Edits, root *tomlpos.Node) bool { return c.change(e, root.Get("x")) })
			want := ""
			if c.want != "" {
				want = "x = " + c.want + "\n"
			}
			if got != want {
				t.Fatalf("got\n%q\nwant\n%q", got, want)
			}
		})
	}
}

func appendZ(e *Edits, a *tomlpos.Node) bool { return e.Append(a, []string{`"z"`}) }

func remove(i int) func(e *Edits, a *tomlpos.Node) bool {
	return func(e *Edits, a *tomlpos.Node) bool { return e.RemoveItem(a, i) }
}

// TestRemoveAndMove removes and moves keys written as statements and
// inside inline tables.
func TestRemoveAndMove(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		change    func(e *Edits, root *tomlpos.Node) bool
		want      string
	}{
		{"remove a line", "[a]\nx = 1 # one\ny = 2\n", func(e *Edits, root *tomlpos.Node) bool {
			_, ok, removed := e.RemoveKey(root.Lookup("a", "x"))
			return ok && removed
		}, "[a]\ny = 2\n"},
		{"remove a member", "a = { x = 1, y = 2 }\n", func(e *Edits, root *tomlpos.Node) bool {
			_, ok, removed := e.RemoveKey(root.Lookup("a", "x"))
			return !ok && removed
		}, "a = { y = 2 }\n"},
		{"remove the last member", "a = { x = 1, y = 2 }\n", func(e *Edits, root *tomlpos.Node) bool {
			_, _, removed := e.RemoveKey(root.Lookup("a", "y"))
			return removed
		}, "a = { x = 1 }\n"},
		{"remove the only member", "a = { x = 1 }\n", func(e *Edits, root *tomlpos.Node) bool {
			_, _, removed := e.RemoveKey(root.Lookup("a", "x"))
			return removed
		}, "a = {}\n"},
		{"remove a member between dotted ones", "q = { t.a = 1, z = 2, t.b = 3 }\n", func(e *Edits, root *tomlpos.Node) bool {
			_, _, removed := e.RemoveKey(root.Lookup("q", "z"))
			return removed
		}, "q = { t.a = 1, t.b = 3 }\n"},
		{"remove a dotted member between others", "q = { t.a = 1, z = 2, t.b = 3 }\n", func(e *Edits, root *tomlpos.Node) bool {
			_, _, removed := e.RemoveKey(root.Lookup("q", "t", "a"))
			return removed
		}, "q = { z = 2, t.b = 3 }\n"},
		{"remove a member and add one", "a = { x = 1, y = 2 }\n", func(e *Edits, root *tomlpos.Node) bool {
			_, _, removed := e.RemoveKey(root.Lookup("a", "y"))
			return removed && e.AddKeys(root.Get("a"), []Key{{Key: "z", Value: "3"}})
		}, "a = { x = 1, z = 3 }\n"},
		{"remove an array's item", "a = [1]\nb = 2\n", func(e *Edits, root *tomlpos.Node) bool {
			_, _, removed := e.RemoveKey(root.Get("a").Items[0])
			return removed
		}, ""},
		{"remove a table", "[a]\n", func(e *Edits, root *tomlpos.Node) bool {
			_, _, removed := e.RemoveKey(root.Get("a"))
			return removed
		}, ""},
		{"move a line", "[security]\nconfirm_tools = [\"a\"] # mine\nx = 1\n\n[assistant.tools]\nreview = []\n", func(e *Edits, root *tomlpos.Node) bool {
			return e.MoveKey(root.Lookup("security", "confirm_tools"), []string{"assistant", "tools"}, "confirm", Where{})
		}, "[security]\nx = 1\n\n[assistant.tools]\nreview = []\nconfirm = [\"a\"]  # mine\n"},
		{"move a member", "security = { confirm_tools = [\"a\"], x = 1 }\n", func(e *Edits, root *tomlpos.Node) bool {
			return e.MoveKey(root.Lookup("security", "confirm_tools"), []string{"assistant", "tools"}, "confirm", Where{})
		}, "security = { x = 1 }\n\n[assistant.tools]\nconfirm = [\"a\"]\n"},
		{"move to a table that cannot take it", "assistant = 1\n[security]\nconfirm_tools = []\n", func(e *Edits, root *tomlpos.Node) bool {
			return e.MoveKey(root.Lookup("security", "confirm_tools"), []string{"assistant", "tools"}, "confirm", Where{})
		}, ""},
		{"move a table", "[a.b]\n", func(e *Edits, root *tomlpos.Node) bool {
			return e.MoveKey(root.Lookup("a", "b"), []string{"c"}, "d", Where{})
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := apply(t, c.doc, c.change); got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

// TestString writes a string in the form of the one it replaces: a
// literal string stays literal unless the text cannot be one (a single
// quote, a line feed, anything a basic string escapes), when it is
// written as an escaped basic string, which tomlpos reads back as the text.
func TestString(t *testing.T) {
	for _, c := range []struct {
		s       string
		literal bool
		want    string
	}{
		{"fs_write", true, "'fs_write'"},
		{"fs_write", false, `"fs_write"`},
		{"it's", true, `"it's"`},
		{"a\nb", true, `"a\nb"`},
		{`a"b`, true, `"a\"b"`},
		{`a\b`, true, `"a\\b"`},
		{"tab\there", true, `"tab\there"`},
	} {
		got := String(c.s, c.literal)
		if got != c.want {
			t.Errorf("String(%q, %v) = %s, want %s", c.s, c.literal, got, c.want)
		}
		root, err := tomlpos.Parse("doc.toml", []byte("x = "+got+"\n"))
		if err != nil || root.Get("x").Str != c.s {
			t.Errorf("String(%q, %v) = %s does not read back: %v", c.s, c.literal, got, err)
		}
	}
}

// TestLineEnds: a document of CRLF lines gets CRLF lines, decided once;
// others keep LF.
func TestLineEnds(t *testing.T) {
	crlf := New([]byte("a = 1\r\n"), nil)
	lf := New([]byte("a = 1\n"), nil)
	if !crlf.CRLF() || lf.CRLF() {
		t.Fatal("CRLF decided wrongly")
	}
	if got := crlf.LineEnds("x\ny\r\n"); got != "x\r\ny\r\n" {
		t.Errorf("CRLF: %q", got)
	}
	if got := lf.LineEnds("x\ny\n"); got != "x\ny\n" {
		t.Errorf("LF: %q", got)
	}
	e := crlf.Edit()
	e.Replace(0, 0, "b = 2\n")
	if got := e.Done(); len(got) != 1 || got[0] != (diag.Edit{New: "b = 2\r\n"}) {
		t.Errorf("an edit's text: %v", got)
	}
}
