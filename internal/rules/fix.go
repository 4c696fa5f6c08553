package rules

import (
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
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
// value gets none. Each is local: it changes that one value, whatever the
// rest of its table holds (diag.Fix.Local).
func (p *Pass) rewrites(span diag.Span, safe bool, candidates ...string) []diag.Fix {
	src := p.Config.Source
	from, to := span.Start.Offset, span.End.Offset
	if span.File != p.Config.File || from >= to || to > len(src) || src[from] != '"' && src[from] != '\'' {
		return nil
	}
	literal := src[from] == '\''
	var out []diag.Fix
	for _, c := range candidates {
		value := tomledit.String(c, literal)
		out = append(out, diag.Fix{Title: "Write " + value, Safe: safe, Local: true,
			Edits: []diag.Edit{{Start: from, End: to, New: value}}})
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

// edit starts a change of the config, for a fix: the one TOML editor
// (internal/tomledit), over the config read once per pass, whose line
// ends it decides once.
func (p *Pass) edit() *tomledit.Edits {
	if p.doc == nil {
		p.doc = tomledit.New(p.Config.Source, p.Config.Root)
	}
	return p.doc.Edit()
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
