// Package diag holds the one type every lint problem is reported as, whether
// the TOML reader, the manifest reader or a rule finds it, and the source
// positions those problems point at. A host reads the Diagnostic values
// lint.Lint and compile.Compile return: their rule, severity (AtLeast
// against a threshold), message and span, sorted as the commands print
// them (Sort); and it makes their fixes, which are data, with Apply.
//
// It depends on the standard library only, so that every reader and rule
// can use it.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
