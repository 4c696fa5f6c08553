package rules

import "github.com/kokua-policy/kokua-policy/diag"

// beyond-limits: config.toml passes one of the reader's own limits (a key
// over tomlpos.MaxKeyBytes, nesting over 200 deep, more than
// tomlpos.MaxNodes keys and elements), which Kokua does not have. The
// linter stops there and can check nothing, so the run fails (R201), where
// invalid-toml would say the file is not TOML.
var beyondLimitsRule = &Rule{
	ID:       "beyond-limits",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R200", "R201"},
	Summary:  "config.toml is beyond kokua-lint's limits",
	Needs:    NeedsInput,
	Check: func(p *Pass) {
		if p.Syntax == nil || !p.Syntax.Limit {
			return
		}
		p.Report(syntaxFinding(p, "is beyond kokua-lint's limits"))
	},
}
