package lsp

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// A quick fix is offered for a finding only when its fix is unique: one
// did-you-mean candidate, one home for a misfiled tool, the "all"
// spelling, a removed key whose replacement is a move. Where the rule
// offers two candidates, the choice is the user's, and no fix is made.

// fix is one edit of the config that resolves a finding.
type fix struct {
	title string
	edits []edit
}

// edit replaces the text between two byte offsets.
type edit struct {
	from, to int
	text     string
}

func (s *server) codeActions(p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []protocol.CodeAction{}
	d := s.current(p.TextDocument.URI)
	if d == nil || d.linted == nil {
		return out, nil
	}
	from, to := d.text.offset(p.Range.Start, s.enc), d.text.offset(p.Range.End, s.enc)
	rg := newRanger(d.text, s.enc)
	for _, f := range d.linted.Diagnostics {
		if f.Span.File != d.name {
			continue
		}
		start, end, _ := rg.span(f.Span)
		if end < from || start > to {
			continue
		}
		var fixes []fix
		if x, ok := quickFix(d.linted, d.text, f); ok {
			fixes = append(fixes, x)
		}
		if f.Severity != diag.Error {
			fixes = append(fixes, suppression(d.text, f))
		}
		for i, x := range fixes {
			edits := make([]protocol.TextEdit, len(x.edits))
			for j, e := range x.edits {
				edits[j] = protocol.TextEdit{Range: protocol.Range{Start: d.text.position(e.from, s.enc), End: d.text.position(e.to, s.enc)}, NewText: e.text}
			}
			out = append(out, protocol.CodeAction{
				Title: x.title, Kind: protocol.QuickFix, IsPreferred: i == 0 && f.Severity == diag.Error,
				Diagnostics: []protocol.Diagnostic{s.toProtocol(d, f, rg)},
				Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{d.uri: edits}},
			})
		}
	}
	return out, nil
}

// quickFix returns the unique fix of a finding, if it has one.
func quickFix(res *engine.Linted, t text, f diag.Diagnostic) (fix, bool) {
	if res.Config == nil {
		return fix{}, false
	}
	sp, ok := locate(res.Config.Root, f.Span.Start)
	if !ok {
		return fix{}, false
	}
	w := res.World
	str := func() (string, bool) {
		return sp.node.Str, !sp.onKey && sp.node.Kind == tomlpos.KindString
	}
	switch f.Rule {
	case "unknown-toolset":
		if v, ok := str(); ok && w != nil {
			return replaceString(t, sp.node, unique(similar.Suggest(v, toolsetNames(w))))
		}
	case "unknown-delegate", "entry-agent-missing":
		if v, ok := str(); ok {
			var names []string
			for _, a := range res.Config.Agents {
				names = append(names, a.Name)
			}
			return replaceString(t, sp.node, unique(similar.Suggest(v, names)))
		}
	case "dead-entry", "pending-dead-entry", "entry-shape":
		if v, ok := str(); ok && w != nil {
			return replaceString(t, sp.node, entryFix(w.Resolve(v)))
		}
	case "unknown-key":
		if path := sp.path(); sp.onKey && len(path) > 0 {
			table, name := path[:len(path)-1], path[len(path)-1]
			if ts := config.SchemaFor(table); ts != nil {
				if c := unique(similar.Suggest(name, ts.Accepted())); c != "" {
					k := sp.node.Key()
					return fix{title: "Rename the key to " + c, edits: []edit{{t.diagOffset(k.Start), t.diagOffset(k.End), tomlpos.QuoteKey(c)}}}, true
				}
			}
		}
	case "all-spelling":
		return allFix(t, sp)
	case "removed-key":
		return removedFix(res.Config, t, sp)
	}
	return fix{}, false
}

// unique returns the one candidate, or "" for none or several.
func unique(cands []string) string {
	if len(cands) == 1 {
		return cands[0]
	}
	return ""
}

// entryFix is the corrected entry when there is exactly one: the one
// home of a bare or misfiled tool, or the one close tool or toolset name.
func entryFix(r model.Resolution) string {
	switch {
	case len(r.Homes) > 0:
		return unique(r.Homes)
	case len(r.Close) == 1 && r.Entry.Tool != "":
		return r.Entry.Toolset + "." + r.Close[0]
	}
	return unique(r.Close)
}

func toolsetNames(w *model.World) []string {
	names := make([]string, len(w.Toolsets))
	for i, ts := range w.Toolsets {
		names[i] = ts.Name
	}
	return names
}

// replaceString replaces a string value with another, keeping a literal
// string literal when it can hold the new value.
func replaceString(t text, n *tomlpos.Node, with string) (fix, bool) {
	if with == "" {
		return fix{}, false
	}
	from, to := t.diagOffset(n.Span().Start), t.diagOffset(n.Span().End)
	quoted := tomlpos.BasicString(with)
	if strings.HasPrefix(t.s[from:], "'") && !strings.ContainsAny(with, "'\n") && quoted == `"`+with+`"` {
		quoted = "'" + with + "'"
	}
	return fix{title: "Write " + quoted, edits: []edit{{from, to, quoted}}}, true
}

// allFix writes available = "all" where "all" was written in a list of
// its own or in another casing. A list that holds other names as well
// is left to the user: which they meant is not known.
func allFix(t text, sp spot) (fix, bool) {
	target := sp.node
	if sp.list != nil {
		if len(sp.list.Items) != 1 {
			return fix{}, false
		}
		target = sp.list
	}
	from, to := t.diagOffset(target.Span().Start), t.diagOffset(target.Span().End)
	return fix{title: `Write available = "all"`, edits: []edit{{from, to, `"all"`}}}, true
}

// removedFix moves the entries of a removed approval list to the list
// that replaced it, when that list is not written yet: [security].
// confirm_tools to [assistant.tools].confirm, [security.auto_approval].
// tools to [assistant.tools].review (R19, R102, R103). The other removed
// keys need a decision (which agent, which table), and get no fix.
func removedFix(c *config.Config, t text, sp spot) (fix, bool) {
	if !sp.onKey {
		return fix{}, false
	}
	var target string
	switch path := sp.path(); {
	case slices.Equal(path, []string{"security", "confirm_tools"}):
		target = "confirm"
	case slices.Equal(path, []string{"security", "auto_approval", "tools"}):
		target = "review"
	default:
		return fix{}, false
	}
	if sp.node.Kind != tomlpos.KindArray {
		return fix{}, false
	}
	value := t.s[t.diagOffset(sp.node.Span().Start):t.diagOffset(sp.node.Span().End)]
	// The key's whole lines go, when nothing else is written on them.
	keyLine := t.starts[sp.node.Key().Start.Line-1]
	if strings.TrimSpace(t.s[keyLine:t.diagOffset(sp.node.Key().Start)]) != "" {
		return fix{}, false
	}
	endLine := sp.node.Span().End.Line - 1
	rest := t.s[t.diagOffset(sp.node.Span().End):t.lineEnd(endLine)]
	if r := strings.TrimSpace(rest); r != "" && !strings.HasPrefix(r, "#") {
		return fix{}, false
	}
	cut := len(t.s)
	if endLine+1 < len(t.starts) {
		cut = t.starts[endLine+1]
	}
	remove := edit{keyLine, cut, ""}
	title := fmt.Sprintf("Move the entries to [assistant.tools].%s", target)
	tools := c.Root.Lookup("assistant", "tools")
	switch {
	case tools == nil:
		ending := ""
		if !strings.HasSuffix(t.s, "\n") {
			ending = "\n"
		}
		add := edit{len(t.s), len(t.s), ending + "\n[assistant.tools]\n" + target + " = " + value + "\n"}
		return fix{title: title, edits: []edit{remove, add}}, true
	case tools.Kind == tomlpos.KindTable && tools.Header && tools.Get(target) == nil:
		header := tools.Span().Start.Line - 1
		at := len(t.s)
		if header+1 < len(t.starts) {
			at = t.starts[header+1]
		}
		add := edit{at, at, target + " = " + value + "\n"}
		if at < keyLine {
			return fix{title: title, edits: []edit{add, remove}}, true
		}
		return fix{title: title, edits: []edit{remove, add}}, true
	}
	return fix{}, false
}

// suppressionLine matches a suppression comment alone on its line.
// It is compiled when first needed, not at every start of kokua-lint.
var suppressionLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*#\s*kokua-lint\s*:\s*ignore\[)([^\]]*)(\].*)$`)
})

// suppression writes "# kokua-lint: ignore[<rule>] " alone on the line
// above the finding, indented as that line is; or, when a suppression is
// already alone there, adds the rule to it. The reason is left for the
// user to write: until they do, suppression-invalid says it is missing,
// and the finding stays, since a suppression without a reason hides
// nothing (internal/rules/suppress.go).
func suppression(t text, f diag.Diagnostic) fix {
	line := f.Span.Start.Line - 1
	title := fmt.Sprintf("Suppress %s on this line (then write the reason after the brackets)", f.Rule)
	if line > 0 {
		above := t.s[t.starts[line-1]:t.lineEnd(line-1)]
		if m := suppressionLine().FindStringSubmatchIndex(above); m != nil {
			at := t.starts[line-1] + m[5]
			return fix{title: title, edits: []edit{{at, at, "," + f.Rule}}}
		}
	}
	start := t.starts[line]
	indent := start
	for indent < len(t.s) && (t.s[indent] == ' ' || t.s[indent] == '\t') {
		indent++
	}
	return fix{title: title, edits: []edit{{start, start, t.s[start:indent] + "# kokua-lint: ignore[" + f.Rule + "] \n"}}}
}

func (s *server) definition(p *protocol.DefinitionParams) ([]protocol.Location, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.current(p.TextDocument.URI)
	sp, ok := s.at(d, p.Position)
	if !ok || sp.onKey || sp.node.Kind != tomlpos.KindString || roleOf(sp.path()) != roleAgent {
		return []protocol.Location{}, nil
	}
	a := d.linted.Config.Agent(sp.node.Str)
	if a == nil {
		return []protocol.Location{}, nil
	}
	return []protocol.Location{{URI: d.uri, Range: d.text.rangeOf(a.Span, s.enc)}}, nil
}
