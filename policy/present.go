package policy

// CoreToolset is the toolset name the document gives core tools.
const CoreToolset = "core"

// The core tools (R36).
const (
	SpawnSubagent  = "spawn_subagent"
	ActivateSkill  = "activate_skill"
	AvailableTools = "available_tools"
	LoadTools      = "load_tools"
)

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
	holder := make(map[string]string, len(a.Tools)+8)
	add := func(t Tool) {
		if prev, taken := holder[t.Name]; taken {
			if t.Toolset != CoreToolset && prev != CoreToolset {
				shadowed = append(shadowed, Shadowed{Name: t.Name, Toolset: t.Toolset, By: prev})
			}
			return
		}
		holder[t.Name] = t.Toolset
		tools = append(tools, t)
	}
	core := func(name string) {
		t := Tool{Name: name, Toolset: CoreToolset}
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
		if ts.Kind == "skill" {
			core(ActivateSkill)
		}
		for _, t := range ts.Tools {
			add(Tool{Name: t.Name, Toolset: name, SpecBytes: t.SpecBytes})
		}
	}
	if len(a.DelegatesTo) > 0 {
		core(SpawnSubagent)
	}
	if len(a.Skills) > 0 {
		core(ActivateSkill)
		for _, name := range a.Skills {
			if ts := toolsets[name]; ts != nil {
				for _, t := range ts.Tools {
					add(Tool{Name: t.Name, Toolset: name, SpecBytes: t.SpecBytes})
				}
			}
		}
	}
	if stillDeferred {
		core(AvailableTools)
		core(LoadTools)
	}
	return tools, shadowed
}
