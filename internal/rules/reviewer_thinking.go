package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// reviewer-thinking: a reviewer that sets thinking in its own table (R143,
// R145). An approval reviewer answers through a structured call that
// carries no reasoning. An effort inherited from [assistant].thinking is
// fine.
var reviewerThinkingRule = &Rule{
	ID:       "reviewer-thinking",
	Severity: diag.Error,
	Phase:    diag.PhaseResolve,
	Refs:     []string{"R143", "R145"},
	Summary:  "a reviewer sets thinking, which a structured approval call cannot carry",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		for _, r := range namedReviewers(p.Config) {
			t := r.Thinking
			if t == nil || (t.Kind == tomlpos.KindBool && !t.Bool) {
				continue
			}
			table := []string{"reviewers", r.Name}
			p.Report(Finding{Span: t.Span(), Key: config.KeyPath(table, "thinking"),
				Message:    fmt.Sprintf("%s sets thinking: an approval reviewer answers through a structured call that carries no reasoning", config.TablePath(table)),
				Suggestion: "remove the thinking key from the reviewer's table"})
		}
	},
}
