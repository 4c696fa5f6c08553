package reference

import (
	"slices"
	"strings"
)

// The built-in floor, used when [security].never_auto_approve is absent
// (R86).
var refBuiltinFloor = []string{"config.update_config", "skills.add_skill_script", "mcp.add_mcp_server"}

// refSecurity reads [security.auto_approval].enabled and the floor.
func refSecurity(doc map[string]any) (enabled bool, floor []string) {
	security := refTable(doc["security"])
	enabled, _ = refTable(security["auto_approval"])["enabled"].(bool)
	floor = refBuiltinFloor
	if v, ok := security["never_auto_approve"]; ok {
		floor = refStrings(v)
	}
	return enabled, floor
}

// FloorTools are the tool names the floor holds, whether or not their
// toolsets are built: a whole-toolset entry holds every tool of the
// toolset, a core entry the core tools that exist (R36, R86).
func (r *Evaluator) FloorTools() []string {
	var out []string
	for _, e := range r.Floor {
		toolsetName, tool, hasTool := strings.Cut(e, ".")
		var tools []string
		switch {
		case toolsetName == "core" && (!hasTool || tool == "*"):
			tools = r.coreToolsExisting()
		case toolsetName == "core":
			tools = []string{tool}
		case r.toolset(toolsetName) == nil:
		case !hasTool || tool == "*":
			tools = r.builtTools(r.toolset(toolsetName))
		default:
			tools = []string{tool}
		}
		for _, t := range tools {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// ReviewerFirst reports whether a review call of the tool goes to the
// reviewer before the user: auto-approval is on and the floor does not
// hold the tool (R85, R86, R68).
func (r *Evaluator) ReviewerFirst(tool string) bool {
	return r.AutoApproval && !slices.Contains(r.FloorTools(), tool)
}

// AnswerLoaded is Answer for a tool only a deferred toolset offers: the
// answer once the first such toolset, in available order, is loaded. The
// load builds that toolset, so the entries naming it resolve (R80, R82).
// A disconnected MCP server "refuses to load" (tool-access.md, "What a
// load costs"): a tool only such a server offers stays Loadable. For any
// other tool it is Answer.
func (r *Evaluator) AnswerLoaded(agentName, tool string) string {
	ans := r.Answer(agentName, tool)
	if ans != Loadable {
		return ans
	}
	a := r.agent(agentName)
	var loaded string
	for _, name := range r.deferred(a) {
		if t := r.toolset(name); t != nil && slices.Contains(r.builtTools(t), tool) {
			loaded = name
			break
		}
	}
	if loaded == "" {
		return ans
	}
	key := [2]string{agentName, loaded}
	v := r.loadedViews[key]
	if v == nil {
		v = &refView{}
		confirm, review := r.pair(a)
		built := append(r.ownBuilt(a), loaded)
		for _, e := range confirm {
			v.confirm = append(v.confirm, r.resolve(e, built)...)
		}
		for _, e := range review {
			v.review = append(v.review, r.resolve(e, built)...)
		}
		if r.loadedViews == nil {
			r.loadedViews = map[[2]string]*refView{}
		}
		r.loadedViews[key] = v
	}
	switch {
	case slices.Contains(v.confirm, tool):
		return Confirm
	case slices.Contains(v.review, tool):
		return Review
	}
	return Run
}
