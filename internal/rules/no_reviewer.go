package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// no-reviewer: auto-approval enabled with no reviewer named (R140, R145).
var noReviewerRule = &Rule{
	ID:       "no-reviewer",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R140", "R145"},
	Summary:  "auto-approval is enabled but names no reviewer",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		auto := p.Config.Auto
		if !auto.Enabled || len(auto.Reviewers.Items) > 0 || auto.Reviewers.State == config.WrongType {
			return
		}
		span := auto.EnabledAt
		if auto.Reviewers.State == config.Present {
			span = auto.Reviewers.Span
		}
		p.Report(Finding{Span: span, Key: "[security.auto_approval].reviewers",
			Message:    "[security.auto_approval] is enabled but names no reviewer, so no model could answer a review",
			Suggestion: `set reviewers = ["approval"] and describe it in a [reviewers.approval] table`})
	},
}
