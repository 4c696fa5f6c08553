package kokua

// Core is the name under which the tools no toolset provides are held and
// gated: the approval prefix core.<tool> (R36), and the toolset a compiled
// policy gives them.
const Core = "core"

// The core tools (R36), named as the model calls them.
const (
	SpawnSubagent  = "spawn_subagent"
	ActivateSkill  = "activate_skill"
	AvailableTools = "available_tools"
	LoadTools      = "load_tools"
)

// CoreTools returns every core tool in the order Kokua presents them
// (R185), whether or not a given agent holds it, in a slice of the
// caller's own.
func CoreTools() []string { return []string{SpawnSubagent, ActivateSkill, AvailableTools, LoadTools} }

// IsCoreTool reports whether name is a core tool (R36).
func IsCoreTool(name string) bool {
	switch name {
	case SpawnSubagent, ActivateSkill, AvailableTools, LoadTools:
		return true
	}
	return false
}

// Capabilities is the toolset whose compose_subagent builds composed
// workers; only an agent whose availability includes it can compose, and a
// composed worker is never given it (R43).
const Capabilities = "capabilities"

// ComposeSubagent is the tool of Capabilities that builds a composed
// worker (R43).
const ComposeSubagent = "compose_subagent"

// All is the keyword of available = "all" (R5).
const All = "all"

// Reserved reports whether no toolset may be registered under name, and
// why (R16, R116).
func Reserved(name string) (why string, reserved bool) {
	switch name {
	case Core:
		return "it is the approval prefix for the tools no toolset provides", true
	case All:
		return `it is the keyword of available = "all"`, true
	}
	return "", false
}
