package kokua

// Facts of Kokua's layouts from before the tool-access split, which the
// migration of an old config.toml needs (docs/semantics.md R1, R19, R20).

// Renamed returns the name Kokua registers a retired toolset name's
// toolset under now, and whether name is one it retired (R1: mcp was
// renamed from mcp-admin). An old list or approval entry naming the old
// name means the new one.
func Renamed(name string) (string, bool) {
	if name == "mcp-admin" {
		return "mcp", true
	}
	return "", false
}

// MemoryToolsets returns the toolsets the removed [assistant].memory =
// true gave the assistant: facts and user documents (R20), in a slice of
// the caller's own.
func MemoryToolsets() []string { return []string{"memory", "documents"} }

// RoleClock is the toolset the roles layout gave every
// [subagents.roles.<name>] whenever the top-level [tools].groups held it,
// whatever the role's own groups said; the assistant kept it too (R20).
const RoleClock = "time"

// OldGroupsNone is the value of the removed [tools].groups that turned
// every group off (["none"]); ["all"] turned every AIMU group on.
const OldGroupsNone = "none"

// LeanSupervisor is the [assistant] key of the layouts just before
// [agents] (Kokua's examples of 2026-08-08 to 2026-08-11) that chose who
// held the top-level [tools].groups: on, the assistant kept its own
// cross-cutting toolsets and spawned workers drew on the groups; off, the
// assistant carried every group itself. The spec does not describe it;
// docs/readings.md gives the examples' comments this reading rests on.
const LeanSupervisor = "lean_supervisor"
