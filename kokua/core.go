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

// CoreTools lists every core tool in the order Kokua presents them (R185),
// whether or not a given agent holds it.
var CoreTools = []string{SpawnSubagent, ActivateSkill, AvailableTools, LoadTools}

// Capabilities is the toolset whose compose_subagent builds composed
// workers; only an agent whose availability includes it can compose, and a
// composed worker is never given it (R43).
const Capabilities = "capabilities"

// ComposeSubagent is the tool of Capabilities that builds a composed
// worker (R43).
const ComposeSubagent = "compose_subagent"

// All is the keyword of available = "all" (R5).
const All = "all"

// Reserved maps each name no toolset may be registered under to the reason
// (R16, R116).
var Reserved = map[string]string{
	Core: "it is the approval prefix for the tools no toolset provides",
	All:  `it is the keyword of available = "all"`,
}
