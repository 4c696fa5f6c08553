package rules

import "github.com/kokua-policy/kokua-policy/diag"

// invalid-manifest: the registry manifest does not follow the format of
// rules.md section 7. Every check that needs the registry is skipped until
// it does.
var _ = register(&Rule{
	ID:       "invalid-manifest",
	Severity: diag.Error,
	Phase:    diag.PhaseInput,
	Refs:     []string{"R161", "R162", "R163", "R164"},
	Summary:  "the registry manifest does not follow the manifest format",
	Needs:    NeedsInput,
	Check: func(p *Pass) {
		for _, mp := range p.ManifestProblems {
			p.Reportf(mp.Span, "", "manifest: %s", mp.Message)
		}
	},
})
