package kokua

// DefaultTierLabel is the gate label of the default tier, [assistant.tools]
// (R92, A16). It holds a '[', which no declared agent's name may (R15).
const DefaultTierLabel = "[assistant.tools]"

// ComposedPrefix starts the gate label of a composed worker,
// composed:<label> (R91). It holds a ':', which no declared agent's name
// may (R15).
const ComposedPrefix = "composed:"

// Origin says where a setting comes from: an agent's approval pair (R96),
// or the model and thinking a reviewer runs with (R143, R144).
type Origin string

// The origins of a setting.
const (
	// Declared: the agent's own [agents.<name>.tools] writes confirm or
	// review, and that pair replaces the default whole (R10, R11); the
	// reviewer's own [reviewers.<name>] table writes the key.
	Declared Origin = "declared"
	// Inherited: the agent writes neither, and is gated by the default
	// tier (R9); the reviewer's table does not write the key, and
	// [assistant] does, which the reviewer runs with (R143, R144).
	Inherited Origin = "inherited"
	// Builtin: the file has no [assistant.tools], so the default tier is
	// Kokua's built-in pair (R9, A2); neither the reviewer's table nor
	// [assistant] writes the key, and the runtime's default applies.
	Builtin Origin = "builtin"
)
