package kokua

// DefaultTierLabel is the gate label of the default tier, [assistant.tools]
// (R92, A16). It holds a '[', which no declared agent's name may (R15).
const DefaultTierLabel = "[assistant.tools]"

// ComposedPrefix starts the gate label of a composed worker,
// composed:<label> (R91). It holds a ':', which no declared agent's name
// may (R15).
const ComposedPrefix = "composed:"

// Origin says where an agent's approval pair comes from (R96).
type Origin string

// The two origins of a pair.
const (
	// Declared: the agent's own [agents.<name>.tools] writes confirm or
	// review, and that pair replaces the default whole (R10, R11).
	Declared Origin = "declared"
	// Inherited: the agent writes neither, and is gated by the default
	// tier (R9).
	Inherited Origin = "inherited"
	// Builtin: the file has no [assistant.tools], so the default tier is
	// Kokua's built-in pair (R9, A2).
	Builtin Origin = "builtin"
)
