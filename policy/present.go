package policy

import (
	"github.com/kokua-policy/kokua-policy/internal/prompt"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// internal/engine writes each agent's tools into the policy it compiles
// with the presentation a session makes: it has it through package prompt.
func init() { prompt.Presentation = presentation }

// presentation lists the tools an agent holds at turn start, in the order
// Kokua presents them (R185, R184), with the name of each tool held by the
// first toolset to offer it (kokua.Holders):
//
//  1. the resident toolsets' tools, toolsets in available order (trust
//     order for "all"), a skill toolset bringing the shared activate_skill
//     first;
//  2. the preloaded toolsets' tools, toolsets in the order a rebuilt
//     agent's transcript first loaded them: "The new agent preloads the
//     toolsets the transcript's load_tools calls loaded, in the order they
//     were first loaded", and "A preloaded tool whose name the agent
//     already holds is skipped and logged" (tool-access.md, "When an agent
//     is rebuilt, it preloads");
//  3. spawn_subagent, when the agent delegates;
//  4. the skill tools the entry agent holds through SkillAgent:
//     activate_skill, then each skill's scripts;
//  5. available_tools and load_tools, when the agent defers a toolset.
//
// It also returns the resident tools the first-wins rule hides (R137); a
// preloaded tool that is skipped is no shadow, and is left for the caller
// to log. resident says which toolsets the agent holds from its first turn;
// preloaded, which may be nil, lists those a rebuild preloaded; coreSpec
// gives a core tool's spec size, and may be nil. A toolset that refuses
// its loads (an MCP server that is not connected) builds empty (R149).
func presentation(toolsets map[string]*Toolset, a *Agent, resident func(string) bool, preloaded []string, loaders bool, coreSpec func(string) *int) ([]Tool, []Shadowed) {
	tools := make([]Tool, 0, len(a.Tools)+8)
	shadowed := []Shadowed{}
	holders := kokua.NewHolders(len(a.Tools) + 8)
	add := func(t Tool, report bool) {
		s, kept := holders.Offer(t.Name, t.Toolset)
		if kept {
			tools = append(tools, t)
		} else if report && s != (kokua.Shadow{}) {
			shadowed = append(shadowed, Shadowed{Name: s.Tool, Toolset: s.Toolset, By: s.By})
		}
	}
	core := func(name string) {
		t := Tool{Name: name, Toolset: kokua.Core}
		if coreSpec != nil {
			t.SpecBytes = coreSpec(name)
		}
		add(t, false)
	}
	build := func(name string, report bool) {
		ts := toolsets[name]
		if ts == nil || has(a.Skills, name) {
			return
		}
		if ts.Kind == kokua.KindSkill {
			core(kokua.ActivateSkill)
		}
		for _, t := range ts.built() {
			add(Tool{Name: t.Name, Toolset: name, SpecBytes: t.SpecBytes}, report)
		}
	}
	for _, name := range a.Available.Expanded {
		if resident(name) {
			build(name, true)
		}
	}
	for i, name := range preloaded {
		if !resident(name) && !has(preloaded[:i], name) {
			build(name, false)
		}
	}
	if len(a.DelegatesTo) > 0 {
		core(kokua.SpawnSubagent)
	}
	if len(a.Skills) > 0 {
		core(kokua.ActivateSkill)
		for _, name := range a.Skills {
			if ts := toolsets[name]; ts != nil {
				for _, t := range ts.built() {
					add(Tool{Name: t.Name, Toolset: name, SpecBytes: t.SpecBytes}, true)
				}
			}
		}
	}
	if loaders {
		core(kokua.AvailableTools)
		core(kokua.LoadTools)
	}
	return tools, shadowed
}

// built returns the tools a build of the toolset gives now: none for a
// toolset that refuses its loads, an MCP server that is not connected,
// which builds empty when resident (R149); its Tools are then what it
// offers once it connects.
func (t *Toolset) built() []Tool {
	if t.LoadRefusal != "" {
		return nil
	}
	return t.Tools
}
