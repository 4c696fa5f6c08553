package tomledit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/testing/tomllib"
	"github.com/kokua-policy/kokua-policy/internal/textdiff"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// The differential test writes a table in every form TOML 1.0 lets a
// file give it, at every place in the file, with and without comments,
// its arrays with and without a trailing comma, on one line and over
// several, its lines ending in LF and in CRLF, the file with and without
// a final line end; makes every edit of the package to it; and asks
// Python's tomllib, Kokua's reader, what the result holds. Each result
// must parse, hold exactly what the document held with the edit made (the
// key in the table meant, and nothing else changed), keep every comment
// the edit did not remove, and end every line as the document did.

// form is one way to write the table the edits are made to: its text,
// the key path of the table, and whether that path ends in an array of
// tables (the edit is made to its last element). arr names the array of
// strings the table holds ("" for none); stmt a key = value of it that can
// be moved ("" for none); root says the text must come before any
// [header].
type form struct {
	name      string
	text      string
	path      []string
	aot, root bool
	arr, stmt string
}

// forms are the table's forms; ARR stands for the array's text, C for a
// comment after a line (" # note" or nothing), H for a comment line above
// ("# about\n" or nothing).
var forms = []form{
	{name: "header", text: "H[t]C\na = 1C\narr = ARRC\n", path: []string{"t"}, arr: "arr", stmt: "a"},
	{name: "header with a sub-table", text: "H[t]\na = 1C\narr = ARR\n\nH[t.sub]\nz = 3C\n", path: []string{"t"}, arr: "arr", stmt: "a"},
	{name: "empty header", text: "H[t]C\n", path: []string{"t"}},
	{name: "indented header", text: "H[t]\n  a = 1C\n  arr = ARRC\n", path: []string{"t"}, arr: "arr", stmt: "a"},
	{name: "super-table", text: "H[t.sub]C\nz = 3\n\n[t.other]\nw = 4\n", path: []string{"t"}},
	{name: "dotted at the top", text: "t.a = 1C\nHt.arr = ARRC\n", path: []string{"t"}, root: true, arr: "arr", stmt: "a"},
	{name: "dotted in a header", text: "[p]\nH  t.a = 1C\n  t.arr = ARRC\nq = 2\n", path: []string{"p", "t"}, arr: "arr", stmt: "a"},
	{name: "dotted two deep", text: "[p]\nt.u.a = 1C\nt.u.arr = ARR\n", path: []string{"p", "t", "u"}, arr: "arr", stmt: "a"},
	{name: "inline", text: "Ht = { a = 1, arr = ARR }C\n", path: []string{"t"}, root: true, arr: "arr", stmt: "a"},
	{name: "empty inline", text: "t = {}C\n", path: []string{"t"}, root: true},
	{name: "inline in a header", text: "[p]\nHt = { a = 1, arr = ARR }C\n", path: []string{"p", "t"}, arr: "arr", stmt: "a"},
	{name: "inline dotted", text: "[p]\nq = { t.a = 1, t.arr = ARR, z = 2 }C\n", path: []string{"p", "q", "t"}, arr: "arr", stmt: "a"},
	{name: "inline in an inline", text: "p = { t = { a = 1, arr = ARR }, z = 2 }C\n", path: []string{"p", "t"}, root: true, arr: "arr", stmt: "a"},
	{name: "array of tables", text: "H[[t]]\na = 0\n\n[[t]]C\na = 1\narr = ARRC\n", path: []string{"t"}, aot: true, arr: "arr", stmt: "a"},
	{name: "the root", text: "a = 1C\narr = ARRC\n", path: nil, root: true, arr: "arr", stmt: "a"},
}

// arrays are the array's layouts.
var arrays = []string{
	`["p", "q"]`,
	`["p", "q",]`,
	`[]`,
	`[ ]`,
	`["p"]`,
	"[\n  \"p\",\n  \"q\",\n]",
	"[\n  \"p\",\n  \"q\"\n]",
	"[\n  \"p\", # one\n  \"q\", # two\n]",
	"[\n  \"p\",\n  \"q\"  # last\n]",
	"[\n  # none yet\n]",
	"[ \"p\",\n  \"q\" ]",
}

// doc is one generated document and where its table is.
type doc struct {
	name string
	text string
	form form
}

// docs generates every combination.
func docs() []doc {
	var out []doc
	for _, f := range forms {
		arrs := arrays
		if !strings.Contains(f.text, "ARR") {
			arrs = []string{""}
		}
		for _, arr := range arrs {
			// Comments inside an inline table's braces are not TOML, nor are
			// line breaks outside an array's brackets.
			if strings.Contains(arr, "#") && strings.Contains(f.text, "{") {
				continue
			}
			for _, comments := range []bool{false, true} {
				for _, place := range []string{"alone", "first", "middle", "last"} {
					for _, crlf := range []bool{false, true} {
						for _, final := range []bool{true, false} {
							text := f.text
							text = strings.ReplaceAll(text, "ARR", arr)
							c, h := "", ""
							if comments {
								c, h = " # note", "# about\n"
							}
							text = strings.ReplaceAll(strings.ReplaceAll(text, "C\n", c+"\n"), "H", h)
							before, after := "", ""
							if place == "middle" || place == "last" {
								before = "[before]\nx = 1\n\n"
								if f.root {
									before = "x = 1\n"
								}
							}
							if place == "first" || place == "middle" {
								after = "\n[after]\ny = 2" + c + "\n"
							}
							text = before + text
							text += after
							if comments {
								text += "# the end\n"
							}
							if !final {
								text = strings.TrimSuffix(text, "\n")
							}
							if crlf {
								text = strings.ReplaceAll(text, "\n", "\r\n")
							}
							out = append(out, doc{
								name: fmt.Sprintf("%s/%q/comments=%v/%s/crlf=%v/final=%v", f.name, arr, comments, place, crlf, final),
								text: text, form: f,
							})
						}
					}
				}
			}
		}
	}
	return out
}

// edit is one edit made to a document: what it does, and what the
// document must hold after it.
type edit struct {
	name string
	// make makes the edit; false when it cannot be made to this form.
	make func(e *Edits, t *tomlpos.Node) bool
	// want changes what tomllib read of the document to what it must
	// read after the edit; table is the table the edit is made to.
	want func(root, table map[string]any)
	// drops are comments the edit may remove with what it removes.
	drops bool
}

func edits(f form) []edit {
	out := []edit{
		{name: "add a key", make: func(e *Edits, t *tomlpos.Node) bool {
			return e.AddKeys(t, []Key{{Key: "k", Value: `["v", "it's"]`}})
		}, want: func(_, t map[string]any) { t["k"] = []any{"v", "it's"} }},
		{name: "add two keys with comments", make: func(e *Edits, t *tomlpos.Node) bool {
			return e.AddKeys(t, []Key{{Above: []string{"# why"}, Key: "k", Value: "1", Trailing: "  # one"}, {Key: `"a b"`, Value: "'x'"}})
		}, want: func(_, t map[string]any) { t["k"] = float64(1); t["a b"] = "x" }},
		{name: "write a new sub-table", make: func(e *Edits, _ *tomlpos.Node) bool {
			if f.aot {
				return false // a path through an array of tables names no one table
			}
			return e.WriteKeys(append(append([]string(nil), f.path...), "new"), []Key{{Key: "k", Value: `"v"`}, {Key: "n", Value: "2"}}, Where{})
		}, want: func(_, t map[string]any) { t["new"] = map[string]any{"k": "v", "n": float64(2)} }},
		{name: "write a new table at the top", make: func(e *Edits, _ *tomlpos.Node) bool {
			return e.WriteKeys([]string{"fresh", "deep"}, []Key{{Key: "k", Value: "true"}}, Where{})
		}, want: func(root, _ map[string]any) { root["fresh"] = map[string]any{"deep": map[string]any{"k": true}} }},
	}
	if f.arr != "" {
		out = append(out,
			edit{name: "append one", make: func(e *Edits, t *tomlpos.Node) bool {
				return e.Append(t.Get(f.arr), []string{`"z"`})
			}, want: func(_, t map[string]any) { t[f.arr] = append(t[f.arr].([]any), "z") }},
			edit{name: "append two", make: func(e *Edits, t *tomlpos.Node) bool {
				return e.Append(t.Get(f.arr), []string{`"y"`, `'z'`})
			}, want: func(_, t map[string]any) { t[f.arr] = append(t[f.arr].([]any), "y", "z") }},
		)
		for i := range 2 {
			out = append(out, edit{name: fmt.Sprintf("remove item %d", i), drops: true, make: func(e *Edits, t *tomlpos.Node) bool {
				return e.RemoveItem(t.Get(f.arr), i)
			}, want: func(_, t map[string]any) {
				l := t[f.arr].([]any)
				t[f.arr] = append(append([]any{}, l[:i]...), l[i+1:]...)
			}})
		}
		out = append(out, edit{name: "remove the array", drops: true, make: func(e *Edits, t *tomlpos.Node) bool {
			_, _, removed := e.RemoveKey(t.Get(f.arr))
			return removed
		}, want: func(_, t map[string]any) { delete(t, f.arr) }})
	}
	if f.stmt != "" {
		out = append(out, edit{name: "move a key to a new table", drops: true, make: func(e *Edits, t *tomlpos.Node) bool {
			return e.MoveKey(t.Get(f.stmt), []string{"moved", "here"}, "b", Where{})
		}, want: func(root, t map[string]any) {
			root["moved"] = map[string]any{"here": map[string]any{"b": t[f.stmt]}}
			delete(t, f.stmt)
		}})
	}
	return out
}

// tableIn finds the table at path in what tomllib read, the last element
// of an array of tables when aot.
func tableIn(root map[string]any, path []string, aot bool) map[string]any {
	t := root
	for i, p := range path {
		v := t[p]
		if aot && i == len(path)-1 {
			l := v.([]any)
			return l[len(l)-1].(map[string]any)
		}
		t = v.(map[string]any)
	}
	return t
}

// nodeIn finds the table at path in tomlpos's tree.
func nodeIn(root *tomlpos.Node, path []string, aot bool) *tomlpos.Node {
	n := root.Lookup(path...)
	if aot && n != nil {
		n = n.Items[len(n.Items)-1]
	}
	return n
}

// copyJSON is a deep copy of what tomllib read.
func copyJSON(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// comments are the comment texts of a document.
func comments(data []byte) []string {
	var out []string
	for _, c := range tomlpos.Comments(lineindex.New("doc.toml", data)) {
		out = append(out, c.Text)
	}
	return out
}

func TestDifferential(t *testing.T) {
	type result struct {
		name string
		src  string
		out  []byte
		want map[string]any
		drop bool
	}
	var results []result
	ds := docs()
	originals := make([][]byte, len(ds))
	for i, d := range ds {
		originals[i] = []byte(d.text)
	}
	read := tomllib.Read(t, originals)
	made := map[string]int{}
	for i, d := range ds {
		if read[i].Err != "" {
			t.Fatalf("%s: the generated document is not TOML (%s):\n%s", d.name, read[i].Err, d.text)
		}
		root, err := tomlpos.Parse("doc.toml", []byte(d.text))
		if err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		doc := New([]byte(d.text), root)
		for _, ed := range edits(d.form) {
			table := nodeIn(root, d.form.path, d.form.aot)
			if d.form.path == nil {
				table = root
			}
			e := doc.Edit()
			if !ed.make(e, table) {
				if ed.name == "add a key" || ed.name == "write a new table at the top" {
					t.Errorf("%s: %s: the edit was refused", d.name, ed.name)
				}
				continue
			}
			made[ed.name]++
			out, err := textdiff.Apply([]byte(d.text), e.Done())
			if err != nil {
				t.Fatalf("%s: %s: %v", d.name, ed.name, err)
			}
			want := copyJSON(t, read[i].Value)
			ed.want(want, tableIn(want, d.form.path, d.form.aot))
			results = append(results, result{name: d.name + ": " + ed.name, src: d.text, out: out, want: want, drop: ed.drops})
		}
	}
	outs := make([][]byte, len(results))
	for i, r := range results {
		outs[i] = r.out
	}
	got := tomllib.Read(t, outs)
	failures := 0
	for i, r := range results {
		fail := func(format string, args ...any) {
			failures++
			if failures <= 20 {
				t.Errorf("%s: %s\nbefore:\n%s\nafter:\n%s", r.name, fmt.Sprintf(format, args...), r.src, r.out)
			}
		}
		switch {
		case got[i].Err != "":
			fail("tomllib refuses the result: %s", got[i].Err)
			continue
		case !reflect.DeepEqual(got[i].Value, r.want):
			g, _ := json.Marshal(got[i].Value)
			w, _ := json.Marshal(r.want)
			fail("tomllib reads\n%s\nwant\n%s", g, w)
		}
		if crlf := strings.Contains(r.src, "\r\n"); crlf && bytes.Count(r.out, []byte("\n")) != bytes.Count(r.out, []byte("\r\n")) ||
			!crlf && bytes.Contains(r.out, []byte("\r")) {
			fail("the line ends are mixed")
		}
		if !r.drop {
			after := strings.Join(comments(r.out), "\n")
			for _, c := range comments([]byte(r.src)) {
				if !strings.Contains(after, c) {
					fail("the comment %q is lost", c)
				}
			}
		}
	}
	if failures > 20 {
		t.Errorf("and %d more failures", failures-20)
	}
	t.Logf("%d documents, %d edits made and read back by tomllib: %v", len(ds), len(results), made)
}
