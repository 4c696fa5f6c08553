// Package hostile holds what the output tests of every command feed them
// (issue 13): strings that carry terminal escapes, forged workflow
// commands, bidirectional overrides and invalid UTF-8, and the check that
// none of it reaches an output raw.
//
// Only tests import it.
package hostile

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// Names are strings from outside (a path, a config name, a manifest name,
// a policy name) that no output may print raw: ESC with a colour
// sequence, an OSC 8 hyperlink, BEL, CR, LF followed by a forged GitHub
// workflow command, the right-to-left override, DEL, a C1 control (CSI)
// and a byte of invalid UTF-8.
var Names = []string{
	"esc\x1b[31m", "osc\x1b]8;;http://x\x1b\\", "bell\a", "cr\r", "lf\n::error file=x::forged",
	"rtl\u202e", "del\x7f", "c1\u009b", "bad\xff",
}

// Valid is Names without the invalid UTF-8, for the places that hold
// only text (a TOML key, a JSON string).
func Valid() []string {
	var out []string
	for _, n := range Names {
		if utf8.ValidString(n) {
			out = append(out, n)
		}
	}
	return out
}

// Raw describes the first thing in out that no output may carry: a
// control character other than the line feed, a rune printable.Unsafe reports
// or a byte of invalid UTF-8; "" when there is none.
func Raw(out []byte) string {
	for i := 0; i < len(out); {
		r, w := utf8.DecodeRune(out[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			return fmt.Sprintf("invalid UTF-8 byte %#x at byte %d: %q", out[i], i, context(out, i))
		case r == '\n':
		case printable.Unsafe(r):
			return fmt.Sprintf("%U at byte %d: %q", r, i, context(out, i))
		}
		i += w
	}
	return ""
}

func context(out []byte, i int) string {
	return string(out[max(i-40, 0):min(i+20, len(out))])
}

// JSONString writes s as a JSON string with everything outside printable
// ASCII as \u escapes.
func JSONString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r > 0xffff: // JSON writes it as a UTF-16 surrogate pair
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		case r < 0x20 || r >= 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FileName is a name made from s that a Unix file system takes: s with
// its slashes replaced.
func FileName(s string) string { return strings.ReplaceAll(s, "/", "_") }

// Forged reports whether out has a line that a name's line feed started:
// the workflow command one of Names forges.
func Forged(out []byte) bool {
	return strings.Contains("\n"+string(out), "\n::error file=x::forged")
}

// DelegatingConfig is a config whose entry agent holds time and fs and
// delegates to an agent of each of names. approval is the body of
// [assistant.tools] (the confirm and review lists every agent inherits),
// and agentTools the body of each named agent's tools table.
func DelegatingConfig(names []string, approval, agentTools string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[assistant.tools]\n%s\n\n[agents.assistant]\ndelegates_to = [", approval)
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tomlpos.BasicString(n))
	}
	b.WriteString("]\n\n[agents.assistant.tools]\navailable = [\"time\", \"fs\"]\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\n[agents.%s.tools]\n%s\n", tomlpos.BasicString(n), agentTools)
	}
	return b.String()
}
