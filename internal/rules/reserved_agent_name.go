package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
)

// reserved-agent-name: an agent name holding ':' or '[', the characters
// gate labels use to tell a declared agent from a composed worker
// (composed:<label>) and from the default tier (R15, R112).
var reservedAgentNameRule = &Rule{
	ID:       "reserved-agent-name",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R112", "R15", "R97"},
	Summary:  "an agent name contains ':' or '[', reserved for gate labels",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		for _, a := range p.Config.Agents {
			i := strings.IndexAny(a.Name, ":[")
			if i < 0 {
				continue
			}
			p.Report(Finding{Span: a.Span, Key: a.Path,
				Message:    fmt.Sprintf("agent name %s contains %s, which is reserved: gate labels use ':' for composed workers (composed:<label>) and '[' for the default tier", q(a.Name), q(a.Name[i:i+1])),
				Suggestion: fmt.Sprintf("rename the agent to %s, here and wherever delegates_to or [assistant].agent names it", tomlName(renameAgent(a.Name)))})
		}
	},
}

// renameAgent proposes a name without the reserved characters: ':' and '['
// become '-', and a ']' that closed a '[' is dropped ("coder[fast]" becomes
// "coder-fast").
func renameAgent(name string) string {
	out := strings.NewReplacer(":", "-", "[", "-", "]", "").Replace(name)
	if out = strings.Trim(out, "-"); out == "" {
		return "agent"
	}
	return out
}
