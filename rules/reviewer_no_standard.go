package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
)

// reviewer-no-standard: a reviewer whose system_message, the standard it
// reviews against, is missing or blank (R142, R145).
var _ = register(&Rule{
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
			if r.SystemMessage.Set {
				span = r.SystemMessage.Span
			}
			p.Report(Finding{Span: span, Key: fmt.Sprintf("[reviewers.%s].system_message", diag.Escape(r.Name)),
				Message:    fmt.Sprintf("[reviewers.%s] has no system_message: a reviewer needs the standard it approves calls against", diag.Escape(r.Name)),
				Suggestion: "write system_message = \"...\", the standard the reviewer holds each call to"})
		}
	},
})
