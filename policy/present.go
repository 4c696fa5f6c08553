package policy

import "github.com/kokua-policy/kokua-policy/kokua"

// Presentation lists the tools an agent holds at turn start when the given
// toolsets are resident (its resident ones, plus any preloaded), in the
// order Kokua presents them (R185, R184):
//
//  1. the resident toolsets' tools, toolsets in available order, the first
//     tool of a name winning (a skill toolset brings the shared
//     activate_skill first);
//  2. spawn_subagent, when the agent delegates;
//  3. the skill tools the entry agent holds through SkillAgent:
//     activate_skill, then each skill's scripts;
//  4. available_tools and load_tools, when something is still deferred.
//
// It also returns the resident tools the first-wins rule hides (R137).
// resident says which toolsets are held like resident ones; coreSpec gives
// a core tool's spec size, and may be nil.
func Presentation(toolsets map[string]*Toolset, a *Agent, resident func(string) bool, stillDeferred bool, coreSpec func(string) *int) ([]Tool, []Shadowed) {
	tools := make([]Tool, 0, len(a.Tools)+8)
	shadowed := []Shadowed{}
	holders := kokua.NewHolders(len(a.Tools) + 8)
	add := func(t Tool) {
		s, kept := holders.Offer(t.Name, t.Toolset)
		if kept {
			tools = append(tools, t)
		} else if s != (kokua.Shadow{}) {
			shadowed = append(shadowed, Shadowed{Name: s.Tool, Toolset: s.Toolset, By: s.By})
		}
	}
	core := func(name string) {
		t := Tool{Name: name, Toolset: kokua.Core}
		if coreSpec != nil {
			t.SpecBytes = coreSpec(name)
		}
		add(t)
	}
	for _, name := range a.Available.Expanded {
		ts := toolsets[name]
		if ts == nil || !resident(name) || has(a.Skills, name) {
			continue
		}
		if ts.Kind == kokua.KindSkill {
			core(kokua.ActivateSkill)
		}
		for _, t := range ts.Tools {
			add(Tool{Name: t.Name, Toolset: name, SpecBytes: t.SpecBytes})
		}
	}
	if len(a.DelegatesTo) > 0 {
		core(kokua.SpawnSubagent)
	}
	if len(a.Skills) > 0 {
		core(kokua.ActivateSkill)
		for _, name := range a.Skills {
			if ts := toolsets[name]; ts != nil {
				for _, t := range ts.Tools {
					add(Tool{Name: t.Name, Toolset: name, SpecBytes: t.SpecBytes})
				}
			}
		}
	}
	if stillDeferred {
		core(kokua.AvailableTools)
		core(kokua.LoadTools)
	}
	return tools, shadowed
}
