// Package lineindex maps byte offsets of one file to the line:column
// positions diagnostics print, for the TOML and JSON readers alike.
package lineindex

import (
	"bytes"
	"sort"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/diag"
)

// Index maps byte offsets of one file to line:column positions, counting
// columns in Unicode characters.
type Index struct {
	File   string
	Data   []byte
	starts []int
}

// New indexes the lines of data, the bytes of file.
func New(file string, data []byte) *Index {
	starts := make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &Index{File: file, Data: data, starts: starts}
}

// Pos is the position of a byte offset; an offset inside a character
// points at that character.
func (l *Index) Pos(offset int) diag.Position {
	offset = min(max(offset, 0), len(l.Data))
	for offset > 0 && offset < len(l.Data) && !utf8.RuneStart(l.Data[offset]) {
		offset-- // inside a character: point at its start
	}
	line := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > offset }) - 1
	return diag.Position{Line: line + 1, Column: utf8.RuneCount(l.Data[l.starts[line]:offset]) + 1}
}

// Span is the span from one byte offset to another.
func (l *Index) Span(from, to int) diag.Span {
	return diag.Span{File: l.File, Start: l.Pos(from), End: l.Pos(to)}
}

// Offset turns a 1-based line and byte column into an offset.
func (l *Index) Offset(line, byteCol int) int {
	if line < 1 || line > len(l.starts) {
		return len(l.Data)
	}
	return min(l.starts[line-1]+max(byteCol-1, 0), len(l.Data))
}

// InvalidUTF8 returns the offset of the first byte that is not UTF-8, or -1.
func InvalidUTF8(data []byte) int {
	if utf8.Valid(data) {
		return -1
	}
	off := 0
	for off < len(data) {
		r, w := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && w == 1 {
			return off
		}
		off += w
	}
	return -1
}

// OffsetOf turns a position (its column counted in characters, as Pos
// gives it) back into a byte offset.
func (l *Index) OffsetOf(p diag.Position) int {
	if p.Line < 1 || p.Line > len(l.starts) {
		return len(l.Data)
	}
	off := l.starts[p.Line-1]
	for col := 1; col < p.Column && off < len(l.Data) && l.Data[off] != '\n'; col++ {
		_, w := utf8.DecodeRune(l.Data[off:])
		off += w
	}
	return off
}
