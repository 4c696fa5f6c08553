package rules

import (
	"fmt"
	"slices"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// unknown-toolset: an agent's available list names a toolset nothing
// installs (R118, R44).
var unknownToolsetRule = &Rule{
	ID:       "unknown-toolset",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R118", "R44", "R208"},
	Summary:  "available names a toolset the install does not register",
	Needs:    NeedsWorld,
	Fixes:    UnsafeFixes,
	Check: func(p *Pass) {
		w := p.World
		// The names, their note and their index are made at the first
		// unknown name, once for all.
		var names []string
		var available string
		var index *similar.Index
		for _, a := range w.Agents {
			if a.Tools == nil || a.Tools.Available.All {
				continue
			}
			for _, it := range a.Tools.Available.Items {
				if w.Toolset(it.Value) != nil || config.IsAllWord(it.Value) {
					continue
				}
				if index == nil {
					names = make([]string, 0, len(w.Toolsets))
					for _, t := range w.Toolsets {
						names = append(names, t.Name)
					}
					available = "Available toolsets: " + listed(slices.Sorted(slices.Values(names)), plain, "") + "."
					index = similar.NewIndex(names)
				}
				matches := index.Suggest(it.Value)
				msg := fmt.Sprintf("agent %s declares unknown toolset %s%s.", q(a.Name), q(it.Value), didYouMean(matches))
				notes := []string{available}
				if n := normalizationNote(it.Value, matches); n != "" {
					notes = []string{n, available}
				}
				if it.Value == kokua.Core {
					notes = append(notes, "The core tools belong to no toolset: spawn_subagent comes from delegates_to, available_tools and load_tools from deferring a toolset, activate_skill from an installed skill.")
				}
				f := Finding{Span: it.Span, Key: a.Tools.Available.Path, Message: msg, Notes: notes}
				if len(matches) > 0 {
					f.Suggestion = "write " + tomlName(matches[0])
					// Unsafe: the close name grants the agent that toolset.
					f.Fixes = p.rewrites(it.Span, false, matches...)
				}
				p.Report(f)
			}
		}
	},
}
