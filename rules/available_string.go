package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/config"
	"github.com/kokua-policy/kokua-policy/diag"
)

// available-string: available written as a string other than "all" (R48,
// R107): it takes a list of toolset names or the string "all".
var _ = register(&Rule{
	ID:       "available-string",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R107", "R48"},
	Summary:  `available is a string other than "all"; it takes a list of toolset names or "all"`,
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		for _, a := range p.Config.Agents {
			if a.Tools == nil {
				continue
			}
			av := a.Tools.Available
			if !av.Str.Set || config.IsAllWord(av.Str.Value) {
				continue
			}
			p.Report(Finding{Span: av.Str.Span, Key: av.Path,
				Message:    fmt.Sprintf("%s must be a list of toolset names or the string \"all\", not the string %s", av.Path, q(av.Str.Value)),
				Suggestion: fmt.Sprintf("write available = [%q]", av.Str.Value)})
		}
	},
})
