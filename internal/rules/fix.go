package rules

import (
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// This file is not a check: it holds the edits the checks attach to their
// findings as fixes (diag.Fix). A check decides which fixes a finding gets
// and whether each is safe; the command line's --fix, the language server
// and migrate only apply them.
//
// Safe is judged against the config with the faulty value left out, which
// is how the rest of the config reads to Kokua: an approval entry that
// gates nothing rewritten to one that gates a tool adds a gate (safe); an
// unknown toolset in available rewritten to a close name grants that
// toolset (unsafe), as does a delegate, an entry agent or a key renamed.

// rewrites returns one fix per candidate, each writing the candidate in
// place of the string value at span, in the candidates' order: the first
// is the one the finding's help line names. A span that is not a string
// value gets none.
func (p *Pass) rewrites(span diag.Span, safe bool, candidates ...string) []diag.Fix {
	src := p.Config.Source
	from, to := span.Start.Offset, span.End.Offset
	if span.File != p.Config.File || from >= to || to > len(src) || src[from] != '"' && src[from] != '\'' {
		return nil
	}
	literal := src[from] == '\''
	var out []diag.Fix
	for _, c := range candidates {
		out = append(out, diag.Fix{Title: "Write " + tomlValue(c, literal), Safe: safe,
			Edits: []diag.Edit{{Start: from, End: to, New: tomlValue(c, literal)}}})
	}
	return out
}

// retitled gives fixes another title.
func retitled(fixes []diag.Fix, title string) []diag.Fix {
	for i := range fixes {
		fixes[i].Title = title
	}
	return fixes
}

// tomlValue writes s as a TOML string, a literal one ('...') when the
// value it replaces was one and s can be written so.
func tomlValue(s string, literal bool) string {
	quoted := tomlpos.BasicString(s)
	if literal && !strings.ContainsAny(s, "'\n") && quoted == `"`+s+`"` {
		return "'" + s + "'"
	}
	return quoted
}

// entryCandidates are the approval entries a faulty one can have meant,
// the likeliest first: the prefixed forms of a bare or misfiled tool name
// (R30, R32), else the entry with its toolset or its tool replaced by each
// close name (R31, R208), else nothing. The help line of the entry's
// finding names the first.
func entryCandidates(r model.Resolution) []string {
	e := r.Entry
	if len(r.Homes) > 0 {
		return r.Homes
	}
	out := make([]string, 0, len(r.Close))
	for _, c := range r.Close {
		switch {
		case r.Status == model.UnknownToolset:
			out = append(out, c+strings.TrimPrefix(e.Text, e.Toolset))
		case e.Tool != "":
			out = append(out, e.Toolset+"."+c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// ownLines are the bytes of the whole lines a key = value is written on,
// from the start of the key's line to just after the value's line feed
// (or the end of the file), when nothing else is written on them: only
// blanks before the key, and after the value at most a comment, which is
// returned. ok is false for a key written otherwise (a dotted key, an
// inline table's key, two keys on a line) and for a node with no key.
func (p *Pass) ownLines(n *tomlpos.Node) (from, to int, comment string, ok bool) {
	src, lines := p.Config.Source, p.Config.Lines
	key, value := n.Key(), n.Span()
	if key.IsZero() {
		return 0, 0, "", false
	}
	from = lines.Offset(key.Start.Line, 1)
	if strings.TrimSpace(string(src[from:key.Start.Offset])) != "" {
		return 0, 0, "", false
	}
	last, _ := lines.Line(value.End.Line)
	lineEnd := lines.Offset(value.End.Line, 1) + len(last)
	comment = strings.TrimSpace(string(src[value.End.Offset:lineEnd]))
	if comment != "" && !strings.HasPrefix(comment, "#") {
		return 0, 0, "", false
	}
	return from, min(lineEnd+1, len(src)), comment, true
}

// belowHeader is an edit that writes lines (each ending in a line feed)
// right below the header of table, where they are its first keys; a
// header on the file's last line, without a line feed, gets one first.
func (p *Pass) belowHeader(table *tomlpos.Node, lines string) diag.Edit {
	src, index := p.Config.Source, p.Config.Lines
	at := len(src)
	if header := table.Span().Start.Line; header < index.Lines() {
		at = index.Offset(header+1, 1)
	}
	if at == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
		lines = "\n" + lines
	}
	return diag.Edit{Start: at, End: at, New: lines}
}

// addKey is an edit that writes key = value into table as the file writes
// the table: below its [header]; inside its braces when it is an inline
// table; as a dotted key on a line of its own after the table's last one
// when dotted keys make it. A table made only as a header's parent has no
// place of its own to write in: ok is false.
func (p *Pass) addKey(table *tomlpos.Node, key, value string) (edit diag.Edit, ok bool) {
	switch {
	case table.Header:
		return p.belowHeader(table, tomlpos.QuoteKey(key)+" = "+value+"\n"), true
	case table.Inline():
		if n := len(table.Fields); n > 0 {
			at := lastWritten(table.Fields[n-1].Value)
			return diag.Edit{Start: at, End: at, New: ", " + tomlpos.QuoteKey(key) + " = " + value}, true
		}
		_, to := table.Offsets() // just after the closing brace
		return diag.Edit{Start: to - 1, End: to - 1, New: " " + tomlpos.QuoteKey(key) + " = " + value + " "}, true
	case table.Dotted() && len(table.Fields) > 0:
		// The dotted key is spelled from the table that holds the dotted
		// keys: the nearest one above that is not itself made by them.
		path := table.Path()
		owner := len(path) - 1
		for owner > 0 && p.Config.Root.Lookup(path[:owner]...).Dotted() {
			owner--
		}
		line := tomlpos.DottedKey(append(path[owner:len(path):len(path)], key)) + " = " + value + "\n"
		src, index := p.Config.Source, p.Config.Lines
		end := index.Span(lastWritten(table), lastWritten(table)).End.Line
		if end >= index.Lines() {
			if len(src) > 0 && src[len(src)-1] != '\n' {
				line = "\n" + line
			}
			return diag.Edit{Start: len(src), End: len(src), New: line}, true
		}
		at := index.Offset(end+1, 1)
		return diag.Edit{Start: at, End: at, New: line}, true
	}
	return diag.Edit{}, false
}

// lastWritten is the offset just after the last value written in n: n's
// own end, or for a table made by dotted keys (outside braces or inside
// them) that of its last key's value. A table a [header] below defines in
// it is written elsewhere and not counted.
func lastWritten(n *tomlpos.Node) int {
	_, to := n.Offsets()
	if !n.Dotted() && !n.Inline() {
		return to
	}
	for i := len(n.Fields) - 1; i >= 0; i-- {
		if f := n.Fields[i].Value; !f.Header && !f.Implicit() && !f.ArrayOfTables {
			return max(to, lastWritten(f))
		}
	}
	return to
}
