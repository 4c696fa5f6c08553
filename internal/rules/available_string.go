package rules

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// available-string: available written as a string other than "all" (R48,
// R107): it takes a list of toolset names or the string "all".
var availableStringRule = &Rule{
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
			if av.Str.State != config.Present || config.IsAllWord(av.Str.Value) {
				continue
			}
			p.Report(Finding{Span: av.Str.Span, Key: av.Path,
				Message:    fmt.Sprintf("%s must be a list of toolset names or the string \"all\", not the string %s", av.Path, q(av.Str.Value)),
				Suggestion: availableFix(av.Str.Value)})
		}
	},
}

// availableFix turns the string into the list it most likely meant: the
// names it holds, split at commas and white space ("web, time" is
// ["web", "time"], not ["web, time"]). A string holding the word all
// means available = "all".
func availableFix(s string) string {
	names := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	for _, n := range names {
		if config.IsAllWord(n) {
			return `write available = "all", with resident = [...] beside it`
		}
	}
	if len(names) == 0 {
		return "write available = [...], the toolset names, or available = [] for none"
	}
	return "write available = [" + tomlStrings(names) + "]"
}
