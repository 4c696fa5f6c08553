package tomlpos

import (
	"bytes"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
)

// Comment is one TOML comment: its text from the '#' to the end of the
// line, where it starts, and whether it is alone on its line.
type Comment struct {
	Text string
	Span diag.Span
	// Alone is true for a comment with nothing but white space before it.
	Alone bool
}

// Comments finds every comment of a valid TOML document, skipping the '#'
// inside strings of all four kinds.
func Comments(l *lineindex.Index) []Comment {
	d := l.Data
	var out []Comment
	lineStart := 0
	for i := 0; i < len(d); i++ {
		switch c := d[i]; c {
		case '\n':
			lineStart = i + 1
		case '"', '\'':
			end := skipTOMLString(d, i)
			if nl := bytes.LastIndexByte(d[i:end], '\n'); nl >= 0 {
				lineStart = i + nl + 1
			}
			i = end - 1
		case '#':
			end := bytes.IndexByte(d[i:], '\n')
			if end < 0 {
				end = len(d)
			} else {
				end += i
			}
			text := bytes.TrimRight(d[i:end], "\r")
			out = append(out, Comment{Text: string(text), Span: l.Span(i, i+len(text)),
				Alone: len(bytes.TrimSpace(d[lineStart:i])) == 0})
			i = end - 1
		}
	}
	return out
}

// skipTOMLString returns the offset just past the string that starts at i.
func skipTOMLString(d []byte, i int) int {
	q := d[i]
	if bytes.HasPrefix(d[i:], []byte{q, q, q}) {
		end := bytes.Index(d[i+3:], []byte{q, q, q})
		if end < 0 {
			return len(d)
		}
		j := i + 3 + end + 3
		for j < len(d) && d[j] == q { // up to two quotes may end the content
			j++
		}
		return j
	}
	for j := i + 1; j < len(d); j++ {
		switch {
		case d[j] == '\\' && q == '"':
			j++
		case d[j] == q, d[j] == '\n':
			return j + 1
		}
	}
	return len(d)
}
