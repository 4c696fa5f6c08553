package tomledit

import (
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// Edits collects the edits of one change of a document: every edit it
// makes is an offset of the document as read, and the text it writes
// ends its lines as the document does.
type Edits struct {
	d     *Doc
	edits []diag.Edit
	// inlineOrder are the inline tables the change edits, in the order
	// first met, and inline their edits, written by Done.
	inlineOrder []*tomlpos.Node
	inline      map[*tomlpos.Node]*inlineEdit
}

// Edit starts a change of the document.
func (d *Doc) Edit() *Edits { return &Edits{d: d} }

// Replace replaces the bytes [from, to) with text, whose line feeds are
// written as the document's line ends; from == to inserts. Insertions at
// one offset are made in the order given.
func (e *Edits) Replace(from, to int, text string) {
	e.edits = append(e.edits, diag.Edit{Start: from, End: to, New: e.d.LineEnds(text)})
}

// Done writes the edits of the inline tables and returns every edit of
// the change, in the order made: the order insertions at one offset are
// made in.
func (e *Edits) Done() []diag.Edit {
	e.writeInlines()
	out := e.edits
	e.edits, e.inlineOrder, e.inline = nil, nil, nil
	return out
}

// Key is one key = value to write: the comment lines to go above it (each
// "# ..."), the key relative to the table it goes into (a dotted key
// already written as TOML, "tools.confirm", or one bare segment, which is
// quoted as TOML needs: see Bare), the value's text, and what follows the
// value on its line ("  # why"), when anything does.
type Key struct {
	Above    []string
	Key      string
	Value    string
	Trailing string
}

// Bare writes one key segment as TOML: bare when it can be, else quoted.
func Bare(segment string) string { return tomlpos.QuoteKey(segment) }

// text is the key = value with its trailing text, without a line end.
func (k Key) text(prefix string) string {
	return prefix + k.Key + " = " + k.Value + k.Trailing
}

// commentLines writes comment texts as lines indented by indent.
func commentLines(indent string, texts []string) string {
	var b strings.Builder
	for _, t := range texts {
		b.WriteString(indent + t + "\n")
	}
	return b.String()
}

// AddKeys writes keys into the existing table t, in t's form: after the
// last line of a [header] table's keys (the root's, at the top when it
// has none); under a [header] of its own written above the first
// sub-table of a super-table; after the last dotted key of a table made
// by dotted keys, as a dotted key spelled from the table they are
// written in; inside the braces of an inline table, where a comment
// cannot go, so each key's comments go above the line the inline table
// is written on. It reports false, and edits nothing, when t is not a
// table a key can be added to (Addable).
func (e *Edits) AddKeys(t *tomlpos.Node, keys []Key) bool {
	d := e.d
	if !d.Addable(t) {
		return false
	}
	switch d.FormOf(t) {
	case Root, Header:
		indent := ""
		if l := last(t); l != nil {
			indent = d.Indent(keyFrom(l))
		}
		var b strings.Builder
		for _, k := range keys {
			b.WriteString(commentLines(indent, k.Above))
			b.WriteString(indent + k.text("") + "\n")
		}
		e.insertLines(d.BlockEnd(t), b.String())
	case Super:
		first, _ := firstHeader(t)
		var b strings.Builder
		b.WriteString(header(t.Path()) + "\n")
		for _, k := range keys {
			b.WriteString(commentLines("", k.Above))
			b.WriteString(k.text("") + "\n")
		}
		b.WriteString("\n")
		at := d.LineStart(first)
		e.Replace(at, at, b.String())
	case Dotted:
		o := d.owner(t)
		prefix := tomlpos.DottedKey(t.Path()[len(pathOf(d, o)):]) + "."
		l := last(t)
		indent := d.Indent(keyFrom(l))
		var b strings.Builder
		for _, k := range keys {
			b.WriteString(commentLines(indent, k.Above))
			b.WriteString(indent + k.text(prefix) + "\n")
		}
		e.insertLines(d.LineEnd(valueTo(l)), b.String())
	case Inline, InlineDotted:
		o := d.owner(t)
		prefix := ""
		if o != t {
			prefix = tomlpos.DottedKey(t.Path()[len(pathOf(d, o)):]) + "."
		}
		var above []string
		ie := e.inlineEdit(o)
		for _, k := range keys {
			above = append(above, k.Above...)
			if c := strings.TrimSpace(k.Trailing); c != "" {
				above = append(above, c)
			}
			ie.added = append(ie.added, prefix+k.Key+" = "+k.Value)
		}
		if above != nil {
			at := d.LineStart(d.StatementAt(o))
			e.Replace(at, at, commentLines(d.Indent(at), above))
		}
	}
	return true
}

// pathOf is the key path of a table as the keys written in it are
// spelled from: nil for the root and for an element of an array of tables
// written inline (whose keys are spelled from the element itself).
func pathOf(d *Doc, t *tomlpos.Node) []string {
	if t == d.root {
		return nil
	}
	return t.Path()
}

// insertLines inserts whole lines at the offset at, a line start or the
// end of the document: one that ends without a line feed gets one first.
func (e *Edits) insertLines(at int, lines string) {
	src := e.d.src
	if at == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
		lines = "\n" + lines
	}
	e.Replace(at, at, lines)
}

// header writes a table's header line: [a.b].
func header(path []string) string { return "[" + tomlpos.DottedKey(path) + "]" }

// StatementAt is the offset of the key that starts the statement n is
// written in: its own key, or for a node inside an inline table the key
// of the outermost inline table around it.
func (d *Doc) StatementAt(n *tomlpos.Node) int {
	if in := d.InlineOf(n); in != nil {
		n = in
	}
	if kf, kt := n.KeyOffsets(); kf != 0 || kt != 0 {
		return kf
	}
	return valueFrom(n) // an element of an array: the statement is the array's
}

// Where says where a new [header] table goes when the table above its
// path is the root: before the header of Before when it is set, else at
// the end of the document. With End set it goes at the end of the
// document below any [header] table too, where a finding asked for it.
type Where struct {
	Before *tomlpos.Node
	End    bool
}

// WriteKeys writes keys into the table at path (from the root, through
// tables only): AddKeys when it exists; otherwise it is made in the form
// of the nearest table above it that exists: a [header] table written
// after that table's own keys (at the end of the document, or before
// where.Before, when it is the root; above its first sub-table when it is
// a super-table), dotted keys after a table made by them, a key holding
// an inline table inside an inline one. It reports false, and edits
// nothing, when the path goes through a value or an array, or the table
// above is one no key can be added to.
func (e *Edits) WriteKeys(path []string, keys []Key, where Where) bool {
	d := e.d
	t, depth := d.root, 0
	for depth < len(path) {
		next := t.Get(path[depth])
		if next == nil {
			break
		}
		if next.Kind != tomlpos.KindTable {
			return false
		}
		t, depth = next, depth+1
	}
	if depth == len(path) {
		return e.AddKeys(t, keys)
	}
	rest := path[depth:]
	switch d.FormOf(t) {
	case Root, Header, Super:
		var b strings.Builder
		b.WriteString(header(path) + "\n")
		for _, k := range keys {
			b.WriteString(commentLines("", k.Above))
			b.WriteString(k.text("") + "\n")
		}
		switch {
		case where.End:
			e.appendTable(b.String())
		case d.FormOf(t) == Header:
			e.InsertTable(t, b.String())
		case d.FormOf(t) == Super:
			first, _ := firstHeader(t)
			at := d.LineStart(first)
			e.Replace(at, at, b.String()+"\n")
		case where.Before != nil:
			at := d.LineStart(valueFrom(where.Before))
			e.Replace(at, at, b.String()+"\n")
		default:
			e.appendTable(b.String())
		}
		return true
	case Dotted:
		dotted := make([]Key, len(keys))
		for i, k := range keys {
			k.Key = tomlpos.DottedKey(rest) + "." + k.Key
			dotted[i] = k
		}
		return e.AddKeys(t, dotted)
	case Inline, InlineDotted:
		parts := make([]string, len(keys))
		var above []string
		for i, k := range keys {
			parts[i] = k.Key + " = " + k.Value
			above = append(above, k.Above...)
			if c := strings.TrimSpace(k.Trailing); c != "" {
				above = append(above, c)
			}
		}
		value := "{ " + strings.Join(parts, ", ") + " }"
		if len(keys) == 0 {
			value = "{}"
		}
		return e.AddKeys(t, []Key{{Above: above, Key: tomlpos.DottedKey(rest), Value: value}})
	}
	return false
}

// InsertTable writes text, the lines of a new table, after the own keys of
// the [header] table t (or the root), a blank line before it: where a
// table that belongs with t goes.
func (e *Edits) InsertTable(t *tomlpos.Node, text string) {
	e.insertLines(e.d.BlockEnd(t), "\n"+text)
}

// appendTable writes a table at the end of the document, a blank line
// after what is there.
func (e *Edits) appendTable(text string) {
	src := e.d.src
	switch {
	case len(src) == 0:
	case src[len(src)-1] != '\n':
		text = "\n\n" + text
	default:
		text = "\n" + text
	}
	e.Replace(len(src), len(src), text)
}

// RemoveKey deletes the key = value n: its whole lines when it is a
// statement of its own (what followed the value on its line goes too),
// or its place inside the braces of an inline table with the comma that
// joined it to the others. It returns the lines it deleted, ok false for a
// key inside an inline table; removed is false when n is no key = value.
func (e *Edits) RemoveKey(n *tomlpos.Node) (line Line, ok, removed bool) {
	d := e.d
	if l, ok := d.KeyLine(n); ok {
		e.Replace(l.From, l.To, "")
		return l, true, true
	}
	in := d.InlineOf(n)
	if in == nil || n.Header || n.ArrayOfTables {
		return Line{}, false, false
	}
	// The innermost inline table written with braces around n.
	t := n.Parent()
	for d.FormOf(t) != Inline {
		t = t.Parent()
	}
	ie := e.inlineEdit(t)
	ie.gone = append(ie.gone, n)
	return Line{}, false, true
}

// MoveKey moves the key = value n to the table at path, as key: its value
// as written, and the comment after it when it is a statement of its own,
// go with it (WriteKeys says where); it leaves its lines, or its place in
// an inline table's braces (RemoveKey). It reports false, and edits
// nothing, when n is no key = value or the table cannot take the key.
func (e *Edits) MoveKey(n *tomlpos.Node, path []string, key string, where Where) bool {
	if n == nil || n.Header || n.ArrayOfTables || n.Implicit() {
		return false
	}
	value, trailing := string(e.d.src[valueFrom(n):valueTo(n)]), ""
	if l, ok := e.d.KeyLine(n); ok {
		if c := l.Comment(); c != "" {
			trailing = "  " + c
		}
	} else if e.d.InlineOf(n) == nil {
		return false
	}
	if !e.WriteKeys(path, []Key{{Key: key, Value: value, Trailing: trailing}}, where) {
		return false
	}
	_, _, removed := e.RemoveKey(n)
	return removed
}

// String writes s as a TOML string: a literal one ('...') when literal is
// set and s can be written so, with nothing a basic string would escape
// and no single quote; else a basic string ("..."), escaped.
func String(s string, literal bool) string {
	quoted := tomlpos.BasicString(s)
	if literal && !strings.ContainsAny(s, "'\n") && quoted == `"`+s+`"` {
		return "'" + s + "'"
	}
	return quoted
}

// PairWhere is where a new [assistant.tools] table goes, for the
// linter's removed-key fix and kokua-lint migrate alike (docs/migrate.md
// promises the same place): after [assistant]'s own keys when it is a
// [header] table (WriteKeys does that), else above a [security] header
// table, where the old lists were, else at the end of the document.
func PairWhere(root *tomlpos.Node) Where {
	if security := root.Get("security"); security != nil && security.Header {
		return Where{Before: security}
	}
	return Where{}
}
