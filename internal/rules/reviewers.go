package rules

import (
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// This file is not a check: it holds what the reviewer checks share.

// namedReviewers returns the reviewers [security.auto_approval].reviewers
// names that have a [reviewers.<name>] table, when auto-approval is enabled
// (R140-R145).
func namedReviewers(cfg *config.Config) []*config.Reviewer {
	if !cfg.Auto.Enabled {
		return nil
	}
	var out []*config.Reviewer
	for _, it := range cfg.Auto.Reviewers.Items {
		for _, r := range cfg.Reviews {
			if r.Name == it.Value {
				out = append(out, r)
			}
		}
	}
	return out
}
