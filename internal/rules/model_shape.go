package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

var modelFlags = []string{"tools", "thinking", "vision", "audio", "structured"}

// model-shape: a model string that does not have the
// provider:model[@base_url][;flags] shape (R130). Whether AIMU can resolve
// a model is not decidable offline, so this is information only. Reviewers
// are checked only when auto-approval would resolve them (R145).
var modelShapeRule = &Rule{
	ID:       "model-shape",
	Severity: diag.Info,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R130", "R145"},
	Summary:  "a model string is not of the form provider:model[@base_url][;flags]",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		check := func(s config.Str, key string) {
			if s.State != config.Present {
				return
			}
			if why, more := modelFault(s.Value); why != "" {
				p.Report(Finding{Span: s.Span, Key: key,
					Message: fmt.Sprintf("%s = %s %s; Kokua expects provider:model[@base_url][;flags]", key, q(s.Value), why),
					Notes:   append(notes(more), "Kokua refuses to start on a model AIMU cannot resolve.")})
			}
		}
		check(p.Config.AssistantModel, "[assistant].model")
		for _, a := range p.Config.Agents {
			check(a.Model, config.KeyPath([]string{"agents", a.Name}, "model"))
		}
		// Kokua resolves a reviewer's model only when auto-approval is
		// enabled and names the reviewer (R145); a [reviewers.<r>] table it
		// never reads cannot stop it from starting.
		seen := map[*config.Reviewer]bool{}
		for _, r := range namedReviewers(p.Config) {
			if !seen[r] {
				seen[r] = true
				check(r.Model, config.KeyPath([]string{"reviewers", r.Name}, "model"))
			}
		}
	},
}

// modelFault says what is wrong with a model string, and a note on it
// (the known flags); "" when nothing is.
func modelFault(s string) (fault, note string) {
	spec, flags, hasFlags := strings.Cut(s, ";")
	provider, rest, ok := strings.Cut(spec, ":")
	name, _, _ := strings.Cut(rest, "@")
	switch {
	case !ok || provider == "":
		return "names no provider", ""
	case name == "":
		return "names no model", ""
	case hasFlags:
		for _, f := range strings.Split(flags, ",") {
			if !slices.Contains(modelFlags, strings.TrimSpace(f)) {
				return fmt.Sprintf("has the unknown capability flag %s", q(f)), "Known flags: " + strings.Join(modelFlags, ", ")
			}
		}
	}
	return "", ""
}
