package rules

import "github.com/kokua-policy/kokua-policy/diag"

// suppression-unused: a "# kokua-lint: ignore[<rule-id>] <reason>" comment
// that hides nothing, because the rule reports nothing on the line it
// covers. A stale suppression would otherwise hide a future finding that
// nobody has looked at. The mechanism is in suppress.go.
var suppressionUnused = &Rule{
	ID:       "suppression-unused",
	Severity: diag.Warning,
	Phase:    diag.PhaseInput,
	Summary:  "a kokua-lint suppression comment hides nothing",
	Needs:    NeedsConfig,
}
