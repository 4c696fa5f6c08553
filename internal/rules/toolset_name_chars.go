package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
)

// toolset-name-chars: a toolset name holding '.' or '*', which no approval
// entry could name since the entry grammar splits on '.' and reserves '*'
// (R18, R117, A25).
var toolsetNameCharsRule = &Rule{
	ID:       "toolset-name-chars",
	Severity: diag.Error,
	Phase:    diag.PhaseRegister,
	Refs:     []string{"R117", "R18", "A25"},
	Summary:  "a toolset name contains '.' or '*', which approval entries cannot name",
	Needs:    NeedsWorld,
	Check: func(p *Pass) {
		for _, c := range p.World.Candidates {
			i := strings.IndexAny(c.Name, ".*")
			if i < 0 {
				continue
			}
			p.Report(Finding{Span: c.Span, Key: c.Key(),
				Message:    fmt.Sprintf("toolset name %s contains %q: approval entries split on '.' and reserve '*', so no confirm, review or never_auto_approve entry could name its tools", q(c.Name), c.Name[i:i+1]),
				Suggestion: fmt.Sprintf("rename it to %s", tomlName(strings.NewReplacer(".", "_", "*", "_").Replace(c.Name)))})
		}
	},
}
