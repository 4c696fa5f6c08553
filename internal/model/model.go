// Package model joins a loaded config and a registry manifest into the facts
// every check and the compiler reason about (rules.md section 7.3): the
// registry in registration and trust order, each agent's availability,
// residency and approval policy, what startup reaches and builds, the core
// tools that exist, and what each approval entry names.
package model

import (
	"fmt"
	"slices"
	"sync"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// Toolset is a registered toolset.
type Toolset struct {
	Name           string
	Kind           string
	Provider       string
	Description    string
	Guidance       string
	EntryPointOnly bool
	// Connected is false for an MCP server the manifest marks disconnected
	// or does not describe: it builds empty (R132, R166).
	Connected bool
	// Tools are the names one build returns, in order, activate_skill left
	// out (R174).
	Tools []string
	// Specs are the manifest's tool entries, for byte accounting; nil for
	// an MCP server the manifest does not describe.
	Specs []*manifest.Tool
	// Classes are the capability classes the manifest gives the toolset
	// (ClassesSet: it writes the key); without them, its kind's
	// (kokua.KindClasses). ToolClasses resolves a tool's.
	Classes    []kokua.Class
	ClassesSet bool
	Workflow   *manifest.Workflow
	Settings   []manifest.Setting
	// Span is where the toolset is defined: its name in the manifest, or the
	// name key of its [[mcp.server]] table in the config.
	Span diag.Span
	// Trust is the toolset's place in trust order (R51), from 0.
	Trust int

	// builds is the manifest's entry whose tools a build returns; nil for
	// an MCP server that is not connected or not described, whose build
	// returns none.
	builds *manifest.Toolset
}

// ToolClasses are the capability classes of one of the toolset's tools:
// the tool's own when its manifest entry writes them, else the toolset's,
// else those of its kind. The result is sorted in kokua.Classes order.
func (t *Toolset) ToolClasses(tool string) []kokua.Class {
	out := kokua.KindClasses(t.Kind)
	if t.ClassesSet {
		out = t.Classes
	}
	for _, s := range t.Specs {
		if s.Name == tool && s.ClassesSet {
			out = s.Classes
			break
		}
	}
	out = slices.Clone(out)
	slices.SortFunc(out, func(a, b kokua.Class) int { return kokua.ClassRank(a) - kokua.ClassRank(b) })
	return out
}

// Has reports whether a build of the toolset returns a tool of that name.
func (t *Toolset) Has(tool string) bool { return t.builds != nil && t.builds.Builds(tool) }

// Agent is a declared agent with its derived facts.
type Agent struct {
	*config.Agent
	// Entry marks the entry agent ([assistant].agent).
	Entry bool
	// Reachable: the entry agent or a worker reachable from it through
	// delegates_to (R173); startup builds these.
	Reachable bool
	// Known is false when the agent's availability could not be read (a
	// wrong type, "all" misspelled); checks that need it are skipped (R204).
	Known bool
	// All is true for available = "all".
	All bool
	// Avail is the agent's availability: its list, deduplicated and
	// restricted to registered toolsets, or its "all" expansion in trust
	// order (R172). For the entry agent it includes the skills it names.
	Avail []*Toolset
	// Resident and Deferred split Avail (R56-R58), in available order. For
	// the entry agent, skills held through SkillAgent are in neither.
	Resident []*Toolset
	Deferred []*Toolset
	// Skills are the skill toolsets the entry agent holds through its
	// SkillAgent (R42); empty for every other agent.
	Skills []*Toolset
	// Delegates are the declared agents named in delegates_to, in order.
	Delegates []*Agent
	// Policy is the approval pair that governs the agent.
	Policy *Policy

	avail map[string]bool
}

// Holds reports whether the toolset is in the agent's availability or, for
// the entry agent, among its SkillAgent skills.
func (a *Agent) Holds(toolset string) bool { return a.avail[toolset] }

// HoldsCore reports whether the agent can ever call a core tool (R36): it
// earns spawn_subagent by delegating, the loaders by deferring a toolset,
// and activate_skill by holding a skill.
func (a *Agent) HoldsCore(tool string) bool {
	switch tool {
	case kokua.SpawnSubagent:
		return len(a.DelegatesTo.Items) > 0
	case kokua.AvailableTools, kokua.LoadTools:
		return len(a.Deferred) > 0
	case kokua.ActivateSkill:
		if len(a.Skills) > 0 {
			return true
		}
		for _, t := range a.Avail {
			if t.Kind == kokua.KindSkill {
				return true
			}
		}
	}
	return false
}

// Policy is one approval pair: the default tier or an agent's declared pair.
type Policy struct {
	// Label is the gate label: the agent's name, or kokua.DefaultTierLabel.
	Label string
	// Agent is the declaring agent; nil for the default tier.
	Agent   *Agent
	Confirm config.List
	Review  config.List
}

// Table is the table the policy is written in, as a config spells it.
func (p *Policy) Table() string {
	if p.Agent == nil {
		return kokua.DefaultTierLabel
	}
	return config.TablePath([]string{"agents", p.Agent.Name, "tools"})
}

// Candidate is a toolset as a provider offers it for registration, before
// duplicate and reserved names are refused (R115-R117).
type Candidate struct {
	Name string
	Kind string
	// ProviderLabel is how --list-toolsets names the provider (R23).
	ProviderLabel string
	Description   string
	Span          diag.Span
}

// Key is the config key that defines the candidate, for a finding about
// it: [[mcp.server]].name for an MCP server; empty for a toolset the
// install provides, which no key of the config defines.
func (c Candidate) Key() string {
	if c.Kind == kokua.KindMCP {
		return "[[mcp.server]].name"
	}
	return ""
}

// Provider names the candidate's provider so that two of one kind can be
// told apart without the toolset name they share: "the MCP server in
// [[mcp.server]] at line 17" for a server the config defines, else the
// provider label, "the skill" (R23, R115).
func (c Candidate) Provider() string {
	if c.Kind == kokua.KindMCP && !c.Span.IsZero() {
		return fmt.Sprintf("the %s in [[mcp.server]] at line %d", c.ProviderLabel, c.Span.Start.Line)
	}
	return "the " + c.ProviderLabel
}

// World is a config seen against a manifest.
type World struct {
	Config   *config.Config
	Manifest *manifest.Manifest

	// Candidates are every toolset the providers offer, in registration
	// order (R24): MCP servers, skills, Kokua's own, plugins.
	Candidates []Candidate
	// Toolsets is the registry in trust order (R51): the first candidate of
	// each name, reserved names left out.
	Toolsets []*Toolset
	// Agents are in config order.
	Agents []*Agent
	// EntryAgent is nil when [assistant].agent names no table.
	EntryAgent *Agent
	// CoreTools are the core tools that exist in this config, in order (R36).
	CoreTools []string
	// Built is B, the toolsets startup builds (R77).
	Built map[string]bool
	// Default is the default tier's policy.
	Default *Policy
	// Composes is true when some agent that startup builds (the entry
	// agent or a worker it reaches) holds capabilities, so composed workers
	// can exist and build toolsets (R43, R77, R206).
	Composes bool
	// StaleMCP are the manifest's MCP entries no [[mcp.server]] names.
	StaleMCP []*manifest.Toolset
	// UndescribedMCP are the configured MCP servers with no manifest entry.
	UndescribedMCP []*Toolset

	toolsets  map[string]*Toolset
	agents    map[string]*Agent
	toolHome  map[string][]string // made by homesOf, once
	homesOnce sync.Once
	resolved  map[string]Resolution
	// indexes holds the "did you mean" index of each list of names
	// Resolve suggests from, built at its first use.
	indexes map[nameList]*similar.Index
}

// Toolset returns the registered toolset of that name, or nil.
func (w *World) Toolset(name string) *Toolset { return w.toolsets[name] }

// Agent returns the declared agent of that name, or nil.
func (w *World) Agent(name string) *Agent { return w.agents[name] }

// CoreExists reports whether a core tool exists in this config.
func (w *World) CoreExists(tool string) bool { return slices.Contains(w.CoreTools, tool) }

// UnbuiltResident returns the first resident toolset of the agent that no
// agent builds at startup, or nil. Kokua skips the shadow check of an
// agent that has one (R138).
func (w *World) UnbuiltResident(a *Agent) *Toolset {
	for _, t := range a.Resident {
		if !w.Built[t.Name] {
			return t
		}
	}
	return nil
}

// Policies returns the default tier first, then each declared pair in
// config order.
func (w *World) Policies() []*Policy {
	out := []*Policy{w.Default}
	for _, a := range w.Agents {
		if a.Policy != w.Default {
			out = append(out, a.Policy)
		}
	}
	return out
}

// Loaders returns every agent whose availability holds the toolset, in
// config order, whether or not Kokua ever builds the agent (R206).
func (w *World) Loaders(toolset string) []*Agent {
	var out []*Agent
	for _, a := range w.Agents {
		if a.Holds(toolset) {
			out = append(out, a)
		}
	}
	return out
}

// Builders returns the agents that can really build the toolset: those
// holding it that Kokua builds, the entry agent and the workers it reaches
// by delegates_to, in config order. An agent nothing reaches is never
// built, so it never loads anything (R77, R173, R206).
func (w *World) Builders(toolset string) []*Agent {
	var out []*Agent
	for _, a := range w.Loaders(toolset) {
		if a.Reachable {
			out = append(out, a)
		}
	}
	return out
}

// Composable reports whether a composed worker could be built with the
// toolset: some agent Kokua builds holds capabilities, so it can call
// compose_subagent, which draws from the whole registry but never gives a
// worker capabilities or an entry_point_only toolset (R43, R77, R206).
func (w *World) Composable(toolset string) bool {
	t := w.toolsets[toolset]
	if t == nil || t.EntryPointOnly || t.Name == kokua.Capabilities {
		return false
	}
	return len(w.Builders(kokua.Capabilities)) > 0
}
