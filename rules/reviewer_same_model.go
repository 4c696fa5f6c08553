package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
)

// reviewer-same-model: a reviewer running on the assistant's own model
// (R144). Kokua logs a warning; a second opinion from the same model is a
// weaker one.
var _ = register(&Rule{
	ID:       "reviewer-same-model",
	Severity: diag.Warning,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R144", "R145"},
	Summary:  "a reviewer runs on the assistant's own model",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		assistant := p.Config.AssistantModel
		if !assistant.Set {
			return
		}
		for _, r := range namedReviewers(p.Config) {
			if r.Model.Set && r.Model.Value != assistant.Value {
				continue
			}
			span := r.Span
			if r.Model.Set {
				span = r.Model.Span
			}
			p.Report(Finding{Span: span, Key: fmt.Sprintf("[reviewers.%s].model", diag.Escape(r.Name)),
				Message:    fmt.Sprintf("reviewer %s runs on the assistant's own model %s, so its review is no second opinion", q(r.Name), q(assistant.Value)),
				Suggestion: "give the reviewer a different model"})
		}
	},
})
