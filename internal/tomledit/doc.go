// Package tomledit is the one TOML editor of the project: every edit the
// linter's fixes and kokua-lint migrate make to a config is made here. It
// sets a key in a table, adds to or removes from an array, removes and
// moves a key, and writes a new table, in whatever form the file gives
// the table (a [header], a super-table made only by a header's path,
// dotted keys, an inline table, an element of an array of tables), as
// byte edits (diag.Edit) of the source, never by encoding the document
// again: comments, blank lines, trailing commas, indentation and every
// byte it does not touch stay as written, and the lines it adds end as
// the file's do (CRLF in a file of CRLF lines).
//
// TOML 1.0 decides where a key may go. A [header] table takes new lines
// after its own keys; a table only a header's path made takes a [header]
// of its own, written above its first sub-table; a table dotted keys made
// takes another dotted key, spelled from the table those keys are written
// in, after its last one (a header cannot reopen it); an inline table is
// closed, so a key goes inside its braces.
//
// A Doc reads what an edit needs of a source once (whether its lines end
// in CRLF); Edits collects the edits of one change, made together: the
// members an inline table loses and gains meet at its commas, so its edit
// is written whole when the change is done.
package tomledit

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// Doc is one TOML source and the tree tomlpos read from it.
type Doc struct {
	src  []byte
	root *tomlpos.Node
	crlf bool
}

// New reads what editing src needs: whether its lines end in CRLF, decided
// once for every edit of the source.
func New(src []byte, root *tomlpos.Node) *Doc {
	return &Doc{src: src, root: root, crlf: bytes.Contains(src, []byte("\r\n"))}
}

// CRLF reports whether the document's lines end in CRLF, as the lines an
// edit adds then do.
func (d *Doc) CRLF() bool { return d.crlf }

// LineEnds writes text's line ends as the document's: CRLF in a document
// whose lines end in CRLF, LF otherwise. Text is written with LF.
func (d *Doc) LineEnds(text string) string {
	if !d.crlf || !strings.Contains(text, "\n") {
		return text
	}
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")
}

// LineStart is the offset of the start of the line holding off.
func (d *Doc) LineStart(off int) int {
	return bytes.LastIndexByte(d.src[:off], '\n') + 1
}

// LineEnd is the offset just past the line feed ending off's line, or the
// end of the document on its last line.
func (d *Doc) LineEnd(off int) int {
	if i := bytes.IndexByte(d.src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(d.src)
}

// Indent is the white space the line holding off starts with.
func (d *Doc) Indent(off int) string {
	line := d.src[d.LineStart(off):]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// Form is how a table is written, which decides how a key is added to it.
type Form uint8

// The forms of a table.
const (
	// NotATable is a value, or an array (of tables too): nothing is added
	// to it as to a table.
	NotATable Form = iota
	// Root is the document's top-level table.
	Root
	// Header is a table defined by its own [header], an element of an
	// array of tables ([[header]]) included.
	Header
	// Super is a table made only as the parent of a header's path
	// ([security] by [security.auto_approval]): a [header] of its own may
	// still define it.
	Super
	// Dotted is a table made by dotted keys outside any inline table.
	Dotted
	// Inline is an inline table, { ... }.
	Inline
	// InlineDotted is a table made by dotted keys inside an inline table:
	// { a.b = 1 } makes a.
	InlineDotted
)

// FormOf says how t is written.
func (d *Doc) FormOf(t *tomlpos.Node) Form {
	switch {
	case t == nil || t.Kind != tomlpos.KindTable:
		return NotATable
	case t == d.root:
		return Root
	case t.Header:
		return Header
	case t.Implicit():
		return Super
	case t.Dotted():
		return Dotted
	case t.Inline():
		from, to := t.Offsets()
		kf, kt := t.KeyOffsets()
		if from != kf || to != kt {
			return Inline
		}
		return InlineDotted
	}
	return NotATable
}

// owner is the table whose block or braces the keys of t are written in:
// t itself, or for a table made by dotted keys the nearest table above it
// that dotted keys did not make.
func (d *Doc) owner(t *tomlpos.Node) *tomlpos.Node {
	for {
		switch d.FormOf(t) {
		case Dotted, InlineDotted:
			t = t.Parent()
		default:
			return t
		}
	}
}

// InlineOf is the outermost inline table n is written inside, or nil for a
// node written as a statement of its own (or a table written so).
func (d *Doc) InlineOf(n *tomlpos.Node) *tomlpos.Node {
	var out *tomlpos.Node
	for t := n.Parent(); t != nil; t = t.Parent() {
		if d.FormOf(t) == Inline {
			out = t
		}
	}
	return out
}

// keyFrom is the offset of the first segment of the key that names n: a
// dotted key starts on the same line as its last segment, at the first
// character of the line that is not blank, when it is a statement of its
// own.
func keyFrom(n *tomlpos.Node) int {
	from, _ := n.KeyOffsets()
	return from
}

func valueFrom(n *tomlpos.Node) int {
	from, _ := n.Offsets()
	return from
}

func valueTo(n *tomlpos.Node) int {
	_, to := n.Offsets()
	return to
}

// Line is a key = value written as a statement of its own: its whole
// lines, from the start of the key's line to just past the line feed that
// ends the value's line (or the end of the document).
type Line struct {
	From, To int
	// Value is the value's text as written.
	Value string
	// Trailing is what follows the value on its line, without the line
	// end: blanks and a comment, "  # why".
	Trailing string
	// Indent is the white space the key's line starts with.
	Indent string
}

// Comment is the comment after the value, without the blanks before it.
func (l Line) Comment() string { return strings.TrimSpace(l.Trailing) }

// KeyLine is the line of the key = value n, when it is a statement of its
// own; ok is false for a key inside an inline table, and for a node no key
// names (the root, an array's element, a table made by a header).
func (d *Doc) KeyLine(n *tomlpos.Node) (Line, bool) {
	if n == nil || n.Header || n.ArrayOfTables || n.Implicit() || d.FormOf(n) == Dotted || d.FormOf(n) == InlineDotted {
		return Line{}, false
	}
	if kf, kt := n.KeyOffsets(); kt == 0 && kf == 0 || d.InlineOf(n) != nil {
		return Line{}, false
	}
	s := d.LineStart(keyFrom(n))
	ve := valueTo(n)
	end := d.LineEnd(ve)
	rest := strings.TrimRight(string(d.src[ve:end]), "\r\n")
	return Line{From: s, To: end, Value: string(d.src[valueFrom(n):ve]), Trailing: rest, Indent: d.Indent(s)}, true
}

// statements are the key = value pairs written in t's own block or
// braces, in no order: its keys, and those of the tables its dotted keys
// make. Tables under headers of their own are written elsewhere.
func statements(t *tomlpos.Node, out []*tomlpos.Node) []*tomlpos.Node {
	for _, f := range t.Fields {
		v := f.Value
		switch {
		case v.Header || v.Implicit() || v.ArrayOfTables:
		case v.Kind == tomlpos.KindTable && (v.Dotted() || v.Inline() && valueFrom(v) == keyFrom(v) && valueTo(v) == keyTo(v)):
			out = statements(v, out)
		default:
			out = append(out, v)
		}
	}
	return out
}

func keyTo(n *tomlpos.Node) int {
	_, to := n.KeyOffsets()
	return to
}

// last is the statement of t written last, nil when it has none.
func last(t *tomlpos.Node) *tomlpos.Node {
	all := statements(t, nil)
	if len(all) == 0 {
		return nil
	}
	return slices.MaxFunc(all, func(a, b *tomlpos.Node) int { return cmp.Compare(valueTo(a), valueTo(b)) })
}

// BlockEnd is where a line added to the header table t (or the root)
// goes: just past the line its last own key's value ends on, or past the
// header's line when it has none; the root with no key of its own gets
// its lines at the top.
func (d *Doc) BlockEnd(t *tomlpos.Node) int {
	switch l := last(t); {
	case l != nil: // its keys follow its header
		return d.LineEnd(valueTo(l))
	case t == d.root:
		return 0
	}
	return d.LineEnd(valueTo(t))
}

// firstHeader is the offset of the first [header] (or [[header]]) written
// under t; ok is false when there is none.
func firstHeader(t *tomlpos.Node) (at int, ok bool) {
	var starts []int
	var walk func(n *tomlpos.Node)
	walk = func(n *tomlpos.Node) {
		for _, f := range n.Fields {
			v := f.Value
			switch {
			case v.ArrayOfTables:
				for _, it := range v.Items {
					starts = append(starts, valueFrom(it))
				}
			case v.Header:
				starts = append(starts, valueFrom(v))
				walk(v)
			case v.Implicit():
				walk(v)
			}
		}
	}
	walk(t)
	if len(starts) == 0 {
		return 0, false
	}
	return slices.Min(starts), true
}

// Addable reports whether a key can be added to t: a table in any form
// but a table dotted keys made with no key of its own to write after.
func (d *Doc) Addable(t *tomlpos.Node) bool {
	switch d.FormOf(t) {
	case Root, Header, Inline, InlineDotted:
		return true
	case Super:
		_, ok := firstHeader(t)
		return ok
	case Dotted:
		return last(t) != nil
	}
	return false
}
