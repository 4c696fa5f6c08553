package lint

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/kokua-policy/kokua-policy/diag"
)

// Human writes diagnostics the way compilers do:
//
//	config.toml:12:11: error: message [rule-id]
//	  12 | confirm = ["mcp.add_mcp_servr"]
//	     |            ^~~~~~~~~~~~~~~~~~~
//	  help: write 'mcp.add_mcp_server'
//
// sources maps a file name to its bytes, for the quoted source line.
type Human struct {
	Color   bool
	Sources map[string][]byte
}

// Write writes every diagnostic, then a summary line when there are any.
func (h Human) Write(w io.Writer, ds []diag.Diagnostic) error {
	paint := func(c *color.Color) *color.Color {
		if h.Color {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	bold := paint(color.New(color.Bold))
	sev := map[diag.Severity]*color.Color{
		diag.Error:   paint(color.New(color.FgRed, color.Bold)),
		diag.Warning: paint(color.New(color.FgYellow, color.Bold)),
		diag.Info:    paint(color.New(color.FgCyan, color.Bold)),
	}
	gutter := paint(color.New(color.FgBlue))
	caret := paint(color.New(color.FgGreen, color.Bold))
	help := paint(color.New(color.FgCyan))

	var b bytes.Buffer
	counts := map[diag.Severity]int{}
	for _, d := range ds {
		counts[d.Severity]++
		fmt.Fprintf(&b, "%s %s %s [%s]\n", bold.Sprint(d.Span.String()+":"), sev[d.Severity].Sprint(d.Severity.String()+":"), d.Message, d.Rule)
		if line, ok := sourceLine(h.Sources[d.Span.File], d.Span.Start.Line); ok && !d.Span.IsZero() {
			num := fmt.Sprint(d.Span.Start.Line)
			pad := strings.Repeat(" ", len(num))
			fmt.Fprintf(&b, "  %s %s\n", gutter.Sprint(num+" |"), line)
			indent, marks := underline(line, d.Span)
			fmt.Fprintf(&b, "  %s %s%s\n", gutter.Sprint(pad+" |"), indent, caret.Sprint(marks))
		}
		if d.Suggestion != "" {
			fmt.Fprintf(&b, "  %s %s\n", help.Sprint("help:"), d.Suggestion)
		}
	}
	if len(ds) > 0 {
		fmt.Fprintf(&b, "%s\n", summary(counts))
	}
	_, err := w.Write(b.Bytes())
	return err
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

// sourceLine returns line n of data, with control characters shown as '?'
// and tabs as one space so that the underline lines up character for
// character.
func sourceLine(data []byte, n int) (string, bool) {
	if data == nil || n < 1 {
		return "", false
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return "", false
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
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
		case r == utf8.RuneError && w == 1, diag.Unsafe(r):
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
