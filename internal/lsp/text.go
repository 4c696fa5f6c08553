package lsp

import (
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/kokua-policy/kokua-policy/diag"
)

// Positions. A diagnostic says where it is as a 1-based line and a 1-based
// column counted in Unicode characters (diag.Position). The protocol counts
// lines from 0 and columns in code units of the encoding the two sides
// agreed on: UTF-16 unless the client offers another (positionEncoding,
// LSP 3.17). A character outside the Basic Multilingual Plane is one
// character, two UTF-16 code units, four UTF-8 code units and one UTF-32
// code unit.

// Encoding is a position encoding: what one unit of a column counts.
type Encoding string

// The position encodings of the protocol.
const (
	UTF8  Encoding = "utf-8"
	UTF16 Encoding = "utf-16"
	UTF32 Encoding = "utf-32"
)

// units is how many code units the rune r, written in w bytes, counts for.
func (e Encoding) units(r rune, w int) int {
	switch e {
	case UTF8:
		return w
	case UTF32:
		return 1
	}
	if r >= 0x10000 && w == 4 {
		return 2
	}
	return 1
}

// text is one version of a document, with the offsets its lines start at.
type text struct {
	s      string
	starts []int
}

func newText(s string) text {
	starts := make([]int, 1, 64)
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return text{s: s, starts: starts}
}

// lineEnd is the offset of the end of line i (0-based), before its line
// break.
func (t text) lineEnd(i int) int {
	if i+1 < len(t.starts) {
		end := t.starts[i+1] - 1
		if end > t.starts[i] && t.s[end-1] == '\r' {
			end--
		}
		return end
	}
	return len(t.s)
}

// offset turns a protocol position into a byte offset. A line past the
// end is the end of the text; a column past the end of its line is the
// end of the line; a column inside a character is that character's start.
func (t text) offset(p protocol.Position, e Encoding) int {
	line := int(p.Line)
	if line >= len(t.starts) {
		return len(t.s)
	}
	off, end := t.starts[line], t.lineEnd(line)
	for col := 0; off < end; {
		r, w := utf8.DecodeRuneInString(t.s[off:end])
		n := e.units(r, w)
		if col+n > int(p.Character) {
			break
		}
		col += n
		off += w
	}
	return off
}

// position turns a byte offset into a protocol position.
func (t text) position(off int, e Encoding) protocol.Position {
	off = min(max(off, 0), len(t.s))
	line := sort.Search(len(t.starts), func(i int) bool { return t.starts[i] > off }) - 1
	col := 0
	for i := t.starts[line]; i < off; {
		r, w := utf8.DecodeRuneInString(t.s[i:off])
		col += e.units(r, w)
		i += w
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

// diagOffset turns a diagnostic's position into a byte offset.
func (t text) diagOffset(p diag.Position) int {
	if p.Line < 1 {
		return 0
	}
	if p.Line > len(t.starts) {
		return len(t.s)
	}
	off, end := t.starts[p.Line-1], t.lineEnd(p.Line-1)
	for col := 1; col < p.Column && off < end; col++ {
		_, w := utf8.DecodeRuneInString(t.s[off:end])
		off += w
	}
	return off
}

// diagPosition turns a byte offset into a diagnostic's position.
func (t text) diagPosition(off int) diag.Position {
	off = min(max(off, 0), len(t.s))
	line := sort.Search(len(t.starts), func(i int) bool { return t.starts[i] > off }) - 1
	return diag.Position{Line: line + 1, Column: utf8.RuneCountInString(t.s[t.starts[line]:off]) + 1}
}

// rangeOf turns a span into a protocol range; a span with no position is
// the start of the text, and an end before the start is the start.
func (t text) rangeOf(s diag.Span, e Encoding) protocol.Range {
	if s.IsZero() {
		return protocol.Range{}
	}
	start := t.diagOffset(s.Start)
	end := start
	if !s.End.IsZero() {
		end = max(t.diagOffset(s.End), start)
	}
	return protocol.Range{Start: t.position(start, e), End: t.position(end, e)}
}

// edit replaces the text between two protocol positions.
func (t text) edit(r protocol.Range, with string, e Encoding) text {
	from, to := t.offset(r.Start, e), t.offset(r.End, e)
	if to < from {
		from, to = to, from
	}
	return newText(t.s[:from] + with + t.s[to:])
}

// walker turns diagnostics' positions, taken in the order the findings are
// sorted, into byte offsets and protocol positions. It walks a line on
// from the last position it was asked for, and from the line's start only
// when a position goes back, so that n findings on one long line cost the
// line once rather than n times (issue 18: a line of 990,000 findings).
type walker struct {
	t text
	e Encoding
	// the last position: its 1-based line and column, byte offset and
	// protocol column.
	line, col, off, units int
}

// seek returns the byte offset and the protocol position of p, as
// diagOffset and position give them.
func (w *walker) seek(p diag.Position) (int, protocol.Position) {
	switch {
	case p.Line < 1:
		return 0, protocol.Position{}
	case p.Line > len(w.t.starts):
		return len(w.t.s), w.t.position(len(w.t.s), w.e)
	}
	if p.Line != w.line || p.Column < w.col {
		w.line, w.col, w.off, w.units = p.Line, 1, w.t.starts[p.Line-1], 0
	}
	end := w.t.lineEnd(p.Line - 1)
	for w.col < p.Column && w.off < end {
		r, n := utf8.DecodeRuneInString(w.t.s[w.off:end])
		w.off += n
		w.units += w.e.units(r, n)
		w.col++
	}
	return w.off, protocol.Position{Line: uint32(p.Line - 1), Character: uint32(w.units)}
}

// ranger turns the spans of sorted findings into byte offsets and
// protocol ranges as rangeOf does, with a walker for their starts and
// one for their ends.
type ranger struct{ start, end walker }

func newRanger(t text, e Encoding) *ranger {
	return &ranger{start: walker{t: t, e: e}, end: walker{t: t, e: e}}
}

// span returns the byte offsets of s, as diagOffset gives them, and its
// protocol range, as rangeOf gives it.
func (r *ranger) span(s diag.Span) (from, to int, rng protocol.Range) {
	if s.IsZero() {
		return 0, 0, protocol.Range{}
	}
	from, start := r.start.seek(s.Start)
	to, end := from, start
	if !s.End.IsZero() {
		if off, pos := r.end.seek(s.End); off > from {
			to, end = off, pos
		}
	}
	return from, to, protocol.Range{Start: start, End: end}
}
