package lint

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// Style paints the parts of the human output, one function per role,
// each given the text of its part and returning it painted. A nil
// function leaves its part as it is, so the zero Style is plain text. The
// commands fill it with terminal colours; the library knows none.
type Style struct {
	// Location paints "file:line:column:" at the start of a finding.
	Location func(string) string
	// Error, Warning and Info paint the severity word with its colon.
	Error, Warning, Info func(string) string
	// Gutter paints the line number and the bar before a quoted line.
	Gutter func(string) string
	// Underline paints the ^~~~ marks under the span.
	Underline func(string) string
	// Help paints the "help:" label before a suggestion.
	Help func(string) string
}

// paint applies a role's function, or nothing when it has none.
func paint(f func(string) string, s string) string {
	if f == nil {
		return s
	}
	return f(s)
}

// severity paints a severity word as its role asks.
func (st Style) severity(s diag.Severity, text string) string {
	switch s {
	case diag.Error:
		return paint(st.Error, text)
	case diag.Warning:
		return paint(st.Warning, text)
	case diag.Info:
		return paint(st.Info, text)
	}
	return text
}

// writeHuman writes diagnostics the way compilers do, then a summary line
// when there are any:
//
//	config.toml:12:11: error: message [rule-id]
//	  12 | confirm = ["mcp.add_mcp_servr"]
//	     |            ^~~~~~~~~~~~~~~~~~~
//	  note: a sentence of the message too long for its first line
//	  help: write 'mcp.add_mcp_server'
//
// sources maps a file name to its bytes, for the quoted source line. Past
// MaxFindingsPerFile findings of one file, the rest are counted on a line
// before the summary, which counts every finding.
func writeHuman(w io.Writer, ds []diag.Diagnostic, sources map[string][]byte, st Style) error {
	b := bufio.NewWriterSize(w, writeBuffer)
	counts := map[diag.Severity]int{}
	quoted := sourceLines{sources: sources, indexes: map[string]*lineindex.Index{}}
	for _, d := range ds {
		counts[d.Severity]++
	}
	shown := newCapped()
	for _, d := range ds {
		if !shown.shows(d) {
			continue
		}
		// Every string that came from outside (the file name, the message and
		// notes that quote names, the suggestion) goes through
		// printable.String: no control or bidirectional character reaches the
		// terminal raw, and each part stays on its line.
		fmt.Fprintf(b, "%s %s %s [%s]\n", paint(st.Location, printable.String(d.Span.String())+":"), st.severity(d.Severity, d.Severity.String()+":"), printable.String(d.Message), printable.String(d.Rule))
		if line, ok := quoted.line(d.Span.File, d.Span.Start.Line); ok && !d.Span.IsZero() {
			num := fmt.Sprint(d.Span.Start.Line)
			pad := strings.Repeat(" ", len(num))
			fmt.Fprintf(b, "  %s %s\n", paint(st.Gutter, num+" |"), line)
			indent, marks := underline(line, d.Span)
			fmt.Fprintf(b, "  %s %s%s\n", paint(st.Gutter, pad+" |"), indent, paint(st.Underline, marks))
		}
		for _, note := range d.Notes {
			fmt.Fprintf(b, "  %s %s\n", paint(st.Help, "note:"), printable.String(note))
		}
		if d.Suggestion != "" {
			fmt.Fprintf(b, "  %s %s\n", paint(st.Help, "help:"), printable.String(d.Suggestion))
		}
	}
	for _, line := range shown.notShown() {
		fmt.Fprintf(b, "%s\n", line)
	}
	if len(ds) > 0 {
		fmt.Fprintf(b, "%s\n", summary(counts))
	}
	return b.Flush()
}

func summary(counts map[diag.Severity]int) string {
	plural := func(n int, word string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, word)
		}
		return fmt.Sprintf("%d %ss", n, word)
	}
	return fmt.Sprintf("%s, %s, %d info", plural(counts[diag.Error], "error"), plural(counts[diag.Warning], "warning"), counts[diag.Info])
}

// sourceLines finds the quoted lines of the source files. Each file's lines
// are indexed once, at its first finding, so that finding a line costs the
// same wherever it is in the file.
type sourceLines struct {
	sources map[string][]byte
	indexes map[string]*lineindex.Index
}

// line returns line n of a file, with control characters shown as '?' and
// tabs as one space so that the underline lines up character for
// character; false when the file is not held or has no such line.
func (q sourceLines) line(file string, n int) (string, bool) {
	data := q.sources[file]
	if data == nil || n < 1 {
		return "", false
	}
	l, ok := q.indexes[file]
	if !ok {
		l = lineindex.New(file, data)
		q.indexes[file] = l
	}
	if data, ok = l.Line(n); !ok {
		return "", false
	}
	data = bytes.TrimSuffix(data, []byte{'\r'})
	const maxLine = 400
	var b strings.Builder
	count := 0
	for len(data) > 0 && count < maxLine {
		r, w := utf8.DecodeRune(data)
		data = data[w:]
		count++
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r == utf8.RuneError && w == 1, printable.Unsafe(r):
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), true
}

// underline returns the indent and the ^~~~ marks that go under the
// span's part of the line; a span running past the line is marked to its
// end.
func underline(line string, s diag.Span) (indent, marks string) {
	width := utf8.RuneCountInString(line)
	from := min(max(s.Start.Column-1, 0), width)
	to := width
	if s.End.Line == s.Start.Line {
		to = min(max(s.End.Column-1, from+1), width)
	}
	indent = strings.Repeat(" ", from)
	if to <= from {
		return indent, "^"
	}
	return indent, "^" + strings.Repeat("~", to-from-1)
}
