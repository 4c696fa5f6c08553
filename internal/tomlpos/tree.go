// Package tomlpos reads TOML into a tree that keeps the span of every key
// and value. It accepts exactly the TOML Kokua's reader (Python's tomllib,
// TOML 1.0) accepts, and says where and why it refuses the rest.
package tomlpos

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
)

// Kind is the TOML type of a node.
type Kind uint8

// The node kinds. Dates and times are one kind: no tool-access key takes one.
const (
	KindTable Kind = iota
	KindArray
	KindString
	KindInteger
	KindFloat
	KindBool
	KindDatetime
)

var kindNames = [...]string{
	KindTable: "a table", KindArray: "an array", KindString: "a string", KindInteger: "an integer",
	KindFloat: "a float", KindBool: "a boolean", KindDatetime: "a date-time",
}

// String names the kind the way messages use it ("a table", "a string").
func (k Kind) String() string { return kindNames[k] }

// Node is one value of a TOML document with the span it was written at.
// Tables keep their keys in the order the file writes them.
//
// A node holds its spans as byte offsets into the document and makes the
// line:column positions when asked (Span, Key), which keeps a node small:
// a large document is mostly nodes, and its cost to read follows their size.
type Node struct {
	Kind Kind
	// ArrayOfTables marks an array built by [[header]] tables.
	ArrayOfTables bool
	// Header marks a table defined by its own [header].
	Header bool
	// OutOfRange marks an integer that does not fit in 64 bits (Int holds
	// the nearest 64-bit value) or a float too large for 64 bits (Float is
	// infinite). TOML 1.0 lets a reader refuse them; Kokua's reader does not.
	OutOfRange bool
	Bool       bool

	def     definition
	element bool

	// from and to are the bytes of the value (Span); keyFrom and keyTo
	// those of its key (Key), both zero when it has none.
	from, to, keyFrom, keyTo int32
	lines                    *lineindex.Index

	Str   string
	Int   int64
	Float float64

	// Items are an array's elements.
	Items []*Node
	// Fields are a table's keys, in file order.
	Fields []Field

	index map[string]int

	// up is the node whose key path this node's extends (its table, or for
	// an array element its array), and name the key that names it; Path
	// joins them, so no node holds a copy of its parent's path.
	up   *Node
	name string
}

// Span covers the value as written: a string with its quotes, an array
// from [ to ], a table from its header (or the key that made it).
func (n *Node) Span() diag.Span {
	if n.lines == nil {
		return diag.Span{}
	}
	return n.lines.Span(int(n.from), int(n.to))
}

// Key is the span of the key that names this node in its table (the last
// segment of a dotted key); zero for the root and for array elements.
func (n *Node) Key() diag.Span {
	if n.lines == nil || n.keyTo == 0 {
		return diag.Span{}
	}
	return n.lines.Span(int(n.keyFrom), int(n.keyTo))
}

// Offsets are the bytes of the value as written, from and to, as Span
// covers them: for code that needs bytes, with no line:column made.
func (n *Node) Offsets() (from, to int) { return int(n.from), int(n.to) }

// Lines is the line index of the document the node was read from, which
// converts its offsets to positions.
func (n *Node) Lines() *lineindex.Index { return n.lines }

// KeyOffsets are the bytes of the key that names this node, as Key covers
// them; 0, 0 for the root and for array elements.
func (n *Node) KeyOffsets() (from, to int) { return int(n.keyFrom), int(n.keyTo) }

// Path is the key path of the node, one element per key segment; nil for
// the root. An element of an array (of tables, or of values) has its
// array's path. Each call builds the path anew, in time proportional to
// its length: the tree shares each prefix rather than copying it, so deep
// keys cost linear memory.
func (n *Node) Path() []string { return n.AppendPath(nil) }

// AppendPath appends the node's Path to dst and returns the result, so a
// caller with room at hand builds a path without allocating.
func (n *Node) AppendPath(dst []string) []string {
	depth := 0
	for m := n; m != nil && m.up != nil; m = m.up {
		if !m.element {
			depth++
		}
	}
	if depth == 0 {
		return dst
	}
	at := len(dst)
	dst = slices.Grow(dst, depth)[:at+depth]
	for m := n; depth > 0; m = m.up {
		if !m.element {
			depth--
			dst[at+depth] = m.name
		}
	}
	return dst
}

// Parent is the node whose key path this node's extends: the table that
// holds it, or for an element of an array (an array of tables' table
// too) that array; nil for the root. An editor walks up with it to find
// the table a key is written in.
func (n *Node) Parent() *Node { return n.up }

// keyed links n below parent under a key.
func (n *Node) keyed(parent *Node, name string) *Node {
	n.up, n.name = parent, name
	return n
}

// childPath is the path of a key name in table t.
func childPath(t *Node, name string) []string {
	return append(t.Path(), name)
}

// Implicit says a table was made only as the parent of a [header] path
// ([security] by [security.auto_approval]): TOML 1.0 lets a later header
// of its own still define it, and a new [header] below it is valid.
func (n *Node) Implicit() bool { return n != nil && n.Kind == KindTable && n.def == defImplicit }

// Inline says a table was written as an inline table ({ ... }), which TOML
// 1.0 closes: keys are added to it only inside its braces.
func (n *Node) Inline() bool { return n != nil && n.Kind == KindTable && n.def == defInline }

// Dotted says a table was made by dotted keys (a.b = 1): a key is added to
// it by another dotted key in the table that holds them.
func (n *Node) Dotted() bool { return n != nil && n.Kind == KindTable && n.def == defDotted }

// definition is how a table came to be, which decides what may still be
// added to it (TOML 1.0: a table is defined once; dotted keys and headers
// do not reopen each other's tables; inline tables are closed).
type definition uint8

const (
	defValue    definition = iota // not a table, or a static array
	defImplicit                   // made as a parent by a [header] path
	defHeader                     // defined by its own [header], or the root
	defDotted                     // made by dotted keys
	defInline                     // an inline table, closed when written
)

// Field is one key of a table.
type Field struct {
	Name  string
	Value *Node
}

// Get returns the value of key name in table n, or nil.
func (n *Node) Get(name string) *Node {
	if n == nil || n.Kind != KindTable {
		return nil
	}
	if n.index != nil {
		if i, ok := n.index[name]; ok {
			return n.Fields[i].Value
		}
		return nil
	}
	for _, f := range n.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return nil
}

// Lookup follows a key path from n and returns the node there, or nil.
func (n *Node) Lookup(path ...string) *Node {
	for _, p := range path {
		n = n.Get(p)
	}
	return n
}

const indexThreshold = 16

func (n *Node) add(name string, v *Node) {
	n.Fields = append(n.Fields, Field{Name: name, Value: v})
	switch {
	case n.index != nil:
		n.index[name] = len(n.Fields) - 1
	case len(n.Fields) > indexThreshold:
		n.index = make(map[string]int, 2*len(n.Fields))
		for i, f := range n.Fields {
			n.index[f.Name] = i
		}
	}
}

// SyntaxError is a document the reader could not read, at the place it
// stopped: invalid TOML, or one past the reader's own limits (Limit).
type SyntaxError struct {
	Span    diag.Span
	Message string
	// Limit is set when the reader stops at one of its own limits
	// (MaxNodes, MaxKeyBytes, MaxDocumentBytes, the nesting depth), which
	// tomllib does not have, rather than at a break of the grammar.
	Limit bool
}

func (e *SyntaxError) Error() string { return e.Span.String() + ": " + e.Message }

// Parse reads a TOML 1.0 document into a positioned tree. Invalid TOML, and
// a document past the reader's limits, is returned as a *SyntaxError at the
// place the reader stopped.
func Parse(file string, data []byte) (*Node, error) {
	if len(data) > MaxDocumentBytes {
		return nil, &SyntaxError{Span: diag.Span{File: file}, Limit: true, Message: fmt.Sprintf("the document is %d bytes, longer "+
			"than the %d bytes kokua-lint reads", len(data), MaxDocumentBytes)}
	}
	l := lineindex.New(file, data)
	if off := lineindex.InvalidUTF8(data); off >= 0 {
		return nil, &SyntaxError{Span: l.Span(off, off+1), Message: "invalid UTF-8: a TOML document is UTF-8 text"}
	}
	if bytes.HasPrefix(data, bom) {
		return nil, &SyntaxError{Span: l.Span(0, len(bom)), Message: "the file starts with a byte order mark (U+FEFF), " +
			"which Kokua's TOML reader refuses: save it as UTF-8 without a BOM"}
	}
	root, err := parseTree(l)
	// go-toml reads TOML 1.1: look for the 1.1 syntax it let through before
	// the place it stopped, if it did.
	limit := len(data)
	if err != nil {
		limit = err.Span.Start.Offset
	}
	if from, to, msg, found := check10(data, limit); found {
		return nil, &SyntaxError{Span: l.Span(from, to), Message: msg}
	}
	if err != nil {
		return nil, err
	}
	return root, nil
}

// parseTree builds the tree. The unstable parser checks the syntax and
// gives every position; the builder applies the rest of TOML 1.0 (keys and
// tables defined once, scalars as tomllib reads them), each at the key or
// value at fault.
func parseTree(l *lineindex.Index) (*Node, *SyntaxError) {
	b := builder{lines: l, text: string(l.Data), root: &Node{Kind: KindTable, def: defHeader, lines: l}}
	b.current = b.root
	p := unstable.Parser{}
	p.Reset(l.Data)
	for p.NextExpression() {
		if err := b.expression(&p, p.Expression()); err != nil {
			var se *SyntaxError
			if errors.As(err, &se) {
				return nil, se
			}
			return nil, &SyntaxError{Span: l.Span(0, 0), Message: err.Error()}
		}
	}
	if err := p.Error(); err != nil {
		return nil, syntaxError(l, err)
	}
	return b.root, nil
}

func syntaxError(l *lineindex.Index, err error) *SyntaxError {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		off := l.Offset(row, col)
		end := off
		if end < len(l.Data) && l.Data[end] != '\n' {
			_, w := utf8.DecodeRune(l.Data[end:])
			end += w
		}
		return &SyntaxError{Span: l.Span(off, end), Message: trimTOMLPrefix(de.Error())}
	}
	var pe *unstable.ParserError
	if errors.As(err, &pe) {
		// The highlight is a slice of the document: where it starts is
		// where the parser stopped.
		off := cap(l.Data) - cap(pe.Highlight)
		if pe.Highlight == nil || off < 0 || off > len(l.Data) {
			off = len(l.Data)
		}
		end := min(off+max(len(pe.Highlight), 1), len(l.Data))
		return &SyntaxError{Span: l.Span(off, end), Message: nameCharacter(l.Data, off, pe.Message)}
	}
	return &SyntaxError{Span: l.Span(0, 0), Message: err.Error()}
}

func trimTOMLPrefix(msg string) string {
	const prefix = "toml: "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}

type builder struct {
	lines *lineindex.Index
	// text is the document as a string, which keys and strings written
	// as they read are cut from (see str).
	text    string
	root    *Node
	current *Node
	// nodes counts the tables, arrays and values made so far (MaxNodes).
	nodes int
	// slab is where new nodes are carved from, a block at a time: one
	// allocation for many nodes keeps the garbage collector's work, and
	// so the time to read a large file, in proportion to its size.
	slab []Node
	// keyNames and keyRanges are where keys cuts its lists from, a block
	// at a time, as nodes are cut from slab.
	keyNames  []string
	keyRanges [][2]int
}

// slabSize is how many nodes, or key segments, one allocation of a slab
// holds.
const slabSize = 64

// node places n, written at bytes from to to under the key at bytes key
// (none when key[1] is zero), in the slab and returns where it lives.
func (b *builder) node(n Node, from, to int, key [2]int) *Node {
	if len(b.slab) == 0 {
		b.slab = make([]Node, slabSize)
	}
	n.lines = b.lines
	n.from, n.to = int32(from), int32(to)
	n.keyFrom, n.keyTo = int32(key[0]), int32(key[1])
	p := &b.slab[0]
	*p = n
	b.slab = b.slab[1:]
	return p
}

// str returns data, a key or a string value written at bytes from to
// to, as a string: a cut of the document when data is written there as it
// reads (a bare key, or a string without escapes between its quotes), so
// that most names and strings cost no copy of their own.
func (b *builder) str(data []byte, from, to int) string {
	switch {
	case bytes.Equal(b.lines.Data[from:to], data):
		return b.text[from:to]
	case to-from >= 2 && bytes.Equal(b.lines.Data[from+1:to-1], data):
		return b.text[from+1 : to-1]
	}
	return string(data)
}

var crlf = []byte("\r\n")

// multilineLF reads a multi-line string written as raw with CRLF line
// ends, which go-toml read as data, as tomllib does: each line end in the
// text is a \n (an escaped \r stays a \r). It reads the string again with
// its CRLFs written as LF, which can only be a CR that is part of a line
// end: TOML allows no other bare CR. Should that fail, data stands.
func multilineLF(raw, data []byte) string {
	var p unstable.Parser
	p.Reset(append([]byte("s = "), bytes.ReplaceAll(raw, crlf, []byte("\n"))...))
	if p.NextExpression() {
		if v := p.Expression().Value(); v != nil && v.Kind == unstable.String {
			return string(v.Data)
		}
	}
	return string(data)
}

// grow counts one more node, made for the text at from, and refuses the
// document once it holds more than MaxNodes.
func (b *builder) grow(from int) error {
	if b.nodes++; b.nodes > nodeLimit {
		return &SyntaxError{Span: b.lines.Span(from, from+1), Limit: true, Message: fmt.Sprintf("the document holds more than %d "+
			"keys, tables and array elements by here, more than kokua-lint reads: a config holds a few hundred", nodeLimit)}
	}
	return nil
}

// nodeLimit is MaxNodes; tests lower it to reach it with small documents.
var nodeLimit = MaxNodes

func (b *builder) offset(r unstable.Range) (int, int) {
	return int(r.Offset), int(r.Offset + r.Length)
}

// keys collects the segments of a key and the byte range each covers,
// refusing a segment longer than MaxKeyBytes.
func (b *builder) keys(it unstable.Iterator) (names []string, ranges [][2]int, err error) {
	n := count(it)
	if len(b.keyNames) < n {
		b.keyNames, b.keyRanges = make([]string, max(n, slabSize)), make([][2]int, max(n, slabSize))
	}
	names, ranges = b.keyNames[:0:n], b.keyRanges[:0:n]
	b.keyNames, b.keyRanges = b.keyNames[n:], b.keyRanges[n:]
	for it.Next() {
		k := it.Node()
		from, to := b.offset(k.Raw)
		if len(k.Data) > MaxKeyBytes {
			return nil, nil, &SyntaxError{Span: b.lines.Span(from, to), Limit: true, Message: fmt.Sprintf("this key is %d bytes, longer "+
				"than the %d kokua-lint reads: each finding repeats the names in its path", len(k.Data), MaxKeyBytes)}
		}
		names = append(names, b.str(k.Data, from, to))
		ranges = append(ranges, [2]int{from, to})
	}
	return names, ranges, nil
}

// count is how many nodes an iterator has ahead of it; it moves a copy.
func count(it unstable.Iterator) int {
	n := 0
	for it.Next() {
		n++
	}
	return n
}

func (b *builder) expression(p *unstable.Parser, e *unstable.Node) error {
	switch e.Kind {
	case unstable.Table, unstable.ArrayTable:
		names, ranges, err := b.keys(e.Key())
		if err != nil || len(names) == 0 {
			return err
		}
		from := b.scanBack(ranges[0][0], '[')
		to := b.scanForward(ranges[len(ranges)-1][1], ']')
		if e.Kind == unstable.ArrayTable {
			from = b.scanBack(from, '[')
			to = b.scanForward(to, ']')
		}
		if err := b.grow(from); err != nil {
			return err
		}
		parent, err := b.walkHeader(names[:len(names)-1], ranges[:len(ranges)-1])
		if err != nil {
			return err
		}
		last := names[len(names)-1]
		key := ranges[len(ranges)-1]
		existing := parent.Get(last)
		if e.Kind == unstable.ArrayTable {
			switch {
			case existing == nil:
				existing = b.node(Node{Kind: KindArray, ArrayOfTables: true}, from, to, key).keyed(parent, last)
				parent.add(last, existing)
			case !existing.ArrayOfTables:
				return b.redefined(key, childPath(parent, last), existing)
			}
			t := b.node(Node{Kind: KindTable, Header: true, def: defHeader, up: existing, element: true}, from, to, key)
			existing.Items = append(existing.Items, t)
			b.current = t
			return nil
		}
		switch {
		case existing == nil:
			existing = b.node(Node{Kind: KindTable}, from, to, key).keyed(parent, last)
			parent.add(last, existing)
		case existing.Kind != KindTable || existing.def != defImplicit:
			return b.redefined(key, childPath(parent, last), existing)
		}
		existing.Header, existing.def = true, defHeader
		existing.from, existing.to = int32(from), int32(to)
		existing.keyFrom, existing.keyTo = int32(key[0]), int32(key[1])
		b.current = existing
		return nil
	case unstable.KeyValue:
		return b.keyValue(p, b.current, e, 0)
	}
	return nil
}

// redefined is the error for a key or table written a second time.
func (b *builder) redefined(at [2]int, path []string, existing *Node) error {
	what := "key"
	switch {
	case existing.ArrayOfTables:
		what = "array of tables"
	case existing.Kind == KindTable:
		what = "table"
	}
	return &SyntaxError{Span: b.lines.Span(at[0], at[1]), Message: fmt.Sprintf("%s %s is already defined", what, DottedKey(path))}
}

// walkHeader descends from the root along a [header]'s parent keys,
// making the missing tables, into the last element of an array of tables.
// It cannot go into a value or an inline table.
func (b *builder) walkHeader(names []string, ranges [][2]int) (*Node, error) {
	t := b.root
	for i, name := range names {
		r := ranges[i]
		next := t.Get(name)
		switch {
		case next == nil:
			if err := b.grow(r[0]); err != nil {
				return nil, err
			}
			next = b.node(Node{Kind: KindTable, def: defImplicit}, r[0], r[1], r).keyed(t, name)
			t.add(name, next)
		case next.ArrayOfTables:
			next = next.Items[len(next.Items)-1]
		case next.Kind != KindTable || next.def == defInline:
			return nil, &SyntaxError{Span: b.lines.Span(r[0], r[1]), Message: fmt.Sprintf("%s is a value, not a table a header can extend", DottedKey(childPath(t, name)))}
		}
		t = next
	}
	return t, nil
}

// walkDotted descends along a dotted key's parent keys from the table the
// key is written in, making the missing tables. Dotted keys only extend
// tables that dotted keys made.
func (b *builder) walkDotted(t *Node, names []string, ranges [][2]int, def definition) (*Node, error) {
	for i, name := range names {
		r := ranges[i]
		next := t.Get(name)
		switch {
		case next == nil:
			if err := b.grow(r[0]); err != nil {
				return nil, err
			}
			next = b.node(Node{Kind: KindTable, def: def}, r[0], r[1], r).keyed(t, name)
			t.add(name, next)
		case next.Kind != KindTable || next.def != def:
			return nil, &SyntaxError{Span: b.lines.Span(r[0], r[1]), Message: fmt.Sprintf("%s is already defined; dotted keys cannot add to it", DottedKey(next.Path()))}
		}
		t = next
	}
	return t, nil
}

func (b *builder) keyValue(p *unstable.Parser, t *Node, kv *unstable.Node, depth int) error {
	names, ranges, err := b.keys(kv.Key())
	if err != nil || len(names) == 0 {
		return err
	}
	def := defDotted
	if t.def == defInline {
		def = defInline // dotted keys inside an inline table stay inside it
	}
	parent, err := b.walkDotted(t, names[:len(names)-1], ranges[:len(ranges)-1], def)
	if err != nil {
		return err
	}
	_, kvEnd := b.offset(kv.Raw)
	valueStart := b.skipSpace(b.scanForward(ranges[len(ranges)-1][1], '='))
	last := names[len(names)-1]
	key := ranges[len(ranges)-1]
	if existing := parent.Get(last); existing != nil {
		return b.redefined(key, childPath(parent, last), existing)
	}
	v := b.node(Node{}, 0, 0, key).keyed(parent, last)
	if err := b.value(p, v, kv.Value(), valueStart, kvEnd, depth); err != nil {
		return err
	}
	parent.add(last, v)
	return nil
}

// value fills n, already linked into the tree, from v, whose text is known
// to start at from and, for containers, to end at to (the parser records
// no range for arrays). depth counts the arrays and inline tables v is in.
func (b *builder) value(p *unstable.Parser, n *Node, v *unstable.Node, from, to int, depth int) error {
	if err := b.grow(from); err != nil {
		return err
	}
	if (v.Kind == unstable.Array || v.Kind == unstable.InlineTable) && depth >= maxDepth {
		return &SyntaxError{Span: b.lines.Span(from, from+1), Limit: true, Message: fmt.Sprintf("arrays and inline tables nest "+
			"more than %d deep here, deeper than kokua-lint reads: Kokua's TOML reader (tomllib) fails somewhere past 300 levels", maxDepth)}
	}
	var msg string
	switch v.Kind {
	case unstable.String:
		n.Kind = KindString
		if bytes.IndexByte(v.Data, '\r') >= 0 && bytes.Contains(b.lines.Data[from:to], crlf) {
			n.Str = multilineLF(b.lines.Data[from:to], v.Data)
		} else {
			n.Str = b.str(v.Data, from, to)
		}
	case unstable.Bool:
		n.Kind, n.Bool = KindBool, len(v.Data) == 4 // "true"
	case unstable.Integer, unstable.Float:
		n.Kind = KindInteger
		if v.Kind == unstable.Float {
			n.Kind = KindFloat
			n.Float, n.OutOfRange, msg = readFloat(string(v.Data))
		} else {
			n.Int, n.OutOfRange, msg = readInteger(string(v.Data))
		}
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		n.Kind = KindDatetime
		msg = checkDatetime(string(v.Data))
	case unstable.Array:
		n.Kind = KindArray
		n.from, n.to = int32(from), int32(to)
		at := from + 1
		it := v.Children()
		n.Items = make([]*Node, 0, count(it))
		for it.Next() {
			c := it.Node()
			start := b.elementStart(at)
			end := b.elementEnd(c, start)
			item := b.node(Node{up: n, element: true}, 0, 0, [2]int{})
			if err := b.value(p, item, c, start, end, depth+1); err != nil {
				return err
			}
			n.Items = append(n.Items, item)
			at = end
		}
		return nil
	case unstable.InlineTable:
		n.Kind, n.def = KindTable, defInline
		n.from, n.to = int32(from), int32(to)
		it := v.Children()
		for it.Next() {
			if err := b.keyValue(p, n, it.Node(), depth+1); err != nil {
				return err
			}
		}
		return nil
	default:
		return &SyntaxError{Span: b.lines.Span(from, to), Message: fmt.Sprintf("unsupported TOML value %s", v.Kind)}
	}
	vf, vt := b.offset(v.Raw)
	n.from, n.to = int32(vf), int32(vt)
	if msg != "" {
		return &SyntaxError{Span: n.Span(), Message: msg}
	}
	return nil
}

// nameCharacter makes go-toml's message about the character at off name
// it: the whole character where go-toml names its first byte ("U+00E7 'ç'"
// for 研), the control character a message leaves unnamed, and a carriage
// return that ends no line.
func nameCharacter(d []byte, off int, msg string) string {
	switch {
	case off >= len(d):
		return msg
	case d[off] == '\r' && !bytes.HasPrefix(d[off:], []byte("\r\n")) && strings.Contains(msg, "U+000D"):
		return "a carriage return (U+000D) without a line feed after it: TOML 1.0 ends a line with LF or CRLF"
	case (d[off] < ' ' && d[off] != '\t' || d[off] == 0x7f) && !strings.Contains(msg, "U+"):
		return fmt.Sprintf("%s (found %U)", msg, rune(d[off]))
	case d[off] < utf8.RuneSelf:
		return msg
	}
	r, _ := utf8.DecodeRune(d[off:])
	byByte := fmt.Sprintf("%#U", rune(d[off]))
	if r == utf8.RuneError || !strings.Contains(msg, byByte) {
		return msg
	}
	name := fmt.Sprintf("%#U", r)
	if r == 0xFEFF {
		name = "U+FEFF (a byte order mark)"
	}
	return strings.Replace(msg, byByte, name, 1)
}

// elementStart skips white space, commas and comments between array elements.
func (b *builder) elementStart(at int) int {
	d := b.lines.Data
	for at < len(d) {
		switch d[at] {
		case ' ', '\t', '\n', '\r', ',':
			at++
		case '#':
			for at < len(d) && d[at] != '\n' {
				at++
			}
		default:
			return at
		}
	}
	return at
}

// elementEnd finds where an array element that starts at start ends. Scalars
// carry their own range; containers are matched bracket by bracket.
func (b *builder) elementEnd(c *unstable.Node, start int) int {
	if c.Kind != unstable.Array && c.Kind != unstable.InlineTable {
		_, to := b.offset(c.Raw)
		return to
	}
	return b.matchBracket(start)
}

// matchBracket returns the offset just past the bracket or brace that closes
// the one at start, skipping strings and comments.
func (b *builder) matchBracket(start int) int {
	d := b.lines.Data
	depth := 0
	for i := start; i < len(d); i++ {
		switch d[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '#':
			for i < len(d) && d[i] != '\n' {
				i++
			}
		case '"', '\'':
			i = skipTOMLString(d, i) - 1
		}
	}
	return len(d)
}

func (b *builder) scanForward(at int, c byte) int {
	if i := bytes.IndexByte(b.lines.Data[at:], c); i >= 0 {
		return at + i + 1
	}
	return at
}

func (b *builder) scanBack(at int, c byte) int {
	if i := bytes.LastIndexByte(b.lines.Data[:at], c); i >= 0 {
		return i
	}
	return at
}

func (b *builder) skipSpace(at int) int {
	d := b.lines.Data
	for at < len(d) && (d[at] == ' ' || d[at] == '\t') {
		at++
	}
	return at
}
