package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// all-spelling: "all" written any way but the lowercase string: inside a
// list, or in another casing (R47, R106).
var allSpellingRule = &Rule{
	ID:       "all-spelling",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R106", "R47"},
	Summary:  `"all" must be written exactly available = "all": lowercase, a string, not in a list`,
	Needs:    NeedsConfig,
	Fixes:    UnsafeFixes,
	Check: func(p *Pass) {
		for _, a := range p.Config.Agents {
			if a.Tools == nil {
				continue
			}
			av := a.Tools.Available
			const fix = `write available = "all" (a lowercase string, not inside a list)`
			// The fixes are unsafe: "all" grants the agent every toolset.
			if av.Str.State == config.Present && !av.All && config.IsAllWord(av.Str.Value) {
				p.Report(Finding{Span: av.Str.Span, Key: av.Path, Suggestion: fix, Fixes: retitled(p.rewrites(av.Str.Span, false, "all"), `Write available = "all"`),
					Message: "agent " + q(a.Name) + " writes available = \"" + printable.Escape(av.Str.Value) + "\"; \"all\" is written exactly available = \"all\", in lowercase"})
			}
			for _, it := range av.Items {
				if config.IsAllWord(it.Value) {
					var fixes []diag.Fix
					if len(av.Items) == 1 {
						// The list is replaced whole; one that holds other
						// names too is left to the user, who knows which
						// was meant.
						fixes = []diag.Fix{{Title: `Write available = "all"`, Edits: []diag.Edit{{Start: av.Span.Start.Offset, End: av.Span.End.Offset, New: `"all"`}}}}
					}
					p.Report(Finding{Span: it.Span, Key: av.Path, Suggestion: fix, Fixes: fixes,
						Message: "agent " + q(a.Name) + " lists \"" + printable.Escape(it.Value) + "\" inside available; \"all\" is not a toolset name but a value of its own: available = \"all\", a string, not inside a list"})
				}
			}
		}
	},
}
