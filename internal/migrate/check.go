package migrate

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/textdiff"
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/lint"
)

// fix makes the linter's safe fixes on the migrated config (lint.Fix):
// an approval entry that gates nothing, with exactly one prefixed form (a
// bare tool name one toolset provides) or exactly one close match, is
// rewritten to it, which adds a gate and takes none away (R30, R31,
// R208). Each fix made is a change of the migration.
func fix(name string, data []byte, m *lint.Manifest, changes []Change) ([]byte, []Change) {
	fixed := lint.Fix(lint.Source{Name: name, Data: data}, m, false)
	for _, a := range fixed.Applied {
		msg := "--fix: " + a.Fix.Title
		var was, now string
		if e := a.Fix.Edits; len(e) == 1 && unquote([]byte(e[0].New), &now) == nil &&
			unquote(a.Text[e[0].Start:e[0].End], &was) == nil {
			msg = fmt.Sprintf("--fix: %q in %s became %q, the one entry it can mean", was, a.Finding.Key, now)
		}
		changes = append(changes, Change{Line: a.Finding.Span.Start.Line, Message: msg})
	}
	return fixed.Data, changes
}

// unquote reads one TOML string literal.
func unquote(lit []byte, s *string) error {
	root, err := tomlpos.Parse("", append([]byte("x = "), lit...))
	if err != nil {
		return err
	}
	n := root.Get("x")
	if n == nil || n.Kind != tomlpos.KindString {
		return fmt.Errorf("not a string")
	}
	*s = n.Str
	return nil
}

// markErrors lints the migrated config and leaves a marker comment above
// the line of every error still in it, unless the same comment is already
// there, so that each place a person must look at says so where it is.
func markErrors(name string, data []byte, m *lint.Manifest) ([]byte, error) {
	res := engine.Run(lint.Source{Name: name, Data: data}, m)
	if res.Config == nil {
		_, err := tomlpos.Parse(name, data)
		return nil, fmt.Errorf("%w: the migrated config is not valid TOML (%w); please report it", ErrInternal, err)
	}
	lines := lineindex.New(name, data)
	within := stringLines(res.Config.Root)
	var edits []diag.Edit
	// One marker per line, rule and key: the first finding's message, and
	// how many more the linter has there.
	type mark struct {
		at               int
		head, text, help string
		more             int
	}
	var marks []*mark
	byHead := map[string]*mark{}
	for _, d := range res.Diagnostics {
		if d.Severity != diag.Error || d.Span.File != name || d.Span.Start.Line < 1 {
			continue
		}
		line := d.Span.Start.Line
		if first, ok := within[line]; ok {
			line = first // a line inside a string: above the string's first
		}
		at := lines.Offset(line, 1)
		if d.Span.Start.Offset >= len(bytes.TrimRight(data, " \t\r\n")) {
			// A finding at the end of the file (a table to paste there):
			// its marker goes after the last line, not among the keys of
			// the table written last.
			at = len(data)
		}
		head := Marker + " " + d.Rule
		if d.Key != "" {
			head += " at " + d.Key
		}
		if mk := byHead[fmt.Sprint(at, head)]; mk != nil {
			mk.more++
			continue
		}
		mk := &mark{at: at, head: head, text: d.Text(), help: d.Suggestion}
		byHead[fmt.Sprint(at, head)] = mk
		marks = append(marks, mk)
	}
	ends := tomledit.New(data, nil)
	for _, mk := range marks {
		if markedAbove(data, mk.at, mk.head) {
			continue
		}
		text := mk.head + ": " + mk.text
		// The help line of the first finding, unless its message already
		// says it, or it says to run the migration leaving the marker.
		if mk.help != "" && !strings.Contains(text, mk.help) && !strings.Contains(mk.help, "kokua-lint migrate") {
			text = strings.TrimSuffix(text, ".") + ". Help: " + mk.help
			if !strings.HasSuffix(text, "?") && !strings.HasSuffix(text, ".") {
				text += "."
			}
		}
		if mk.more > 0 {
			text += fmt.Sprintf(" (and %d more here: kokua-lint lists them)", mk.more)
		}
		indent := data[mk.at:]
		indent = indent[:len(indent)-len(bytes.TrimLeft(indent, " \t"))]
		// At the end of the file, a blank line sets the marker apart from
		// the table written last.
		lead := ""
		switch {
		case mk.at != len(data) || len(data) == 0 || bytes.HasSuffix(data, []byte("\n\n")) || bytes.HasSuffix(data, []byte("\n\r\n")):
		case data[len(data)-1] == '\n':
			lead = "\n"
		default:
			lead = "\n\n"
		}
		edits = append(edits, diag.Edit{Start: mk.at, End: mk.at, New: ends.LineEnds(lead + string(indent) + commentSafe(text) + "\n")})
	}
	out, err := textdiff.Apply(data, edits)
	if err != nil {
		return nil, fmt.Errorf("%w: the markers overlap: %w; please report it", ErrInternal, err)
	}
	if _, err := tomlpos.Parse(name, out); err != nil {
		return nil, fmt.Errorf("%w: the migrated config is not valid TOML (%w); please report it", ErrInternal, err)
	}
	return out, nil
}

// stringLines maps each line that starts inside a multi-line string of
// the document to the line the string starts on: a comment cannot be put
// on such a line, which is part of the string.
func stringLines(root *tomlpos.Node) map[int]int {
	out := map[int]int{}
	var walk func(n *tomlpos.Node)
	walk = func(n *tomlpos.Node) {
		if sp := n.Span(); n.Kind == tomlpos.KindString && sp.End.Line > sp.Start.Line {
			for l := sp.Start.Line + 1; l <= sp.End.Line; l++ {
				out[l] = sp.Start.Line
			}
		}
		for _, f := range n.Fields {
			walk(f.Value)
		}
		for _, it := range n.Items {
			walk(it)
		}
	}
	walk(root)
	return out
}

// markedAbove reports whether one of the marker comments right above the
// line at offset at is head, or starts with head and a colon. When that
// line is itself a marker comment, as the first line is for a finding of
// the whole file once marked, the marker comments right below it count
// too: the block of markers the line is in is the one to look through.
func markedAbove(data []byte, at int, head string) bool {
	is := func(line string) bool { return line == head || strings.HasPrefix(line, head+":") }
	for from := at; from < len(data); {
		end := bytes.IndexByte(data[from:], '\n')
		if end < 0 {
			end = len(data) - from
		}
		line := strings.TrimSpace(string(data[from : from+end]))
		if !strings.HasPrefix(line, Marker) {
			break
		}
		if is(line) {
			return true
		}
		from += end + 1
	}
	for at > 0 {
		start := bytes.LastIndexByte(data[:at-1], '\n') + 1
		line := strings.TrimSpace(string(data[start : at-1]))
		if !strings.HasPrefix(line, Marker) {
			return false
		}
		if is(line) {
			return true
		}
		at = start
	}
	return false
}

// places finds every marker comment of the output.
func places(name string, data []byte) []Place {
	var out []Place
	for _, c := range tomlpos.Comments(lineindex.New(name, data)) {
		if text, ok := strings.CutPrefix(c.Text, Marker); ok {
			out = append(out, Place{Line: c.Span.Start.Line, Message: strings.TrimSpace(text)})
		}
	}
	return out
}
