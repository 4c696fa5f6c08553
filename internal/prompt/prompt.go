// Package prompt holds what Kokua puts before the model about an agent's
// tools, for the module's packages that share it: the system prompt's
// line naming the toolsets an agent can still load, and the presentation
// of its tools at turn start, which package policy computes (it is the
// runtime's answer) and kokua-compile writes into the policy it compiles
// (internal/engine).
//
// It depends on the standard library only: package policy, which a host
// embeds, imports it.
package prompt

import "strings"

// namesLinePrefix starts the names line (R63).
const namesLinePrefix = "Also available, load before use: "

// NamesLine is the system prompt's line naming the toolsets an agent can
// load, in the order given (R63, R184), or "" when there is none.
func NamesLine(toolsets []string) string {
	if len(toolsets) == 0 {
		return ""
	}
	return namesLinePrefix + strings.Join(toolsets, ", ") + "."
}

// Presentation is package policy's presentation of an agent's tools, set
// by policy as it initialises, so that every program that imports policy
// has it. Its value is a
//
//	func(toolsets map[string]*policy.Toolset, a *policy.Agent, resident func(string) bool, preloaded []string, loaders bool, coreSpec func(string) *int) ([]policy.Tool, []policy.Shadowed)
//
// (see policy's presentation for what each parameter means), a type this
// package cannot name, since policy imports it; internal/engine asserts
// it. It is here rather than exported by policy so that a host sees only
// the tools a compiled policy lists and a session presents.
var Presentation any
