package lineindex

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/diag"
)

// plain answers every question the slow, obvious way: by scanning the
// line from its start. The index must give exactly its answers.
type plain struct{ data []byte }

func (p plain) lineStart(offset int) (line, start int) {
	line = 1 + bytes.Count(p.data[:offset], []byte{'\n'})
	return line, bytes.LastIndexByte(p.data[:offset], '\n') + 1
}

func (p plain) clamp(offset int) int {
	offset = min(max(offset, 0), len(p.data))
	for offset > 0 && offset < len(p.data) && !utf8.RuneStart(p.data[offset]) {
		offset--
	}
	return offset
}

func (p plain) pos(offset int) diag.Position {
	offset = p.clamp(offset)
	line, start := p.lineStart(offset)
	return diag.Position{Line: line, Column: utf8.RuneCount(p.data[start:offset]) + 1, Offset: offset}
}

func (p plain) posUTF16(offset int) diag.Position {
	offset = p.clamp(offset)
	line, start := p.lineStart(offset)
	return diag.Position{Line: line, Column: len(utf16.Encode([]rune(string(p.data[start:offset])))) + 1, Offset: offset}
}

func (p plain) posUTF8(offset int) diag.Position {
	offset = p.clamp(offset)
	line, start := p.lineStart(offset)
	return diag.Position{Line: line, Column: offset - start + 1, Offset: offset}
}

// line returns where line n starts and its text, without its line feed
// or the carriage return before one; ok is false past the last line.
func (p plain) line(n int) (start int, text []byte, ok bool) {
	lines := bytes.SplitAfter(p.data, []byte{'\n'})
	if n < 1 || n > len(lines) {
		return 0, nil, false
	}
	for _, l := range lines[:n-1] {
		start += len(l)
	}
	text = lines[n-1]
	if bytes.HasSuffix(text, []byte{'\n'}) {
		text = bytes.TrimSuffix(text[:len(text)-1], []byte{'\r'})
	}
	return start, text, true
}

// offsetAt walks line n from its start, one character at a time, until
// the next would take the column past col.
func (p plain) offsetAt(n, col int, u Unit) int {
	start, text, ok := p.line(n)
	switch {
	case n < 1:
		return 0
	case !ok:
		return len(p.data)
	}
	at, i := 1, 0
	for i < len(text) {
		r, w := utf8.DecodeRune(text[i:])
		width := 1
		switch u {
		case UTF8:
			width = w
		case UTF16:
			width = len(utf16.Encode([]rune{r}))
		}
		if at+width > col {
			break
		}
		at += width
		i += w
	}
	return start + i
}

// check compares the index with plain at every offset of data and at
// every position up to a few columns past each line's end.
func check(t *testing.T, name string, data []byte) {
	t.Helper()
	l, p := New("f", data), plain{data}
	for off := -1; off <= len(data)+1; off++ {
		if got, want := l.Pos(off), p.pos(off); got != want {
			t.Fatalf("%s: Pos(%d) = %v, want %v (data %q)", name, off, got, want, data)
		}
		if got, want := l.PosUTF16(off), p.posUTF16(off); got != want {
			t.Fatalf("%s: PosUTF16(%d) = %v, want %v (data %q)", name, off, got, want, data)
		}
		if got, want := l.PosUTF8(off), p.posUTF8(off); got != want {
			t.Fatalf("%s: PosUTF8(%d) = %v, want %v (data %q)", name, off, got, want, data)
		}
		if at := l.clamp(off); !l.ascii && at-l.checkpoints[at/checkpointEvery].off >= checkpointEvery {
			t.Fatalf("%s: a column at %d decodes %d bytes, more than a checkpoint's distance", name, at, at-l.checkpoints[at/checkpointEvery].off)
		}
		roundTrip(t, name, l, off)
	}
	lines := bytes.Count(data, []byte{'\n'}) + 1
	if l.Lines() != lines {
		t.Fatalf("%s: Lines() = %d, want %d", name, l.Lines(), lines)
	}
	widest := 0
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		widest = max(widest, utf8.RuneCount(line))
	}
	for line := 0; line <= lines+1; line++ {
		start, text, ok := p.line(line)
		wantStart, wantEnd := start, start+len(text)
		if !ok && line > 0 {
			wantStart, wantEnd = len(data), len(data)
		}
		if got, gotEnd := l.LineStart(line), l.LineEnd(line); got != wantStart || gotEnd != wantEnd {
			t.Fatalf("%s: line %d runs %d..%d, want %d..%d (data %q)", name, line, got, gotEnd, wantStart, wantEnd, data)
		}
		for col := 0; col <= 4*widest+3; col++ {
			for _, u := range []Unit{Chars, UTF16, UTF8} {
				got, from := l.offsetAt(line, col, u)
				if want := p.offsetAt(line, col, u); got != want {
					t.Fatalf("%s: OffsetAt(%d, %d, %v) = %d, want %d (data %q)", name, line, col, u, got, want, data)
				}
				if got-from >= checkpointEvery+utf8.UTFMax {
					t.Fatalf("%s: OffsetAt(%d, %d, %v) decoded %d bytes, more than a checkpoint's distance", name, line, col, u, got-from)
				}
			}
		}
		got, ok := l.Line(line)
		want := []byte(nil)
		if line >= 1 && line <= lines {
			want = bytes.Split(data, []byte{'\n'})[line-1]
		}
		if ok != (want != nil) || !bytes.Equal(got, want) {
			t.Fatalf("%s: Line(%d) = %q, %v; want %q", name, line, got, ok, want)
		}
	}
}

// roundTrip holds OffsetAt to be the inverse of Pos, PosUTF16 and PosUTF8
// in valid UTF-8, at every offset but a line feed's after a carriage
// return: a column on that line feed is past the line's end, which is
// before the carriage return.
func roundTrip(t *testing.T, name string, l *Index, off int) {
	t.Helper()
	if !utf8.Valid(l.Data) || off < 0 || off > len(l.Data) || off < len(l.Data) && !utf8.RuneStart(l.Data[off]) ||
		off > 0 && off < len(l.Data) && l.Data[off] == '\n' && l.Data[off-1] == '\r' {
		return
	}
	for u, pos := range map[Unit]func(int) diag.Position{Chars: l.Pos, UTF16: l.PosUTF16, UTF8: l.PosUTF8} {
		p := pos(off)
		if back := l.OffsetAt(p.Line, p.Column, u); back != off {
			t.Fatalf("%s: offset %d is %v in unit %d, which OffsetAt turns into %d", name, off, p, u, back)
		}
	}
}

func TestIndexAgreesWithScanning(t *testing.T) {
	cases := map[string]string{
		"empty":               "",
		"ascii":               "a = 1\nb = [1, 2]\n",
		"no final newline":    "a\nbc",
		"crlf":                "a = 1\r\nb = 2\r\n",
		"two-byte":            "name = \"café\"\nx = 1\n",
		"three-byte":          "k = \"日本語\" # コメント\n",
		"four-byte":           "emoji = \"🙂🙂\"\nafter = 1\n",
		"invalid bytes":       "a = \"\xff\xfe\"\nb = \"\xe2\x82\"\n\x80\x80x\n",
		"truncated at end":    "x = \"\xf0\x9f\x99",
		"long line, mixed":    strings.Repeat("aé🙂日", 100) + "\n" + strings.Repeat("z", 200),
		"checkpoint boundary": strings.Repeat("a", checkpointEvery-1) + "é" + strings.Repeat("🙂", checkpointEvery),
		"blank lines":         "\n\n\né\n\n",
	}
	for name, data := range cases {
		check(t, name, []byte(data))
	}
}

// TestIndexAgreesOnRandomText draws files from a small alphabet of
// one- to four-byte characters, line feeds and stray invalid bytes, long
// enough to cross many checkpoints.
func TestIndexAgreesOnRandomText(t *testing.T) {
	alphabet := []string{"a", " ", "\n", "\r\n", "é", "日", "🙂", "\x80", "\xff", "\xe2\x82", "\t"}
	r := rand.New(rand.NewPCG(13, 2))
	for i := range 200 {
		var b strings.Builder
		for range r.IntN(300) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		check(t, "random "+string(rune('0'+i%10)), []byte(b.String()))
	}
}

func TestSpan(t *testing.T) {
	l := New("c.toml", []byte("a = \"é\"\nb = 2\n"))
	got := l.Span(4, 8)
	want := diag.Span{File: "c.toml", Start: diag.Position{Line: 1, Column: 5, Offset: 4}, End: diag.Position{Line: 1, Column: 8, Offset: 8}}
	if got != want {
		t.Fatalf("Span(4, 8) = %v, want %v", got, want)
	}
}

func TestInvalidUTF8(t *testing.T) {
	for data, want := range map[string]int{"": -1, "abc": -1, "é": -1, "a\xffb": 1, "\xe2\x82": 0, "é\x80": 2} {
		if got := InvalidUTF8([]byte(data)); got != want {
			t.Errorf("InvalidUTF8(%q) = %d, want %d", data, got, want)
		}
	}
}

// FuzzIndex holds the index to plain on any bytes.
func FuzzIndex(f *testing.F) {
	for _, s := range []string{"", "a\nb", "é\n🙂\r\n\xff", strings.Repeat("日", 50)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			data = data[:512]
		}
		check(t, "fuzz", data)
	})
}

// BenchmarkPos asks for the position of every 7th byte of one line of
// 100,000 characters, mixed ASCII and not: each question costs the same
// wherever it falls on the line.
func BenchmarkPos(b *testing.B) {
	data := []byte(strings.Repeat("ab é 日 🙂, ", 10000))
	l := New("f", data)
	b.ReportAllocs()
	for b.Loop() {
		for off := 0; off < len(data); off += 7 {
			l.Pos(off)
		}
	}
}

// BenchmarkOffsetAt asks for the byte offset of every 7th UTF-16 column of
// the same line as BenchmarkPos, as an editor's positions arrive: each
// question costs the same wherever it falls on the line.
func BenchmarkOffsetAt(b *testing.B) {
	data := []byte(strings.Repeat("ab é 日 🙂, ", 10000))
	l := New("f", data)
	last := l.PosUTF16(len(data)).Column
	b.ReportAllocs()
	for b.Loop() {
		for col := 1; col < last; col += 7 {
			l.OffsetAt(1, col, UTF16)
		}
	}
}
