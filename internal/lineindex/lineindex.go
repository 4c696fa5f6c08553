// Package lineindex maps byte offsets of one file to the line:column
// positions diagnostics print, for the TOML and JSON readers alike.
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

// OffsetOf turns a position (its column counted in characters, as Pos
// gives it) back into a byte offset. A column past the end of its line
// gives the offset of the line's end.
func (l *Index) OffsetOf(p diag.Position) int {
	if p.Line < 1 || p.Line > len(l.starts) {
		return len(l.Data)
	}
	start := l.starts[p.Line-1]
	end := len(l.Data)
	if p.Line < len(l.starts) {
		end = l.starts[p.Line] - 1 // the line feed
	}
	if p.Column <= 1 {
		return start
	}
	if l.ascii {
		return min(start+p.Column-1, end)
	}
	// The character wanted is the one after want characters of the file.
	r0, _ := l.count(start)
	want := r0 + p.Column - 1
	// The last checkpoint on or after the line's start with no more than
	// want characters before it, then decode from there.
	first := start / checkpointEvery
	k := sort.Search(len(l.checkpoints)-first, func(i int) bool { return l.checkpoints[first+i].runes > want }) + first - 1
	off, runes := start, r0
	if k >= first && l.checkpoints[k].off > start {
		off, runes = l.checkpoints[k].off, l.checkpoints[k].runes
	}
	for off < end && runes < want {
		_, w := utf8.DecodeRune(l.Data[off:end])
		off += w
		runes++
	}
	return min(off, end)
}
