package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// syntaxFinding is the one finding of a config the reader could not read:
// "<file> <what>: <the reader's message>". A reader's message too long for
// a first line is cut after its cause, at its first ": ", and the rest
// (the escapes TOML allows, say) becomes a note.
func syntaxFinding(p *Pass, what string) Finding {
	msg := fmt.Sprintf("%s %s: %s", p.ConfigFile, what, p.Syntax.Message)
	var more []string
	if head, rest, ok := strings.Cut(p.Syntax.Message, ": "); ok && utf8.RuneCountInString(msg) > firstLine {
		msg = fmt.Sprintf("%s %s: %s", p.ConfigFile, what, head)
		more = notes(rest)
	}
	return Finding{Span: p.Syntax.Span, Message: msg, Notes: more}
}

// firstLine is the length a message should keep to, for realistic names:
// the first line of the human format.
const firstLine = 160
