package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// reviewer-same-model: a reviewer running on the assistant's own model
// (R144). Kokua logs a warning; a second opinion from the same model is a
// weaker one.
var reviewerSameModelRule = &Rule{
	ID:       "reviewer-same-model",
	Severity: diag.Warning,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R144", "R145"},
	Summary:  "a reviewer runs on the assistant's own model",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		// A reviewer without a model runs on the assistant's default model:
		// [assistant].model, or AIMU's own default when that is unset too
		// (config.ReviewerModel). A reviewer that names a model while
		// [assistant].model is unset cannot be compared offline, since that
		// default is not in the file.
		assistant := p.Config.AssistantModel
		for _, r := range namedReviewers(p.Config) {
			model, from := p.Config.ReviewerModel(r)
			if from == kokua.Declared && (assistant.State != config.Present || model != assistant.Value) {
				continue
			}
			span := r.Span
			if r.Model.State == config.Present {
				span = r.Model.Span
			}
			msg := fmt.Sprintf("reviewer %s runs on the assistant's own model %s, so its review is no second opinion", q(r.Name), q(assistant.Value))
			if assistant.State != config.Present {
				msg = fmt.Sprintf("reviewer %s sets no model and neither does [assistant], so both run on the same default model and its review is no second opinion", q(r.Name))
			}
			p.Report(Finding{Span: span, Key: config.KeyPath([]string{"reviewers", r.Name}, "model"),
				Message:    msg,
				Suggestion: "give the reviewer a different model"})
		}
	},
}
