package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
)

// no-review-entry: auto-approval enabled while no review list has an entry,
// so nothing would ever be reviewed (R134, R90, A10). The default pair's
// review counts even when every agent declares its own pair: it still
// governs composed workers.
var _ = register(&Rule{
	ID:       "no-review-entry",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R134", "R90", "A10"},
	Summary:  "auto-approval is enabled but no review list has an entry",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		cfg := p.Config
		if !cfg.Auto.Enabled || len(cfg.DefaultPair.Review.Items) > 0 {
			return
		}
		for _, a := range cfg.Agents {
			if a.Tools != nil && len(a.Tools.Review.Items) > 0 {
				return
			}
		}
		p.Report(Finding{Span: cfg.Auto.EnabledAt, Key: "[security.auto_approval].enabled",
			Message:    "[security.auto_approval] is enabled, but no review list has an entry, so the reviewer would never be asked",
			Suggestion: "add an entry to [assistant.tools].review or to an agent's [agents.<name>.tools].review, or set enabled = false"})
	},
})
