// Package printable writes text from outside (a name from a config or a
// manifest, a path, a message that quotes them) so that it prints as
// itself on a terminal or in a log: control characters, invisible
// separators, bidirectional overrides and invalid UTF-8 become escapes.
// Every output of the module applies it, first of all; internal/escape
// builds each format's own escaping on it. It also writes the counts the
// outputs give in place of a list (Thousands).
//
// It depends on the standard library only, so that every package can use
// it.
package printable

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Quote writes a name from a config between single quotes, with control
// characters and quotes escaped so that nothing a user wrote can change how
// the output looks on a terminal or in a log.
func Quote(s string) string {
	return "'" + Escape(s) + "'"
}

// Escape replaces control characters, invalid UTF-8, bidirectional
// formatting characters, the backslash and the single quote in s with
// Go-style escapes. Printable text, non-ASCII letters included, is kept.
// It is for a name that goes between quotes; String is for text.
func Escape(s string) string { return escape(s, true, false) }

// String is the escaping every output applies to every string that
// came from outside (a path, a message that may quote a name, a source
// line) before it reaches a terminal, a log or a workflow command: the
// runes Escape escapes, the quote and the backslash excepted, so that
// text Escape or Quote already made is left as it is. The result is one
// line: a line feed is written \n.
func String(s string) string { return escape(s, false, false) }

// Lines is String for text of several lines, such as a whole
// report: line feeds are kept and everything else String escapes is
// escaped.
func Lines(s string) string { return escape(s, false, true) }

// escape is the one escaping function of the project. quotes escapes the
// single quote and the backslash too (for a name between quotes); lines
// keeps line feeds (for text of several lines).
func escape(s string, quotes, lines bool) string {
	if !needsEscape(s, quotes, lines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, w := 0, 0; i < len(s); i += w {
		r, width := utf8.DecodeRuneInString(s[i:])
		w = width
		switch {
		case r == utf8.RuneError && width == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case quotes && (r == '\'' || r == '\\'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n' && lines:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case Unsafe(r):
			if r < 0x10000 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(s string, quotes, lines bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if quotes && (c == '\'' || c == '\\') || c < 0x20 && !(lines && c == '\n') || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 || Unsafe(r) {
			return true
		}
		i += w
	}
	return false
}

// Unsafe reports runes that would not print as themselves: control
// characters, invisible separators and the bidirectional overrides that
// can reorder a line. Every output of the project escapes them.
func Unsafe(r rune) bool {
	switch {
	case r == 0x200e || r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return !unicode.IsPrint(r) && r != ' '
}

// JSON escapes, as JSON \u escapes, every rune of a JSON text
// that Unsafe reports and encoding/json writes as it is (DEL, the C1
// controls, the bidirectional overrides, invisible separators), so that
// JSON printed on a terminal carries none of them raw. The line feeds
// and spaces of an indented text are kept; encoding/json has already
// escaped what JSON requires, so whatever is left can only be inside a
// string, where the escape decodes back to the same rune. A JSON text
// that holds none is returned as it is.
func JSON(data []byte) []byte {
	clean := true
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				clean = false
				break
			}
			i++
			continue
		}
		r, w := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && w == 1 || Unsafe(r) {
			clean = false
			break
		}
		i += w
	}
	if clean {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf && c != 0x7f {
			out = append(out, c)
			i++
			continue
		}
		r, w := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			// encoding/json never writes invalid UTF-8; a byte of it here is
			// written as the replacement character it stands for.
			out = append(out, `\ufffd`...)
		case r >= 0x10000 && Unsafe(r):
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		case c == 0x7f || Unsafe(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, data[i:i+w]...)
		}
		i += w
	}
	return out
}

// Writer writes to W what it is given with Lines
// applied to each write, for a stream of lines that carries no escape
// sequence of its own, such as a command's standard error: whatever a
// message quotes raw, the stream gets no control or bidirectional
// character but its line feeds. A rune split across two writes is
// escaped byte by byte: shown, never passed through.
type Writer struct{ W io.Writer }

// Write writes p, escaped, and reports len(p) when the escaped text was
// written whole.
func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, Lines(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Thousands writes a count with a comma between each group of three
// digits, as the outputs write the counts they do not list: 2,997.
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
