// Package english writes lists of names as an English sentence does:
// "'a', 'b' and 'c'", "human, json or sarif". A list of names read from
// input (a config, a manifest, a test file) is bounded: it shows the
// first MaxNames and counts the rest, "'a', 'b', 'c', 'd', 'e' and 2,997
// more", so that a message does not grow with its input (issue 18: 3,000
// unknown delegates once wrote 3,000 names in each of 3,000 findings).
// Only a closed list the program itself holds (a flag's values, the words
// of a schema) is written whole, with Words.
package english

import (
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// MaxNames is how many names Names shows; the rest are counted.
const MaxNames = 5

// Names writes names from input as a list: each name shown through show
// (nil shows it as it is), joined by ", " with last ("and", "or") before
// the final one; an empty last joins them all with ", ". Past MaxNames it
// names the first MaxNames and counts the rest: "'a', 'b', 'c', 'd', 'e'
// and 2,997 more" ("or 2,997 more" for an "or" list). Only the names it
// shows are passed to show.
func Names(names []string, last string, show func(string) string) string {
	n := min(len(names), MaxNames)
	return Counted(names[:n], len(names), last, show)
}

// Counted is Names for a list cut where it was made: it shows every name
// of shown and counts the rest of total, when total is more.
func Counted(shown []string, total int, last string, show func(string) string) string {
	parts := make([]string, len(shown))
	for i, s := range shown {
		if show != nil {
			s = show(s)
		}
		parts[i] = s
	}
	if more := total - len(parts); more > 0 {
		word := last
		if word == "" {
			word = "and"
		}
		return strings.Join(parts, ", ") + " " + word + " " + printable.Thousands(more) + " more"
	}
	return join(parts, last)
}

// Words writes a closed list the program holds, whole, as Names writes a
// short one: "human, json or sarif". It is not for names from input.
func Words(words []string, last string, show func(string) string) string {
	return Counted(words, len(words), last, show)
}

// join joins parts with ", ", and last before the final one.
func join(parts []string, last string) string {
	n := len(parts)
	if last == "" || n <= 1 {
		return strings.Join(parts, ", ")
	}
	return strings.Join(parts[:n-1], ", ") + " " + last + " " + parts[n-1]
}
