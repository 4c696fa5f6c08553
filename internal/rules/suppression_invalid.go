package rules

import "github.com/kokua-policy/kokua-policy/diag"

// suppression-invalid: a suppression comment that cannot work: it names no
// rule, gives no reason, is not of the form
// "# kokua-lint: ignore[<rule-id>] <reason>", or tries to hide an error,
// which Kokua would still refuse. The mechanism is in suppress.go.
var suppressionInvalid = &Rule{
	ID:       "suppression-invalid",
	Severity: diag.Warning,
	Phase:    diag.PhaseInput,
	Summary:  "a kokua-lint suppression comment is malformed, gives no reason, or targets an error",
	Needs:    NeedsConfig,
}
