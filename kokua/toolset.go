package kokua

// The kinds of toolset a registry holds (R23).
const (
	KindKokua  = "kokua"
	KindPlugin = "plugin"
	KindSkill  = "skill"
	KindMCP    = "mcp"
)

// ProviderLabel is how --list-toolsets names the provider of a toolset kind
// (R23, R162).
func ProviderLabel(kind string) string {
	switch kind {
	case KindKokua:
		return "built-in toolset"
	case KindMCP:
		return "MCP server"
	}
	return kind
}
