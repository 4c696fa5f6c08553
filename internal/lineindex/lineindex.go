// Package lineindex maps byte offsets of one file to the line:column
// positions diagnostics print, for the TOML and JSON readers alike, and
// to and from the positions an editor sends (a column in characters,
// UTF-16 code units or bytes, as the language server negotiates it). It is
// the only converter between the two: every other package reads a byte
// offset (diag.Position.Offset, tomlpos's node offsets) and asks here for
// a line or a column.
//
// New reads the file once; every question after that costs O(log n) in the
// number of lines, or less. Lines are found by binary search over their
// starts. A column is a byte count on a line of ASCII; otherwise it is
// counted from the nearest checkpoint before the offset (one every
// checkpointEvery bytes, holding the number of characters and of UTF-16
// code units before it), so no question scans a line from its start.
package lineindex

import (
	"bytes"
	"sort"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/diag"
)

// checkpointEvery is the distance in bytes between two checkpoints: the
// most bytes a column question decodes.
const checkpointEvery = 64

// Index maps byte offsets of one file to line:column positions, counting
// columns in Unicode characters (or, with PosUTF16, in UTF-16 code units).
type Index struct {
	File   string
	Data   []byte
	starts []int
	// ascii is true when every byte of Data is ASCII: a column is then a
	// byte count and there are no checkpoints.
	ascii bool
	// checkpoints[k] is the first character boundary at or after byte
	// k*checkpointEvery, with the characters and UTF-16 units before it.
	checkpoints []checkpoint
}

// checkpoint is a character boundary and what comes before it.
type checkpoint struct {
	off   int // a byte offset at which a character starts
	runes int // characters in Data[:off], as utf8.RuneCount counts them
	units int // UTF-16 code units in Data[:off]
}

// New indexes the lines of data, the bytes of file, in one pass.
func New(file string, data []byte) *Index {
	starts := make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))
	ascii := true
	for i, b := range data {
		switch {
		case b == '\n':
			starts = append(starts, i+1)
		case b >= utf8.RuneSelf:
			ascii = false
		}
	}
	l := &Index{File: file, Data: data, starts: starts, ascii: ascii}
	if !ascii {
		l.checkpoints = checkpoints(data)
	}
	return l
}

// checkpoints decodes data once, recording a checkpoint at the first
// character boundary in each block of checkpointEvery bytes. Characters
// are decoded as utf8.DecodeRune does, so an invalid byte counts as one
// character (and one UTF-16 unit), as utf8.RuneCount counts it.
func checkpoints(data []byte) []checkpoint {
	cps := make([]checkpoint, 0, len(data)/checkpointEvery+2)
	runes, units := 0, 0
	for off := 0; off < len(data); {
		for len(cps)*checkpointEvery <= off {
			cps = append(cps, checkpoint{off: off, runes: runes, units: units})
		}
		w := 1
		if b := data[off]; b < utf8.RuneSelf {
			units++
		} else {
			var r rune
			r, w = utf8.DecodeRune(data[off:])
			units++
			if r > 0xFFFF {
				units++ // a surrogate pair
			}
		}
		runes++
		off += w
	}
	for len(cps)*checkpointEvery <= len(data) {
		cps = append(cps, checkpoint{off: len(data), runes: runes, units: units})
	}
	return cps
}

// count returns the characters and UTF-16 units in Data[:off], off being a
// character boundary.
func (l *Index) count(off int) (runes, units int) {
	if l.ascii {
		return off, off
	}
	cp := l.checkpoints[off/checkpointEvery]
	runes, units = cp.runes, cp.units
	for at := cp.off; at < off; {
		r, w := utf8.DecodeRune(l.Data[at:off])
		runes++
		units++
		if r > 0xFFFF {
			units++
		}
		at += w
	}
	return runes, units
}

// clamp keeps offset inside the file and, inside a character, moves it to
// that character's start.
func (l *Index) clamp(offset int) int {
	offset = min(max(offset, 0), len(l.Data))
	for offset > 0 && offset < len(l.Data) && !utf8.RuneStart(l.Data[offset]) {
		offset--
	}
	return offset
}

// line returns the 0-based line that holds offset.
func (l *Index) line(offset int) int {
	return sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > offset }) - 1
}

// Pos is the position of a byte offset, its column counted in characters;
// an offset inside a character points at that character.
func (l *Index) Pos(offset int) diag.Position {
	offset = l.clamp(offset)
	line := l.line(offset)
	r, _ := l.count(offset)
	r0, _ := l.count(l.starts[line])
	return diag.Position{Line: line + 1, Column: r - r0 + 1, Offset: offset}
}

// PosUTF16 is the position of a byte offset with its column counted in
// UTF-16 code units (a character outside the Basic Multilingual Plane
// counts two), as editors speaking the Language Server Protocol count it.
func (l *Index) PosUTF16(offset int) diag.Position {
	offset = l.clamp(offset)
	line := l.line(offset)
	_, u := l.count(offset)
	_, u0 := l.count(l.starts[line])
	return diag.Position{Line: line + 1, Column: u - u0 + 1, Offset: offset}
}

// PosUTF8 is the position of a byte offset with its column counted in
// bytes (UTF-8 code units); an offset inside a character points at that
// character.
func (l *Index) PosUTF8(offset int) diag.Position {
	offset = l.clamp(offset)
	line := l.line(offset)
	return diag.Position{Line: line + 1, Column: offset - l.starts[line] + 1, Offset: offset}
}

// Unit is what one unit of a column counts, for OffsetAt.
type Unit int

// The units a column is counted in: characters as Pos counts them (a
// UTF-32 code unit each), UTF-16 code units as PosUTF16 counts them, and
// bytes (UTF-8 code units) as PosUTF8 counts them.
const (
	Chars Unit = iota
	UTF16
	UTF8
)

// width is how many units of u a character counts for: r, written in w
// bytes.
func (u Unit) width(r rune, w int) int {
	switch u {
	case UTF8:
		return w
	case UTF16:
		if r > 0xFFFF {
			return 2 // a surrogate pair
		}
	}
	return 1
}

// units returns the units of u before a checkpoint.
func (u Unit) units(cp checkpoint) int {
	switch u {
	case UTF8:
		return cp.off
	case UTF16:
		return cp.units
	}
	return cp.runes
}

// LineStart is the offset line n (1-based) starts at; the end of the file
// for a line past its last, the start of the file for one before its first.
func (l *Index) LineStart(n int) int {
	switch {
	case n < 1:
		return 0
	case n > len(l.starts):
		return len(l.Data)
	}
	return l.starts[n-1]
}

// LineEnd is the offset line n (1-based) ends at: before its line feed,
// and before a carriage return that comes just before the line feed. A
// line past the last ends at the end of the file, one before the first at
// its start.
func (l *Index) LineEnd(n int) int {
	switch {
	case n < 1:
		return 0
	case n >= len(l.starts):
		return len(l.Data)
	}
	end := l.starts[n] - 1
	if end > l.starts[n-1] && l.Data[end-1] == '\r' {
		end--
	}
	return end
}

// OffsetAt turns a 1-based line and a 1-based column counted in u into a
// byte offset: the inverse of Pos, PosUTF16 and PosUTF8 for the editor. A
// line past the last is the end of the file; a column past the end of its
// line (LineEnd) is the line's end; a column inside a character (half a
// surrogate pair, a byte inside a UTF-8 sequence) is that character's
// start. Characters are decoded as utf8.DecodeRune decodes them.
func (l *Index) OffsetAt(line, column int, u Unit) int {
	off, _ := l.offsetAt(line, column, u)
	return off
}

// offsetAt is OffsetAt, and the offset it decoded from: never more than a
// checkpoint's distance and a character before the answer.
func (l *Index) offsetAt(line, column int, u Unit) (off, from int) {
	if line > len(l.starts) {
		return len(l.Data), len(l.Data)
	}
	start, end := l.LineStart(line), l.LineEnd(line)
	if column <= 1 {
		return start, start
	}
	if l.ascii {
		off = min(start+column-1, end)
		return off, off
	}
	// The answer is the last character boundary with no more than want
	// units before it: decode from the last checkpoint on the line with no
	// more than want units before it, or from the line's start.
	r0, u0 := l.count(start)
	at := u.units(checkpoint{off: start, runes: r0, units: u0})
	want := at + column - 1
	first := start / checkpointEvery
	k := sort.Search(len(l.checkpoints)-first, func(i int) bool { return u.units(l.checkpoints[first+i]) > want }) + first - 1
	off = start
	if k >= first && l.checkpoints[k].off > start {
		off, at = l.checkpoints[k].off, u.units(l.checkpoints[k])
	}
	from = off
	for off < end {
		r, w := utf8.DecodeRune(l.Data[off:end])
		n := u.width(r, w)
		if at+n > want {
			break
		}
		at += n
		off += w
	}
	return min(off, end), from
}

// Span is the span from one byte offset to another.
func (l *Index) Span(from, to int) diag.Span {
	return diag.Span{File: l.File, Start: l.Pos(from), End: l.Pos(to)}
}

// Lines is the number of lines: one more than the number of line feeds.
func (l *Index) Lines() int { return len(l.starts) }

// Line returns line n (1-based) without its line feed, or false when the
// file has no such line.
func (l *Index) Line(n int) ([]byte, bool) {
	if n < 1 || n > len(l.starts) {
		return nil, false
	}
	end := len(l.Data)
	if n < len(l.starts) {
		end = l.starts[n] - 1
	}
	return l.Data[l.starts[n-1]:end], true
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
