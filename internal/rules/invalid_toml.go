package rules

import "github.com/kokua-policy/kokua-policy/diag"

// invalid-toml: config.toml is not valid TOML 1.0 (R100). Kokua refuses to
// start; nothing else can be checked until the file parses.
var invalidTomlRule = &Rule{
	ID:       "invalid-toml",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R100"},
	Summary:  "config.toml is not valid TOML 1.0",
	Needs:    NeedsInput,
	Check: func(p *Pass) {
		if p.Syntax == nil || p.Syntax.Limit {
			return
		}
		p.Report(syntaxFinding(p, "is not valid TOML"))
	},
}
