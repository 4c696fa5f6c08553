package lsp

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/textdiff"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/lint"
)

// The quick fixes of a finding are the fixes its rule attached
// (diag.Fix), one action each, in the rule's order: the first, the one the
// finding's help line names, is preferred when it is safe. A warning or
// an info finding also gets a suppression comment. The source action
// "fix all" makes every safe fix of the file, as kokua-lint --fix does.

// fix is one edit of the config that resolves a finding.
type fix struct {
	title string
	edits []diag.Edit
}

// sourceFixAll is the kind of the "fix all safe problems" action.
const sourceFixAll CodeActionKind = "source.fixAll"

// codeActions answers a code action request: the quick fixes of the
// findings whose spans meet the range, and "fix all" when the client
// wants it and a safe fix exists. What every request of one lint of the
// document shares is made once (actionIndex): which findings have
// actions, by place, and "fix all", which lints the file round by round.
// A request then costs time in proportion to the findings in its range,
// not to the file's (issue 37: with 20,000 findings each cursor move
// made "fix all" anew, 2 to 6 s under the server's one lock).
func (s *server) codeActions(p *CodeActionParams) []CodeAction {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []CodeAction{}
	d := s.current(p.TextDocument.URI)
	if d == nil || d.linted == nil {
		return out
	}
	x := s.actionsOf(d)
	from, to := d.text.byteOffset(p.Range.Start, s.enc), d.text.byteOffset(p.Range.End, s.enc)
	for _, i := range x.within(from, to) {
		f := d.linted.Diagnostics[i]
		for i, x := range f.Fixes {
			out = append(out, s.action(d, f, fix{x.Title, x.Edits}, quickFix, i == 0 && x.Safe))
		}
		if f.Severity != diag.Error {
			out = append(out, s.action(d, f, suppression(d.text, f), quickFix, false))
		}
	}
	if x.safe && wants(p.Context.Only, sourceFixAll) {
		if !x.fixAllMade {
			x.fixAllMade = true
			if all := s.fixAll(d); len(all.edits) > 0 {
				a := s.action(d, diag.Diagnostic{}, all, sourceFixAll, false)
				x.fixAll = &a
			}
		}
		if x.fixAll != nil {
			out = append(out, *x.fixAll)
		}
	}
	return out
}

// actionIndex is what the code actions of one lint of a document share.
// It is made at the first request after the lint and dropped with it:
// an edit, or a manifest reloaded, lints anew.
type actionIndex struct {
	linted *engine.Linted
	// at are the indexes in linted.Diagnostics of the document's own
	// findings that have actions (a fix, or a suppression comment: every
	// finding but an error without a fix), by start offset; start and end
	// their spans, reach the greatest end among at[:i+1].
	at, start, end, reach []int
	// safe: some finding has one fix, and it is safe, so "fix all", which
	// makes what kokua-lint --fix makes, has something to make.
	safe bool
	// fixAll is the "fix all" action, once made (nil when it edits
	// nothing).
	fixAll     *CodeAction
	fixAllMade bool
}

// actionsOf returns the document's action index for its current lint,
// making it when the lint is new. The caller holds mu.
func (s *server) actionsOf(d *document) *actionIndex {
	if d.actions != nil && d.actions.linted == d.linted {
		return d.actions
	}
	x := &actionIndex{linted: d.linted}
	type entry struct{ i, start, end int }
	var es []entry
	for i, f := range d.linted.Diagnostics {
		if f.Span.File != d.name {
			continue
		}
		x.safe = x.safe || len(f.Fixes) == 1 && f.Fixes[0].Safe
		if len(f.Fixes) == 0 && f.Severity == diag.Error {
			continue
		}
		start, end := spanOffsets(f.Span)
		es = append(es, entry{i, start, end})
	}
	slices.SortStableFunc(es, func(a, b entry) int { return a.start - b.start })
	reach := -1
	for _, e := range es {
		reach = max(reach, e.end)
		x.at, x.start, x.end, x.reach = append(x.at, e.i), append(x.start, e.start), append(x.end, e.end), append(x.reach, reach)
	}
	d.actions = x
	return x
}

// within lists, in the order of the document's findings, those whose
// spans meet [from, to]: a binary search for the last that starts by to,
// then back while an earlier one can still reach from.
func (x *actionIndex) within(from, to int) []int {
	hi := sort.SearchInts(x.start, to+1)
	var out []int
	for k := hi - 1; k >= 0 && x.reach[k] >= from; k-- {
		if x.end[k] >= from {
			out = append(out, x.at[k])
		}
	}
	slices.Sort(out)
	return out
}

// wants reports whether a client that asked only for the kinds only
// wants an action of kind k: a kind asks for itself and for every kind
// below it (source asks for source.fixAll); no kinds asks for all.
func wants(only []CodeActionKind, k CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if o == k || strings.HasPrefix(string(k), string(o)+".") {
			return true
		}
	}
	return false
}

// fixAll is every safe fix of the document, made round by round as
// kokua-lint --fix makes them (lint.Fix), written as the edits that turn
// the text into the fixed one.
func (s *server) fixAll(d *document) fix {
	if s.opts.fixAllMade != nil {
		s.opts.fixAllMade()
	}
	before := d.text.s
	fixed := lint.Fix(lint.Source{Name: d.name, Data: []byte(before)}, s.manifest, false)
	return fix{title: "Fix all safe problems in this file", edits: textdiff.Edits(before, string(fixed.Data))}
}

// action is one code action: the fix's edits, as the editor counts
// positions, for the finding f (none for the zero finding).
func (s *server) action(d *document, f diag.Diagnostic, x fix, kind CodeActionKind, preferred bool) CodeAction {
	edits := make([]TextEdit, len(x.edits))
	for j, e := range x.edits {
		edits[j] = TextEdit{Range: Range{Start: d.text.protocolPos(e.Start, s.enc), End: d.text.protocolPos(e.End, s.enc)}, NewText: e.New}
	}
	a := CodeAction{
		Title: x.title, Kind: kind, IsPreferred: preferred,
		Edit: &WorkspaceEdit{Changes: map[DocumentURI][]TextEdit{d.uri: edits}},
	}
	if f.Rule != "" {
		a.Diagnostics = []Diagnostic{s.toProtocol(d, f)}
	}
	return a
}

// suppressionLine reads a suppression comment alone on its line (after
// white space, and with nothing after its list that starts another line),
// and returns where the list of rule IDs starts and ends: the closing
// bracket is at end.
func suppressionLine(line string) (start, end int, ok bool) {
	comment := strings.TrimLeft(line, " \t\n\f\r") // \s of a regular expression
	from, to, ok := rules.SuppressionIDs(comment)
	if !ok || strings.Contains(comment[to:], "\n") {
		return 0, 0, false
	}
	at := len(line) - len(comment)
	return at + from, at + to, true
}

// suppression writes "# kokua-lint: ignore[<rule>] " alone on the line
// above the finding, indented as that line is, its line ending as the
// document's do; or, when a suppression is
// already alone there, adds the rule to it. The reason is left for the
// user to write: until they do, suppression-invalid says it is missing,
// and the finding stays, since a suppression without a reason hides
// nothing (internal/rules/suppress.go).
func suppression(t text, f diag.Diagnostic) fix {
	line := f.Span.Start.Line - 1
	title := fmt.Sprintf("Suppress %s on this line (then write the reason after the brackets)", f.Rule)
	if line > 0 {
		above := t.s[t.lines.LineStart(line):t.lines.LineEnd(line)]
		if _, end, ok := suppressionLine(above); ok {
			at := t.lines.LineStart(line) + end
			return fix{title: title, edits: []diag.Edit{{Start: at, End: at, New: "," + f.Rule}}}
		}
	}
	start := t.lines.LineStart(line + 1)
	indent := start
	for indent < len(t.s) && (t.s[indent] == ' ' || t.s[indent] == '\t') {
		indent++
	}
	return fix{title: title, edits: []diag.Edit{{Start: start, End: start, New: t.s[start:indent] + "# kokua-lint: ignore[" + f.Rule + "] " + t.eol}}}
}

func (s *server) definition(p *DefinitionParams) []Location {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.current(p.TextDocument.URI)
	sp, ok := s.at(d, p.Position)
	if !ok || sp.onKey || sp.node.Kind != tomlpos.KindString || roleOf(sp.path()) != roleAgent {
		return []Location{}
	}
	a := d.linted.Config.Agent(sp.node.Str)
	if a == nil {
		return []Location{}
	}
	return []Location{{URI: d.uri, Range: d.text.protocolRange(a.Span, s.enc)}}
}
