package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// reviewer-no-standard: a reviewer whose system_message, the standard it
// reviews against, is missing or blank (R142, R145).
var reviewerNoStandardRule = &Rule{
	ID:       "reviewer-no-standard",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R142", "R145"},
	Summary:  "a reviewer has no system_message to review against",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		for _, r := range namedReviewers(p.Config) {
			if strings.TrimSpace(r.SystemMessage.Value) != "" {
				continue
			}
			span := r.Span
			if r.SystemMessage.State == config.Present {
				span = r.SystemMessage.Span
			}
			table := []string{"reviewers", r.Name}
			p.Report(Finding{Span: span, Key: config.KeyPath(table, "system_message"),
				Message:    fmt.Sprintf("%s has no system_message: a reviewer needs the standard it approves calls against", config.TablePath(table)),
				Suggestion: "write system_message = \"...\", the standard the reviewer holds each call to"})
		}
	},
}
