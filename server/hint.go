package server

import (
	"maps"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Answer is what POST /v1/decide answers (and each answer of a batch),
// and what kokua-run decide --format json prints: the policy's answer,
// and for an agent or a tool the policy does not know, the known names
// close to it. The decision is the policy's, unchanged: an unknown agent
// is denied and an unknown tool unavailable whether a name is close or
// not; the names are for the person or the program that mistyped one.
type Answer struct {
	policy.Answer
	// DidYouMean are the closest known names (at most two, best first)
	// to the agent or the tool the policy does not know; left out when
	// both are known or none is close.
	DidYouMean []string `json:"did_you_mean,omitempty"`
}

// maxHintBytes bounds the names Hint compares: a longer one is no
// mistyped name, and a request cannot make the server compare it.
const maxHintBytes = 256

// Hint is a's Answer, with the names of p close to an agent or a tool p
// does not know (similar.Suggest, the rule every "did you mean" of the
// project follows): the declared agents for an agent that is none (not a
// composed worker's or the default tier's label), and the tools of the
// registry and Kokua's core tools for a tool that is none: written
// toolset.tool for a name with a dot, bare for one without.
func Hint(p *policy.Policy, a policy.Answer) Answer {
	doc := p.Document()
	out := Answer{Answer: a}
	_, declared := doc.Agents[a.Agent]
	composed := strings.HasPrefix(a.Agent, kokua.ComposedPrefix) || a.Agent == doc.DefaultTier.Label
	switch {
	case !declared && !composed && a.Decision == policy.Denied:
		if len(a.Agent) <= maxHintBytes {
			out.DidYouMean = similar.Suggest(a.Agent, slices.Sorted(maps.Keys(doc.Agents)))
		}
	case a.Decision == policy.Unavailable && a.Toolset == "" && len(a.Tool) <= maxHintBytes:
		qualified := strings.Contains(a.Tool, ".")
		name := func(ts, tool string) string {
			if qualified {
				return ts + "." + tool
			}
			return tool
		}
		var names []string
		for _, core := range kokua.CoreTools() {
			names = append(names, name(kokua.Core, core))
		}
		for ts, t := range doc.Toolsets {
			for _, tool := range t.Tools {
				names = append(names, name(ts, tool.Name))
			}
		}
		slices.Sort(names)
		names = slices.Compact(names)
		if _, known := slices.BinarySearch(names, a.Tool); !known {
			out.DidYouMean = similar.Suggest(a.Tool, names)
		}
	}
	return out
}
