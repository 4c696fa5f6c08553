package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// This file is not a check: it holds how findings quote and list names.
//
// A message quotes a name with q, as 'name'. A suggestion that shows TOML
// to write (a key = value, a table header, an entry to put in a list)
// quotes it as TOML instead, so that what it shows reads back as the name
// it means.

// q quotes a name from the config for a message, escaping anything that
// could disturb a terminal (control characters, bidirectional overrides).
func q(s string) string { return diag.Quote(s) }

// quoted quotes each name for a message.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = q(n)
	}
	return out
}

// quoteAll quotes names and joins them with ", ".
func quoteAll(names []string) string { return strings.Join(quoted(names), ", ") }

// orList joins quoted names as "'a', 'b' or 'c'".
func orList(names []string) string { return orJoin(quoted(names)) }

// orJoin joins already quoted names as "a, b or c".
func orJoin(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// andJoin joins already quoted names as "a, b and c".
func andJoin(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// didYouMean writes " (did you mean 'x'?)" for close matches, or nothing.
func didYouMean(matches []string) string {
	switch len(matches) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" (did you mean %s?)", q(matches[0]))
	}
	return fmt.Sprintf(" (did you mean %s or %s?)", q(matches[0]), q(matches[1]))
}

// didYouMeanNote writes "Did you mean 'x'?" for close matches, as a note
// of its own, or nothing.
func didYouMeanNote(matches []string) string {
	return sentence(strings.TrimSuffix(strings.TrimPrefix(didYouMean(matches), " ("), ")"))
}

// sentence writes s as a note: its first letter in upper case, and a
// period at its end unless it already ends a sentence. It returns "" for
// "", so that an empty note can be dropped (notes).
func sentence(s string) string {
	if s == "" {
		return ""
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return capitalize(s)
}

// capitalize writes a sentence's first letter in upper case.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// notes writes each non-empty text as a note sentence, in order.
func notes(texts ...string) []string {
	var out []string
	for _, t := range texts {
		if t = sentence(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// trimPeriod drops the period that ends a toolset description, to quote it
// inside a sentence.
func trimPeriod(s string) string { return strings.TrimSuffix(s, ".") }

// tomlString writes a string as the value of a key = value suggestion: a
// TOML basic string, "name", whose escapes TOML reads back.
func tomlString(s string) string { return tomlpos.BasicString(s) }

// tomlStrings writes strings as the items of a TOML array, without the
// brackets: "a", "b".
func tomlStrings(items []string) string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = tomlString(it)
	}
	return strings.Join(out, ", ")
}

// tomlName writes a name a suggestion tells the user to write, an entry
// of a list or an agent's name, the way messages quote names: as a TOML
// literal string, 'name'. A name a literal string cannot hold (one with a
// single quote or a character a terminal would act on) is written as a
// basic string with escapes instead, so either form is valid TOML.
func tomlName(s string) string {
	if strings.ContainsRune(s, '\'') || strings.ContainsFunc(s, diag.Unsafe) {
		return tomlpos.BasicString(s)
	}
	return "'" + s + "'"
}

// tomlNames writes each name as tomlName does.
func tomlNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = tomlName(n)
	}
	return out
}
