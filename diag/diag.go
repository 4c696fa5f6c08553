// Package diag holds the one type every lint problem is reported as, whether
// the TOML reader, the manifest reader or a rule finds it, and the source
// positions those problems point at. Hosts read it: it is what lint.Lint
// returns.
//
// It depends on the standard library only, so that every reader and rule
// can use it.
package diag

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Severity says how serious a diagnostic is.
type Severity int

// The severities, most serious first. Their order is used when comparing
// against a --fail-on threshold.
const (
	Error Severity = iota
	Warning
	Info
)

var severityNames = [...]string{Error: "error", Warning: "warning", Info: "info"}

// String returns the lowercase name used in every output format.
func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// AtLeast reports whether s is as serious as threshold or more.
func (s Severity) AtLeast(threshold Severity) bool { return s <= threshold }

// ParseSeverity reads a severity name as the command line spells it.
func ParseSeverity(name string) (Severity, error) {
	for i, n := range severityNames {
		if n == name {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", name)
}

// MarshalText writes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Phase names the stage of Kokua's startup (or later life) at which a
// problem would surface. The first six are the phases of docs/semantics.md, in the
// order Kokua runs them.
type Phase string

// The phases.
const (
	PhaseParse    Phase = "parse"
	PhaseRegister Phase = "register"
	PhaseValidate Phase = "validate"
	PhaseResolve  Phase = "resolve"
	PhaseAlert    Phase = "alert"
	PhaseBuild    Phase = "build"
	// PhaseInput is for the linter's own inputs: a file that cannot be read,
	// or a manifest that does not describe an install.
	PhaseInput Phase = "input"
)

// Position is a place in a file. Offset, the byte offset into the file, is
// what the place is; Line (1-based) and Column (1-based, counted in
// Unicode characters) are how a terminal shows it, and are only ever
// derived from Offset, by internal/lineindex, the one converter of the
// project. The zero Position means "no position".
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Offset int `json:"-"`
}

// IsZero reports whether p is the zero Position.
func (p Position) IsZero() bool { return p.Line == 0 }

// Compare orders positions by line, then column.
func (p Position) Compare(q Position) int {
	if c := cmp.Compare(p.Line, q.Line); c != 0 {
		return c
	}
	return cmp.Compare(p.Column, q.Column)
}

// Span is a range of text in one file. End is exclusive: the column (and
// the byte offset) just after the last character, so the text of a span
// is data[Start.Offset:End.Offset].
type Span struct {
	File  string
	Start Position
	End   Position
}

// IsZero reports whether the span points nowhere.
func (s Span) IsZero() bool { return s.Start.IsZero() }

// String writes the span the way compilers do, file:line:column.
func (s Span) String() string {
	if s.IsZero() {
		return s.File
	}
	return fmt.Sprintf("%s:%d:%d", s.File, s.Start.Line, s.Start.Column)
}

// Diagnostic is one problem. The same type carries syntax errors, lint
// findings, compile failures and runtime refusals.
type Diagnostic struct {
	// Rule is the kebab-case ID of the check that found the problem.
	Rule     string
	Severity Severity
	Phase    Phase
	Message  string
	// Span is where the problem is. Its file may be the config or the manifest.
	Span Span
	// Key is the key path as a config file spells it, such as
	// [agents.coder.tools].confirm; empty when the problem is not about a key.
	Key string
	// Suggestion is a fix, in words, when one is known: the help line.
	Suggestion string
	// Fixes are the edits that resolve the problem, when the rule that
	// found it knows them, the preferred one first: the one Suggestion
	// names. See Fix.
	Fixes []Fix
	// Notes are sentences that follow the message, such as a long list it
	// refers to (every toolset the registry has): the human format prints
	// each on a "note:" line of its own, so that the first line stays
	// short; JSON, SARIF and annotations carry them in Text.
	Notes []string
	// Refs are the numbers (R118, A8) of docs/semantics.md the check implements.
	Refs []string
}

// Text is the message with its notes, the full text formats for programs
// carry.
func (d Diagnostic) Text() string {
	if len(d.Notes) == 0 {
		return d.Message
	}
	return d.Message + " " + strings.Join(d.Notes, " ")
}

// Compare orders diagnostics by file, line, column, rule, then the rest, so
// that sorted output is the same on every run.
func Compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.Span.File, b.Span.File),
		a.Span.Start.Compare(b.Span.Start),
		cmp.Compare(a.Rule, b.Rule),
		a.Span.End.Compare(b.Span.End),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Key, b.Key),
	)
}

// Sort sorts diagnostics in place by Compare and drops exact duplicates.
func Sort(ds []Diagnostic) []Diagnostic {
	slices.SortStableFunc(ds, Compare)
	return slices.CompactFunc(ds, func(a, b Diagnostic) bool {
		return Compare(a, b) == 0 && a.Severity == b.Severity && a.Suggestion == b.Suggestion
	})
}

// Error makes a Diagnostic usable as a Go error.
func (d Diagnostic) Error() string {
	return fmt.Sprintf("%s: %s: %s [%s]", d.Span, d.Severity, d.Message, d.Rule)
}

// Quote writes a name from a config between single quotes, with control
// characters and quotes escaped so that nothing a user wrote can change how
// the output looks on a terminal or in a log.
func Quote(s string) string {
	return "'" + Escape(s) + "'"
}

// Escape replaces control characters, invalid UTF-8, bidirectional
// formatting characters, the backslash and the single quote in s with
// Go-style escapes. Printable text, non-ASCII letters included, is kept.
// It is for a name that goes between quotes; Printable is for text.
func Escape(s string) string { return escape(s, true, false) }

// Printable is the escaping every output applies to every string that
// came from outside (a path, a message that may quote a name, a source
// line) before it reaches a terminal, a log or a workflow command: the
// runes Escape escapes, the quote and the backslash excepted, so that
// text Escape or Quote already made is left as it is. The result is one
// line: a line feed is written \n.
func Printable(s string) string { return escape(s, false, false) }

// PrintableLines is Printable for text of several lines, such as a whole
// report: line feeds are kept and everything else Printable escapes is
// escaped.
func PrintableLines(s string) string { return escape(s, false, true) }

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

// PrintableJSON escapes, as JSON \u escapes, every rune of a JSON text
// that Unsafe reports and encoding/json writes as it is (DEL, the C1
// controls, the bidirectional overrides, invisible separators), so that
// JSON printed on a terminal carries none of them raw. The line feeds
// and spaces of an indented text are kept; encoding/json has already
// escaped what JSON requires, so whatever is left can only be inside a
// string, where the escape decodes back to the same rune. A JSON text
// that holds none is returned as it is.
func PrintableJSON(data []byte) []byte {
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

// PrintableWriter writes to W what it is given with PrintableLines
// applied to each write, for a stream of lines that carries no escape
// sequence of its own, such as a command's standard error: whatever a
// message quotes raw, the stream gets no control or bidirectional
// character but its line feeds. A rune split across two writes is
// escaped byte by byte: shown, never passed through.
type PrintableWriter struct{ W io.Writer }

// Write writes p, escaped, and reports len(p) when the escaped text was
// written whole.
func (w PrintableWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, PrintableLines(string(p))); err != nil {
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
