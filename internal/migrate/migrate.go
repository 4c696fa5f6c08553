// Package migrate rewrites a config.toml written before Kokua's
// tool-access split into the layout Kokua reads now (rules.md R19, R20):
// an agent's tools list becomes [agents.<name>.tools].available, the
// global [security].confirm_tools and [security.auto_approval].tools become
// [assistant.tools].confirm and review with every bare tool name written
// toolset.tool, and the older removed keys get their rewrite where one is
// mechanical. It is the library behind kokua-lint migrate.
//
// No host imports this package; it lives under internal/. Migrating is a
// step a person takes once and reviews (kokua-lint migrate, with --diff
// to see it first), not something a program does while it runs, and its
// Result carries the linter's model (engine.Linted).
//
// An old key is found by its path, however TOML spells it (a [header]
// table, a dotted key, an inline table), and its rewrite is written in the
// form of the table it goes into (forms.go).
//
// Every edit is made at the byte positions the positioned TOML tree
// (internal/tomlpos) knows, never by encoding the document again: comments,
// blank lines, key order and every line the migration does not touch stay
// byte for byte. A list it writes afresh keeps every comment it held, by
// the entry it was next to, or above the new list when that entry left it,
// with a change saying so. What a person must decide is never guessed: the
// migration leaves a comment starting "# kokua-lint migrate:" on the line
// above, and reports the place. Migrating a migrated config changes
// nothing.
package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/english"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/textdiff"
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
)

// Marker starts every comment the migration leaves where a person must
// decide. A config holding one still needs that person: delete the
// comment once the place is settled.
const Marker = "# kokua-lint migrate:"

// Options says what to do beyond the migration itself.
type Options struct {
	// Fix also applies the linter's own fixes that are unique and only
	// tighten: an approval entry that gates nothing, with exactly one
	// prefixed form or exactly one close match, is rewritten to it.
	Fix bool
}

// Change is one rewrite, at the line of the input it was made at.
type Change struct {
	Line    int
	Message string
}

// Place is where a person must decide: the line of the output holding the
// marker comment, and the comment's text after the marker.
type Place struct {
	Line    int
	Message string
}

// Result is a migrated config.
type Result struct {
	// Output is the migrated config; equal to the input when nothing was
	// to be done.
	Output []byte
	// Changes are the rewrites made, in input order.
	Changes []Change
	// Places are the marker comments in the output, in line order.
	Places []Place
	// Lint is what the linter finds in the output.
	Lint *engine.Linted
	// Losses are the gates of Kokua's built-in pair the migrated
	// [assistant.tools] drops (losses.go).
	Losses []Loss
}

// Clean reports whether the output needs no person: it lints with no
// error and carries no marker comment.
func (r *Result) Clean() bool { return len(r.Places) == 0 && !r.Lint.HasErrors() }

// Unreadable is the error of an input the reader could not read: where it
// stopped, and why. Limit is set when the input passed one of the reader's
// own limits (tomlpos.SyntaxError.Limit) rather than being invalid TOML.
type Unreadable struct {
	Span    diag.Span
	Message string
	Limit   bool
}

func (e *Unreadable) Error() string { return e.Span.String() + ": " + e.Message }

// ErrInternal is wrapped by the error of a migration that went wrong in
// the migration itself: edits that overlap, or an output that is not
// valid TOML. It is a fault to report, never the input's; no output is
// returned with it, so nothing is written.
var ErrInternal = errors.New("internal error")

// Migrate rewrites one config against a manifest. The error is an
// *Unreadable for input the reader cannot read, wraps ErrInternal for a
// fault of the migration itself, or says why the manifest cannot be used;
// nothing can be migrated then.
func Migrate(src lint.Source, m *lint.Manifest, opts Options) (*Result, error) {
	if em := engine.ManifestOf(m); em.Manifest == nil {
		msg := "the manifest cannot be read"
		if len(em.Problems) > 0 {
			msg = em.Problems[0].Span.String() + ": " + em.Problems[0].Message
		}
		return nil, errors.New(msg + " (kokua-lint --manifest FILE says more)")
	}
	c, err := config.Load(src.Name, src.Data)
	var syntax *tomlpos.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return nil, &Unreadable{Span: syntax.Span, Message: syntax.Message, Limit: syntax.Limit}
	case err != nil:
		return nil, err
	}
	mg := newMigration(src, c, m)
	mg.run()
	out, err := textdiff.Apply(src.Data, mg.ed.Done())
	if err != nil {
		return nil, fmt.Errorf("%w: the migration's edits overlap: %w; please report it", ErrInternal, err)
	}
	res := &Result{Changes: mg.changes}
	if opts.Fix {
		out, res.Changes = fix(src.Name, out, m, res.Changes)
	}
	out, err = markErrors(src.Name, out, m)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(res.Changes, func(a, b Change) int { return cmpLine(a.Line, b.Line) })
	res.Output = out
	res.Lint = engine.Run(lint.Source{Name: src.Name, Data: out}, m)
	res.Losses = losses(c, res.Lint)
	res.Places = places(src.Name, out)
	return res, nil
}

// migration holds one run's view of the input and the edits it collects.
type migration struct {
	src     lint.Source
	cfg     *config.Config
	root    *tomlpos.Node
	lines   *lineindex.Index
	toolsOf map[string][]string // tool name -> toolsets providing it, manifest order
	toolsIn map[string][]string // toolset name -> its tools, for the manifest's toolsets and core
	known   map[string]bool     // toolset names: the manifest's and [[mcp.server]] names
	// doc is the input as the TOML editor reads it, and ed the edits
	// the migration makes with it (internal/tomledit), in the order made.
	doc     *tomledit.Doc
	ed      *tomledit.Edits
	changes []Change
	within  map[int]int // lines inside a multi-line string -> its first; see stringLines
	entry   string      // the entry agent's name
	// gone are the old keys and tables the migration took out of the
	// table they were written in (emptied).
	gone map[*tomlpos.Node]bool
}

func newMigration(src lint.Source, c *config.Config, m *lint.Manifest) *migration {
	mg := &migration{src: src, cfg: c, root: c.Root, lines: lineindex.New(src.Name, src.Data),
		toolsOf: map[string][]string{}, toolsIn: map[string][]string{kokua.Core: kokua.CoreTools()}, known: map[string]bool{kokua.Core: true}, entry: c.EntryAgent.Value,
		doc: tomledit.New(src.Data, c.Root), gone: map[*tomlpos.Node]bool{}}
	mg.ed = mg.doc.Edit()
	for _, t := range engine.ManifestOf(m).Manifest.Toolsets {
		mg.known[t.Name] = true
		for _, tool := range t.Tools {
			mg.toolsIn[t.Name] = append(mg.toolsIn[t.Name], tool.Name)
			if !slices.Contains(mg.toolsOf[tool.Name], t.Name) {
				mg.toolsOf[tool.Name] = append(mg.toolsOf[tool.Name], t.Name)
			}
		}
	}
	for _, tool := range kokua.CoreTools() {
		mg.toolsOf[tool] = append(mg.toolsOf[tool], kokua.Core)
	}
	if servers := c.Root.Lookup("mcp", "server"); servers != nil {
		for _, s := range servers.Items {
			if n := s.Get("name"); n != nil && n.Kind == tomlpos.KindString {
				mg.known[n.Str] = true
			}
		}
	}
	return mg
}

// valueFrom and valueTo are the bytes a node's value starts and ends at,
// keyFrom the byte its key starts at (tomlpos's offsets, no line:column).
func valueFrom(n *tomlpos.Node) int {
	from, _ := n.Offsets()
	return from
}

func valueTo(n *tomlpos.Node) int {
	_, to := n.Offsets()
	return to
}

func keyFrom(n *tomlpos.Node) int {
	from, _ := n.KeyOffsets()
	return from
}

func (mg *migration) lineStart(off int) int { return mg.doc.LineStart(off) }

// lineEnd is the offset just past the newline ending off's line.
func (mg *migration) lineEnd(off int) int { return mg.doc.LineEnd(off) }

// indent is the white space a line starts with.
func (mg *migration) indent(off int) string { return mg.doc.Indent(off) }

// edit replaces the bytes from..to with text, whose lines end as the
// file's do.
func (mg *migration) edit(from, to int, text string) { mg.ed.Replace(from, to, text) }

func (mg *migration) change(n *tomlpos.Node, format string, args ...any) {
	at := n.Key()
	if at.Start.Line == 0 {
		at = n.Span()
	}
	mg.changes = append(mg.changes, Change{Line: at.Start.Line, Message: fmt.Sprintf(format, args...)})
}

// flag is a marker comment line, to be inserted above a line indented by
// indent.
func flag(indent, format string, args ...any) string {
	return indent + Marker + " " + commentSafe(fmt.Sprintf(format, args...)) + "\n"
}

// flagAt inserts a marker comment above the line holding off, unless an
// earlier migration left the same one there.
func (mg *migration) flagAt(off int, format string, args ...any) {
	if mg.within == nil {
		mg.within = stringLines(mg.root)
	}
	if first, ok := mg.within[mg.lines.Pos(off).Line]; ok {
		off = mg.lines.Offset(first, 1) // a line inside a string: above the string's first
	}
	text := flag(mg.indent(off), format, args...)
	at := mg.lineStart(off)
	if markedAbove(mg.src.Data, at, strings.TrimSpace(text)) {
		return
	}
	mg.edit(at, at, text)
}

// commentSafe keeps a text on one comment line: TOML comments take no
// control character but tab.
func commentSafe(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// strings of a list node; ok is false for anything but a list of strings.
func stringsOf(n *tomlpos.Node) ([]string, bool) {
	if n == nil || n.Kind != tomlpos.KindArray {
		return nil, false
	}
	out := make([]string, 0, len(n.Items))
	for _, it := range n.Items {
		if it.Kind != tomlpos.KindString {
			return nil, false
		}
		out = append(out, it.Str)
	}
	return out, true
}

// listText writes a list of strings as TOML on one line.
func listText(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = tomlpos.BasicString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// arrayText is a list's own text with some items replaced, so that its
// layout, comments inside it included, stays as written.
func (mg *migration) arrayText(n *tomlpos.Node, repl map[int]string) string {
	from, to := valueFrom(n), valueTo(n)
	var b strings.Builder
	at := from
	for i, it := range n.Items {
		r, ok := repl[i]
		if !ok {
			continue
		}
		s, e := valueFrom(it), valueTo(it)
		b.Write(mg.src.Data[at:s])
		b.WriteString(tomlpos.BasicString(r))
		at = e
	}
	b.Write(mg.src.Data[at:to])
	return b.String()
}

// renamed is a toolset name as Kokua registers it now.
func renamed(name string) string {
	if r, ok := kokua.Renamed(name); ok {
		return r
	}
	return name
}

// and joins names as "a, b and c", bounded as english.Names is.
func and(names []string) string { return english.Names(names, "and", nil) }

// Diff is the unified diff from the input to the output, empty when they
// are equal. A relative name is labelled a/NAME and b/NAME, as git writes
// it, so that patch -p1 applies it from the same folder.
func Diff(name string, before, after []byte) string {
	if bytes.Equal(before, after) {
		return ""
	}
	from, to := name, name
	if !filepath.IsAbs(name) {
		from, to = "a/"+filepath.ToSlash(name), "b/"+filepath.ToSlash(name)
	}
	return textdiff.Unified(from, to, string(before), string(after))
}

// cmpLine orders changes by line, those of no one line last.
func cmpLine(a, b int) int {
	switch {
	case a == b:
		return 0
	case a == 0:
		return 1
	case b == 0:
		return -1
	case a < b:
		return -1
	}
	return 1
}
