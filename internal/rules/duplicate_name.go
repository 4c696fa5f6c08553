package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// duplicate-name: a toolset named twice in one available or resident list.
// Kokua keeps the first and ignores the rest (R61), so this is information.
var duplicateNameRule = &Rule{
	ID:       "duplicate-name",
	Severity: diag.Info,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R61"},
	Summary:  "available or resident names a toolset twice",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		for _, a := range p.Config.Agents {
			if a.Tools == nil {
				continue
			}
			for _, l := range []config.List{a.Tools.Available.List, a.Tools.Resident} {
				seen := make(map[string]int, len(l.Items)) // a name's first item
				for i, it := range l.Items {
					at, dup := seen[it.Value]
					if !dup {
						seen[it.Value] = i
						continue
					}
					first := l.Items[at]
					where := fmt.Sprintf("line %d", first.Span.Start.Line)
					if first.Span.Start.Line == it.Span.Start.Line {
						where = fmt.Sprintf("column %d of the same line", first.Span.Start.Column)
					}
					p.Report(Finding{Span: it.Span, Key: l.Path, Suggestion: "drop the repeat",
						Message: fmt.Sprintf("%s names %s twice (first at %s); the repeat is ignored", l.Path, q(it.Value), where)})
				}
			}
		}
	},
}
