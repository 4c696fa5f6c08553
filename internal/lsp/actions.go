package lsp

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
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

func (s *server) codeActions(p *CodeActionParams) []CodeAction {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []CodeAction{}
	d := s.current(p.TextDocument.URI)
	if d == nil || d.linted == nil {
		return out
	}
	from, to := d.text.byteOffset(p.Range.Start, s.enc), d.text.byteOffset(p.Range.End, s.enc)
	safe := false
	for _, f := range d.linted.Diagnostics {
		if f.Span.File != d.name {
			continue
		}
		// Fix all makes what kokua-lint --fix makes: a finding's one fix, when safe.
		safe = safe || len(f.Fixes) == 1 && f.Fixes[0].Safe
		start, end := spanOffsets(f.Span)
		if end < from || start > to {
			continue
		}
		for i, x := range f.Fixes {
			out = append(out, s.action(d, f, fix{x.Title, x.Edits}, quickFix, i == 0 && x.Safe))
		}
		if f.Severity != diag.Error {
			out = append(out, s.action(d, f, suppression(d.text, f), quickFix, false))
		}
	}
	if safe && wants(p.Context.Only, sourceFixAll) {
		if all := s.fixAll(d); len(all.edits) > 0 {
			out = append(out, s.action(d, diag.Diagnostic{}, all, sourceFixAll, false))
		}
	}
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
