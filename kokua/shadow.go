package kokua

// Shadow is a tool name that a later toolset offers once an earlier one
// holds it: the earlier toolset keeps the name, and the later one's tool
// is hidden (R137).
type Shadow struct {
	// Tool is the name both offer.
	Tool string
	// Toolset is the later toolset, whose tool is hidden.
	Toolset string
	// By is the earlier toolset, which keeps the name.
	By string
}

// Alert is the alert Kokua raises for the shadow in an agent, word for word
// (R137). The caller escapes the names when they are to be printed.
func (s Shadow) Alert(agent string) string {
	return agent + ": " + s.Tool + " from '" + s.Toolset + "' is shadowed by '" + s.By + "' (the earlier resident toolset keeps the name)."
}

// Holders tracks which toolset holds each tool name while an agent's tools
// are walked in the order Kokua presents them: the first to offer a name
// keeps it.
type Holders struct {
	holder map[string]string
}

// NewHolders makes a Holders sized for about n names.
func NewHolders(n int) *Holders {
	return &Holders{holder: make(map[string]string, n)}
}

// Reset forgets every holder, keeping the room made, for the next walk.
func (h *Holders) Reset() { clear(h.holder) }

// Offer offers a tool of a toolset (Core for a core tool) and reports
// whether the tool is kept. A tool that is not kept is a shadow, returned,
// unless either side is a core tool: activate_skill, which every skill
// brings, is one shared tool and never counted (R137). Otherwise the
// returned Shadow is the zero value.
func (h *Holders) Offer(tool, toolset string) (shadow Shadow, kept bool) {
	prev, taken := h.holder[tool]
	switch {
	case !taken:
		h.holder[tool] = toolset
		return Shadow{}, true
	case prev == Core || toolset == Core:
		return Shadow{}, false
	}
	return Shadow{Tool: tool, Toolset: toolset, By: prev}, false
}
