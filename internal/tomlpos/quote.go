package tomlpos

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// DottedKey writes a key path as TOML spells it, quoting each segment that
// is not a bare key.
func DottedKey(path []string) string {
	var b strings.Builder
	WriteDottedKey(&b, path)
	return b.String()
}

// WriteDottedKey writes DottedKey(path) to b, for a caller that writes
// more around it.
func WriteDottedKey(b *strings.Builder, path []string) {
	n := len(path)
	for _, p := range path {
		n += len(p) + 2 // a quoted segment's quotes
	}
	b.Grow(n)
	for i, p := range path {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(QuoteKey(p))
	}
}

// QuoteKey writes one key segment: bare when TOML allows, else as a basic
// string.
func QuoteKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return BasicString(k)
		}
	}
	return k
}

// BasicString writes a string as a TOML basic string, escaping what a
// terminal would act on (control characters, bidirectional overrides) as
// TOML escapes, so that a key path both prints safely and reads back as
// the same key.
func BasicString(k string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range k {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case printable.Unsafe(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08X`, r)
		case printable.Unsafe(r):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
