package config

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/kokua-policy/kokua-policy/diag"
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
type Node struct {
	Kind Kind
	// Span covers the value as written: a string with its quotes, an array
	// from [ to ], a table from its header (or the key that made it).
	Span diag.Span
	// Key is the span of the key that names this node in its table (the last
	// segment of a dotted key); zero for the root and for array elements.
	Key diag.Span
	// Path is the key path of the node, one element per key segment. An
	// element of an array of tables has its array's path.
	Path []string

	Str   string
	Int   int64
	Float float64
	Bool  bool

	// Items are an array's elements.
	Items []*Node
	// Fields are a table's keys, in file order.
	Fields []Field
	// ArrayOfTables marks an array built by [[header]] tables.
	ArrayOfTables bool
	// Header marks a table defined by its own [header].
	Header bool

	index map[string]int
}

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

// SyntaxError is invalid TOML, at the place the parser stopped.
type SyntaxError struct {
	Span    diag.Span
	Message string
}

func (e *SyntaxError) Error() string { return e.Span.String() + ": " + e.Message }

// lines maps byte offsets of one file to line:column positions, counting
// columns in Unicode characters.
type lines struct {
	file   string
	data   []byte
	starts []int
}

func newLines(file string, data []byte) *lines {
	starts := make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lines{file: file, data: data, starts: starts}
}

func (l *lines) pos(offset int) diag.Position {
	offset = min(max(offset, 0), len(l.data))
	for offset > 0 && offset < len(l.data) && !utf8.RuneStart(l.data[offset]) {
		offset-- // inside a character: point at its start
	}
	line := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > offset }) - 1
	return diag.Position{Line: line + 1, Column: utf8.RuneCount(l.data[l.starts[line]:offset]) + 1}
}

func (l *lines) span(from, to int) diag.Span {
	return diag.Span{File: l.file, Start: l.pos(from), End: l.pos(to)}
}

// atLineCol turns a 1-based line and byte column into an offset.
func (l *lines) atLineCol(line, byteCol int) int {
	if line < 1 || line > len(l.starts) {
		return len(l.data)
	}
	return min(l.starts[line-1]+max(byteCol-1, 0), len(l.data))
}

// Parse reads a TOML 1.0 document into a positioned tree. Invalid TOML is
// returned as a *SyntaxError at the parser's position.
func Parse(file string, data []byte) (*Node, error) {
	l := newLines(file, data)
	// go-toml's decoder applies every TOML 1.0 rule (duplicate keys, tables
	// defined twice, invalid UTF-8); the unstable parser below only gives the
	// positions. The decoder runs first so that the tree is built from
	// well-formed input only.
	var sink map[string]any
	if err := toml.Unmarshal(data, &sink); err != nil {
		return nil, syntaxError(l, err)
	}
	b := builder{lines: l, root: &Node{Kind: KindTable, Span: l.span(0, 0)}}
	b.current = b.root
	p := unstable.Parser{}
	p.Reset(data)
	for p.NextExpression() {
		if err := b.expression(&p, p.Expression()); err != nil {
			return nil, err
		}
	}
	if err := p.Error(); err != nil {
		return nil, syntaxError(l, err)
	}
	return b.root, nil
}

func syntaxError(l *lines, err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		off := l.atLineCol(row, col)
		end := off
		if end < len(l.data) && l.data[end] != '\n' {
			_, w := utf8.DecodeRune(l.data[end:])
			end += w
		}
		return &SyntaxError{Span: l.span(off, end), Message: trimTOMLPrefix(de.Error())}
	}
	var pe *unstable.ParserError
	if errors.As(err, &pe) {
		return &SyntaxError{Span: l.span(0, 0), Message: pe.Message}
	}
	return &SyntaxError{Span: l.span(0, 0), Message: err.Error()}
}

func trimTOMLPrefix(msg string) string {
	const prefix = "toml: "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}

type builder struct {
	lines   *lines
	root    *Node
	current *Node
}

func (b *builder) offset(r unstable.Range) (int, int) {
	return int(r.Offset), int(r.Offset + r.Length)
}

// keys collects the segments of a key and the byte range each covers.
func (b *builder) keys(it unstable.Iterator) (names []string, ranges [][2]int) {
	for it.Next() {
		k := it.Node()
		from, to := b.offset(k.Raw)
		names = append(names, string(k.Data))
		ranges = append(ranges, [2]int{from, to})
	}
	return names, ranges
}

func (b *builder) expression(p *unstable.Parser, e *unstable.Node) error {
	switch e.Kind {
	case unstable.Table, unstable.ArrayTable:
		names, ranges := b.keys(e.Key())
		if len(names) == 0 {
			return nil
		}
		from := b.scanBack(ranges[0][0], '[')
		to := b.scanForward(ranges[len(ranges)-1][1], ']')
		if e.Kind == unstable.ArrayTable {
			from = b.scanBack(from, '[')
			to = b.scanForward(to, ']')
		}
		header := b.lines.span(from, to)
		parent := b.walk(b.root, names[:len(names)-1], ranges[:len(ranges)-1])
		last := names[len(names)-1]
		keySpan := b.lines.span(ranges[len(ranges)-1][0], ranges[len(ranges)-1][1])
		path := append(append([]string(nil), parent.Path...), last)
		if e.Kind == unstable.ArrayTable {
			arr := parent.Get(last)
			if arr == nil {
				arr = &Node{Kind: KindArray, ArrayOfTables: true, Span: header, Key: keySpan, Path: path}
				parent.add(last, arr)
			}
			t := &Node{Kind: KindTable, Header: true, Span: header, Key: keySpan, Path: path}
			arr.Items = append(arr.Items, t)
			b.current = t
			return nil
		}
		t := parent.Get(last)
		if t == nil || t.Kind != KindTable {
			t = &Node{Kind: KindTable, Path: path}
			parent.add(last, t)
		}
		t.Header, t.Span, t.Key = true, header, keySpan
		b.current = t
		return nil
	case unstable.KeyValue:
		return b.keyValue(p, b.current, e)
	}
	return nil
}

// walk descends through tables along names, creating the implicit ones, and
// into the last element of an array of tables.
func (b *builder) walk(t *Node, names []string, ranges [][2]int) *Node {
	for i, name := range names {
		next := t.Get(name)
		if next == nil {
			sp := b.lines.span(ranges[i][0], ranges[i][1])
			next = &Node{Kind: KindTable, Span: sp, Key: sp, Path: append(append([]string(nil), t.Path...), name)}
			t.add(name, next)
		}
		if next.Kind == KindArray && len(next.Items) > 0 {
			next = next.Items[len(next.Items)-1]
		}
		t = next
	}
	return t
}

func (b *builder) keyValue(p *unstable.Parser, t *Node, kv *unstable.Node) error {
	names, ranges := b.keys(kv.Key())
	if len(names) == 0 {
		return nil
	}
	parent := b.walk(t, names[:len(names)-1], ranges[:len(ranges)-1])
	_, kvEnd := b.offset(kv.Raw)
	valueStart := b.skipSpace(b.scanForward(ranges[len(ranges)-1][1], '='))
	last := names[len(names)-1]
	v, err := b.value(p, kv.Value(), valueStart, kvEnd, append(append([]string(nil), parent.Path...), last))
	if err != nil {
		return err
	}
	v.Key = b.lines.span(ranges[len(ranges)-1][0], ranges[len(ranges)-1][1])
	parent.add(last, v)
	return nil
}

// value builds a node for v, whose text is known to start at from and, for
// containers, to end at to (the parser records no range for arrays).
func (b *builder) value(p *unstable.Parser, v *unstable.Node, from, to int, path []string) (*Node, error) {
	n := &Node{Path: path}
	switch v.Kind {
	case unstable.String:
		n.Kind, n.Str = KindString, string(v.Data)
	case unstable.Bool:
		n.Kind, n.Bool = KindBool, len(v.Data) == 4 // "true"
	case unstable.Integer:
		n.Kind = KindInteger
		var x int64
		if err := toml.Unmarshal(append([]byte("x = "), v.Data...), &struct{ X *int64 }{&x}); err == nil {
			n.Int = x
		}
	case unstable.Float:
		n.Kind = KindFloat
		var x float64
		if err := toml.Unmarshal(append([]byte("x = "), v.Data...), &struct{ X *float64 }{&x}); err == nil {
			n.Float = x
		}
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		n.Kind = KindDatetime
	case unstable.Array:
		n.Kind = KindArray
		n.Span = b.lines.span(from, to)
		at := from + 1
		it := v.Children()
		for it.Next() {
			c := it.Node()
			start := b.elementStart(at)
			end := b.elementEnd(c, start)
			item, err := b.value(p, c, start, end, path)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, item)
			at = end
		}
		return n, nil
	case unstable.InlineTable:
		n.Kind = KindTable
		n.Span = b.lines.span(from, to)
		it := v.Children()
		for it.Next() {
			if err := b.keyValue(p, n, it.Node()); err != nil {
				return nil, err
			}
		}
		return n, nil
	default:
		return nil, &SyntaxError{Span: b.lines.span(from, to), Message: fmt.Sprintf("unsupported TOML value %s", v.Kind)}
	}
	vf, vt := b.offset(v.Raw)
	n.Span = b.lines.span(vf, vt)
	return n, nil
}

// elementStart skips white space, commas and comments between array elements.
func (b *builder) elementStart(at int) int {
	d := b.lines.data
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
	d := b.lines.data
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
			i = b.skipString(i)
		}
	}
	return len(d)
}

// skipString returns the offset of the last byte of the string starting at i.
func (b *builder) skipString(i int) int {
	d := b.lines.data
	q := d[i]
	if bytes.HasPrefix(d[i:], []byte{q, q, q}) {
		end := bytes.Index(d[i+3:], []byte{q, q, q})
		if end < 0 {
			return len(d) - 1
		}
		j := i + 3 + end + 2
		for j+1 < len(d) && d[j+1] == q { // up to two quotes may end the content
			j++
		}
		return j
	}
	for j := i + 1; j < len(d); j++ {
		switch {
		case d[j] == '\\' && q == '"':
			j++
		case d[j] == q, d[j] == '\n':
			return j
		}
	}
	return len(d) - 1
}

func (b *builder) scanForward(at int, c byte) int {
	if i := bytes.IndexByte(b.lines.data[at:], c); i >= 0 {
		return at + i + 1
	}
	return at
}

func (b *builder) scanBack(at int, c byte) int {
	if i := bytes.LastIndexByte(b.lines.data[:at], c); i >= 0 {
		return i
	}
	return at
}

func (b *builder) skipSpace(at int) int {
	d := b.lines.data
	for at < len(d) && (d[at] == ' ' || d[at] == '\t') {
		at++
	}
	return at
}
