package rules

import (
	"fmt"
	"slices"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/similar"
)

// entry-agent-missing: [assistant].agent (default "assistant") names no
// [agents.<name>] table (R128).
var entryAgentMissingRule = &Rule{
	ID:       "entry-agent-missing",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R128", "R2"},
	Summary:  "[assistant].agent names an agent the config does not declare",
	Needs:    NeedsConfig,
	Fixes:    UnsafeFixes,
	Check: func(p *Pass) {
		cfg := p.Config
		if len(cfg.Agents) == 0 || cfg.Agent(cfg.EntryAgent.Value) != nil || cfg.Unreadable[cfg.EntryAgent.Value] {
			return // no-agents covers the empty config
		}
		var names []string
		for _, a := range cfg.Agents {
			names = append(names, a.Name)
		}
		name := cfg.EntryAgent.Value
		span := cfg.EntryAgent.Span
		msg := fmt.Sprintf("[assistant].agent names %s, which has no %s table", q(name), config.TablePath([]string{"agents", name}))
		if cfg.EntryAgent.State != config.Present {
			span = cfg.Agents[0].Span
			msg = "[assistant].agent is not set, so the entry agent is 'assistant', which has no [agents.assistant] table"
		}
		f := Finding{Span: span, Key: "[assistant].agent", Message: msg,
			Notes: []string{"Configured agents: " + quoteAll(slices.Sorted(slices.Values(names))) + "."}}
		if matches := similar.Suggest(name, names); len(matches) > 0 {
			f.Suggestion = "write agent = " + tomlString(matches[0])
			if cfg.EntryAgent.State == config.Present {
				// Unsafe: the entry agent is the one the user talks to, and
				// what it reaches is built.
				f.Fixes = p.rewrites(span, false, matches...)
			}
		} else {
			f.Suggestion = "set [assistant].agent to the agent the user talks to"
		}
		p.Report(f)
	},
}
