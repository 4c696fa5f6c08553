package rules

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/kokua-policy/kokua-policy/internal/english"
	"github.com/kokua-policy/kokua-policy/internal/printable"
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
func q(s string) string { return printable.Quote(s) }

// maxListed is how many names a list in a finding (a note, a message, a
// suggestion) shows; the rest are counted, "and 2,997 more", so that no
// finding grows with the config and n findings cost n times a constant
// (issue 18: 3,000 unknown delegates once wrote 3,000 names each).
const maxListed = english.MaxNames

// listed writes items as english.Names does: the first maxListed, each
// through show, joined by ", " with last ("and", "or") before the final
// one, and a count of the rest.
func listed(items []string, show func(string) string, last string) string {
	return english.Names(items, last, show)
}

// plain shows an item as it is, for lists of text that is not a name
// from the config (line numbers, code points).
func plain(s string) string { return s }

// quoteAll quotes names and joins them with ", ", bounded as listed does.
func quoteAll(names []string) string { return listed(names, q, "") }

// orList quotes names and joins them as "'a', 'b' or 'c'", bounded as
// listed does.
func orList(names []string) string { return listed(names, q, "or") }

// andList quotes names and joins them as "'a', 'b' and 'c'", bounded as
// listed does.
func andList(names []string) string { return listed(names, q, "and") }

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

// normalizationNote says, when a close match offered for a name is the
// same text in another Unicode normalization ("café" with é as one
// character, and as e and a combining accent), that the two differ only
// there and how each is written; otherwise it returns "". Without it the
// message would seem to suggest the very name written. Kokua compares
// names as written (a TOML key, a Python string), never normalized, so
// the two are different names.
func normalizationNote(written string, matches []string) string {
	for _, m := range matches {
		if m != written && norm.NFC.String(m) == norm.NFC.String(written) {
			return fmt.Sprintf("%s and %s differ only in Unicode normalization: the name written here is %s, the one suggested %s; "+
				"Kokua compares names as written, so they are different names.",
				q(written), q(m), strconv.QuoteToASCII(written), strconv.QuoteToASCII(m))
		}
	}
	return ""
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
	if strings.ContainsRune(s, '\'') || strings.ContainsFunc(s, printable.Unsafe) {
		return tomlpos.BasicString(s)
	}
	return "'" + s + "'"
}
