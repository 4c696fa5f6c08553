package kokua

import "slices"

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

// trustOrder is the toolset kinds most trusted first (TrustOrder).
var trustOrder = [...]string{KindKokua, KindPlugin, KindSkill, KindMCP}

// TrustOrder returns the toolset kinds most trusted first (R51), in a
// slice of the caller's own. Within a kind, the order the registry lists
// them is their trust order.
func TrustOrder() []string { return slices.Clone(trustOrder[:]) }

// RegistrationOrder returns the kinds in the order Kokua registers them
// (R24), in a slice of the caller's own: of two toolsets of one name, the
// one registered first is kept.
func RegistrationOrder() []string { return []string{KindMCP, KindSkill, KindKokua, KindPlugin} }

// TrustRank is a kind's place in TrustOrder, 0 for the most trusted; a kind
// it does not list ranks last.
func TrustRank(kind string) int {
	for i, k := range trustOrder {
		if k == kind {
			return i
		}
	}
	return len(trustOrder)
}
