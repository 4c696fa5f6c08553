package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
)

// entry-scope: an approval entry naming a toolset outside its reach. A
// declared pair may name only its agent's toolsets (R74); the default pair
// and the floor only toolsets some agent declares (R75). Inherited default
// entries are never checked per agent (R76).
var _ = register(&Rule{
	ID:       "entry-scope",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R123", "R74", "R75", "R76", "A4", "A5", "A9"},
	Summary:  "an approval entry names a toolset its agent (or every agent) does not declare",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		w := p.World
		for _, l := range approvalLists(w) {
			for _, it := range l.Items {
				r := w.Resolve(it.Value)
				if r.Shape() || inScope(w, l, r) {
					continue
				}
				t := r.Toolset.Name
				if l.Policy != nil && l.Policy.Agent != nil {
					a := l.Policy.Agent
					p.Report(Finding{Span: it.Span, Key: l.Path,
						Message: fmt.Sprintf("%s has an entry that %s: %s names the %s toolset, which agent %s does not declare in available",
							l.Path, l.effect(), q(it.Value), q(t), q(a.Name)),
						Suggestion: fmt.Sprintf("add %s to %s.available, or drop the entry", tomlName(t), l.Policy.Table())})
					continue
				}
				msg := fmt.Sprintf("%s has an entry that %s: %s names the %s toolset, which no agent declares, so it builds no tools and holds nothing back",
					l.Path, l.effect(), q(it.Value), q(t))
				if l.floor() && l.Builtin {
					msg += "; this is Kokua's built-in floor, which applies because auto-approval is enabled"
				}
				if !l.floor() && l.Builtin {
					msg += "; this is Kokua's built-in default pair, which applies because the file has no [assistant.tools] table"
				}
				fix := "drop the entry"
				if l.Builtin {
					fix = "write the table yourself with only the entries you want"
				}
				p.Report(Finding{Span: it.Span, Key: l.Path, Message: msg, Suggestion: fix})
			}
		}
	},
})
