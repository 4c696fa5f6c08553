package rules

import (
	"fmt"
	"slices"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/similar"
)

// unknown-delegate: delegates_to names an agent with no [agents.<name>]
// table (R126).
var unknownDelegateRule = &Rule{
	ID:       "unknown-delegate",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R126", "R208"},
	Summary:  "delegates_to names an agent the config does not declare",
	Needs:    NeedsConfig,
	Fixes:    UnsafeFixes,
	Check: func(p *Pass) {
		// The names, their note and their index are made at the first
		// unknown name, once for all.
		var names []string
		var configured string
		var index *similar.Index
		for _, a := range p.Config.Agents {
			for _, it := range a.DelegatesTo.Items {
				// An agent written as something other than a table is
				// declared; wrong-type says what is wrong with it.
				if p.Config.Agent(it.Value) != nil || p.Config.Unreadable[it.Value] {
					continue
				}
				if index == nil {
					for _, a := range p.Config.Agents {
						names = append(names, a.Name)
					}
					configured = "Configured agents: " + quoteAll(slices.Sorted(slices.Values(names))) + "."
					index = similar.NewIndex(names)
				}
				matches := index.Suggest(it.Value)
				f := Finding{Span: it.Span, Key: a.DelegatesTo.Path,
					Message: fmt.Sprintf("agent %s delegates to unknown agent %s%s.", q(a.Name), q(it.Value), didYouMean(matches)),
					Notes:   notes(normalizationNote(it.Value, matches), configured)}
				if len(matches) > 0 {
					f.Suggestion = "write " + tomlName(matches[0])
					// Unsafe: delegating earns spawn_subagent and reaches the agent's tools.
					f.Fixes = p.rewrites(it.Span, false, matches...)
				} else {
					f.Suggestion = "declare the agent in a " + config.TablePath([]string{"agents", it.Value}) + " table, or drop the name"
				}
				p.Report(f)
			}
		}
	},
}
