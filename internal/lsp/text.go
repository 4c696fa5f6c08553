package lsp

import (
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
)

// Positions. A diagnostic says where it is as a byte offset of the file
// (diag.Position.Offset), its line and column made from it. The protocol
// counts lines from 0 and columns in code units of the encoding the two
// sides agreed on: UTF-16 unless the client offers another
// (positionEncoding, LSP 3.17). A character outside the Basic
// Multilingual Plane is one character, two UTF-16 code units, four UTF-8
// code units and one UTF-32 code unit. Every conversion between a byte
// offset and a protocol position is internal/lineindex's, on the index
// each version of a document keeps; this file only changes the counting
// from 1 to 0.

// Encoding is a position encoding: what one unit of a column counts.
type Encoding string

// The position encodings of the protocol.
const (
	UTF8  Encoding = "utf-8"
	UTF16 Encoding = "utf-16"
	UTF32 Encoding = "utf-32"
)

// unit is what a column of the encoding counts, as lineindex names it.
func (e Encoding) unit() lineindex.Unit {
	switch e {
	case UTF8:
		return lineindex.UTF8
	case UTF32:
		return lineindex.Chars
	}
	return lineindex.UTF16
}

// text is one version of a document, the line index of its bytes, and
// the line end the lines an edit adds are written with: CRLF in a
// document whose lines end in CRLF, as the fixes' own TOML editor writes
// them (internal/tomledit), decided once for the version.
type text struct {
	s     string
	lines *lineindex.Index
	eol   string
}

func newText(s string) text {
	eol := "\n"
	if strings.Contains(s, "\r\n") {
		eol = "\r\n"
	}
	return text{s: s, lines: lineindex.New("", []byte(s)), eol: eol}
}

// byteOffset is the byte offset of a protocol position. A line past the
// end is the end of the text; a column past the end of its line is the
// end of the line, before its line break; a column inside a character is
// that character's start.
func (t text) byteOffset(p Position, e Encoding) int {
	return t.lines.OffsetAt(int(p.Line)+1, int(p.Character)+1, e.unit())
}

// protocolPos is the protocol position of a byte offset.
func (t text) protocolPos(off int, e Encoding) Position {
	var p diag.Position
	switch e {
	case UTF8:
		p = t.lines.PosUTF8(off)
	case UTF32:
		p = t.lines.Pos(off)
	default:
		p = t.lines.PosUTF16(off)
	}
	return Position{Line: uint32(p.Line - 1), Character: uint32(p.Column - 1)}
}

// spanOffsets are the byte offsets of a span of this document: 0, 0 for
// a span with no position, and an end before the start is the start.
func spanOffsets(s diag.Span) (from, to int) {
	if s.IsZero() {
		return 0, 0
	}
	from, to = s.Start.Offset, s.Start.Offset
	if !s.End.IsZero() {
		to = max(s.End.Offset, from)
	}
	return from, to
}

// protocolRange is the protocol range of a span of this document; a span
// with no position is the start of the text.
func (t text) protocolRange(s diag.Span, e Encoding) Range {
	if s.IsZero() {
		return Range{}
	}
	from, to := spanOffsets(s)
	return Range{Start: t.protocolPos(from, e), End: t.protocolPos(to, e)}
}

// edit replaces the text between two protocol positions.
func (t text) edit(r Range, with string, e Encoding) text {
	from, to := t.byteOffset(r.Start, e), t.byteOffset(r.End, e)
	if to < from {
		from, to = to, from
	}
	return newText(t.s[:from] + with + t.s[to:])
}
