package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// no-review-entry: auto-approval enabled while no review list has an entry,
// so nothing would ever be reviewed (R134, R90, A10). The default pair's
// review counts even when every agent declares its own pair: it still
// governs composed workers.
var noReviewEntryRule = &Rule{
	ID:       "no-review-entry",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R134", "R90", "A10"},
	Summary:  "auto-approval is enabled but no review list has an entry",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		cfg := p.Config
		if !cfg.Auto.Enabled || mayReview(cfg.DefaultPair.Review) {
			return
		}
		for _, a := range cfg.Agents {
			if a.Tools != nil && mayReview(a.Tools.Review) {
				return
			}
		}
		p.Report(Finding{Span: cfg.Auto.EnabledAt, Key: "[security.auto_approval].enabled",
			Message:    "[security.auto_approval] is enabled, but no review list has an entry, so the reviewer would never be asked",
			Suggestion: "add an entry to [assistant.tools].review or to an agent's [agents.<name>.tools].review, or set enabled = false"})
	},
}

// mayReview reports whether a review list has an entry, or might have one:
// a list written with the wrong type cannot be read, and wrong-type reports
// it; this check then stays silent rather than guess (R204).
func mayReview(l config.List) bool {
	return len(l.Items) > 0 || l.State == config.WrongType
}
