package rules

import (
	"fmt"
	"slices"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// reviewer-missing-table: a reviewer named in [security.auto_approval]
// with no [reviewers.<name>] table (R141, R145).
var reviewerMissingTableRule = &Rule{
	ID:       "reviewer-missing-table",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R141", "R145"},
	Summary:  "auto-approval names a reviewer with no [reviewers.<name>] table",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		cfg := p.Config
		if !cfg.Auto.Enabled {
			return
		}
		declared := make([]string, 0, len(cfg.Reviews))
		for _, r := range cfg.Reviews {
			declared = append(declared, r.Name)
		}
		list := "none"
		if len(declared) > 0 {
			list = quoteAll(declared)
		}
		for _, it := range cfg.Auto.Reviewers.Items {
			if slices.Contains(declared, it.Value) {
				continue
			}
			table := config.TablePath([]string{"reviewers", it.Value})
			p.Report(Finding{Span: it.Span, Key: "[security.auto_approval].reviewers",
				Message:    fmt.Sprintf("[security.auto_approval].reviewers names %s, which has no %s table", q(it.Value), table),
				Notes:      []string{"Declared reviewers: " + list + "."},
				Suggestion: fmt.Sprintf("add a %s table with its model and system_message", table)})
		}
	},
}
