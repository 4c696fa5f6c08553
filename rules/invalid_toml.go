package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/diag"
)

// invalid-toml: config.toml is not valid TOML 1.0 (R100). Kokua refuses to
// start; nothing else can be checked until the file parses.
var _ = register(&Rule{
	ID:       "invalid-toml",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R100"},
	Summary:  "config.toml is not valid TOML 1.0",
	Needs:    NeedsInput,
	Check: func(p *Pass) {
		if p.Syntax == nil {
			return
		}
		msg := fmt.Sprintf("%s is not valid TOML: %s", p.ConfigFile, p.Syntax.Message)
		var more []string
		// A reader's message too long for a first line is cut after its
		// cause, at its first ": ", and the rest (the escapes TOML allows,
		// say) becomes a note.
		if head, rest, ok := strings.Cut(p.Syntax.Message, ": "); ok && utf8.RuneCountInString(msg) > firstLine {
			msg = fmt.Sprintf("%s is not valid TOML: %s", p.ConfigFile, head)
			more = notes(rest)
		}
		p.Report(Finding{Span: p.Syntax.Span, Message: msg, Notes: more})
	},
})

// firstLine is the length a message should keep to, for realistic names:
// the first line of the human format.
const firstLine = 160
