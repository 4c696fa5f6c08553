package rules

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
)

// all-without-resident: available = "all" with no resident list would make
// every tool schema of the install resident on every round (R50, R111).
var allWithoutResidentRule = &Rule{
	ID:       "all-without-resident",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R111", "R50"},
	Summary:  `available = "all" needs a resident list`,
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		for _, a := range p.Config.Agents {
			if a.Tools == nil || !a.Tools.Available.All || a.Tools.Resident.State != config.Absent {
				continue
			}
			p.Report(Finding{Span: a.Tools.Available.Str.Span, Key: a.Tools.Available.Path,
				Message: fmt.Sprintf("agent %s declares available = \"all\" without resident: every tool schema the install offers would be resident and re-sent on every round", q(a.Name)),
				Suggestion: "add resident = [...] to " + config.TablePath([]string{"agents", a.Name, "tools"}) +
					": the toolsets it should hold from its first turn (the rest load on demand)"})
		}
	},
}
