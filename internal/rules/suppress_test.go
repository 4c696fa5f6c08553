package rules

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/agree"
)

// suppressionPattern is the regular expression suppressionForm was before
// it was written out by hand; the tests hold the two to the same answers.
var suppressionPattern = regexp.MustCompile(`^#\s*kokua-lint\s*:\s*ignore\[([^\]]*)\]\s*(.*?)\s*$`)

// suppressionDisagreement says how suppressionForm and the pattern differ
// on text, or returns "".
func suppressionDisagreement(text string) string {
	ids, reason, ok := suppressionForm(text)
	m := suppressionPattern.FindStringSubmatch(text)
	switch {
	case ok != (m != nil):
		return fmt.Sprintf("suppressionForm matches: %v, the pattern: %v", ok, m != nil)
	case ok && (ids != m[1] || reason != m[2]):
		return fmt.Sprintf("suppressionForm reads %q and %q, the pattern %q and %q", ids, reason, m[1], m[2])
	}
	return ""
}

// suppressionEdges are suppression comments and near misses: white space
// \s takes and white space it does not (U+00A0, U+2003, the vertical
// tab), brackets, line breaks, and reasons with space around them.
var suppressionEdges = []string{
	"", "#", "# kokua-lint", "# kokua-lint:", "# kokua-lint: ignore[", "# kokua-lint: ignore[]", "#kokua-lint:ignore[a]b",
	"# kokua-lint: ignore[toml-syntax] because", "# kokua-lint : ignore[a, b] reason  ", "#\tkokua-lint\t:\tignore[a]\treason\t",
	"#\r\nkokua-lint\n:\fignore[a]\r\n reason \r\n", "# kokua-lint: ignore[a] two\nlines", "# kokua-lint: ignore[a] reason\n",
	"# kokua-lint: ignore[a]\n\nreason", "# kokua-lint: ignore[a\nb] reason", "# kokua-lint: ignore[a]] reason",
	"# kokua-lint: ignore[[a]] reason", "# kokua-lint: ignore[a] [b] reason", "# kokua-lint: ignore[a] reason ]",
	"# kokua-lint: ignore [a] reason", "# kokua-lint: Ignore[a] reason", "# Kokua-lint: ignore[a] reason",
	" # kokua-lint: ignore[a] reason", "## kokua-lint: ignore[a] reason", "# kokua-lint\u00a0: ignore[a] reason",
	"# kokua-lint:\u2003ignore[a] reason", "# kokua-lint: ignore[a]\u00a0reason\u2003", "# kokua-lint: ignore[a] reason\v",
	"# kokua-lint: ignore[a]\vreason", "# kokua-lint: ignore[a] réason é", "# kokua-lint: ignore[\xff] \xff \xff",
	"# kokua-lint: ignore[a] in\x00side", "# kokua-lint: ignore[a]    ", "# kokua-lint: ignore[a]\n", "# kokua-lint: ignore[a]\n\n",
	"# kokua-lint-x: ignore[a] reason", "# kokua-lin: ignore[a] reason", "# kokua-lint: ignore(a) reason",
}

func TestSuppressionFormAgreesOnEdges(t *testing.T) {
	agree.Inputs(t, suppressionEdges, suppressionDisagreement)
}

// suppressionAlphabet is what generated comments are made of.
var suppressionAlphabet = []string{
	"#", "kokua-lint", "kokua", "-", ":", "ignore[", "ignore", "[", "]", ",", " ", " ", "\t", "\r", "\n", "\f", "\v",
	"a", "toml-syntax", "why", "\u00a0", "\u2003", "é", "\xff",
}

// generatedSuppressions makes n comments: a well-formed one with each
// separator drawn from white space of every kind, mutated now and then,
// or pieces of the alphabet put together.
func generatedSuppressions(n int) []string {
	g := agree.NewGen(2028)
	space := func() string { return g.Pieces(2, " ", "\t", "\n", "\r", "\f", "\v", "\u00a0", "\u2003") }
	out := make([]string, 0, n)
	for len(out) < n {
		if g.IntN(4) == 0 {
			out = append(out, g.Pieces(11, suppressionAlphabet...))
			continue
		}
		s := "#" + space() + "kokua-lint" + space() + ":" + space() + "ignore[" + g.Pick("", "a", "a, b", "a]", "\n") + "]" +
			space() + g.Pick("", "why", "why not", "why\nnot", "é ]") + space()
		out = append(out, g.Mutate(s, suppressionAlphabet...))
	}
	return out
}

func TestSuppressionFormAgreesOnGenerated(t *testing.T) {
	inputs := generatedSuppressions(20000)
	agree.Inputs(t, inputs, suppressionDisagreement)
	agree.Share(t, "suppression comment", inputs, suppressionPattern, 2000)
}

func FuzzSuppressionFormAgreesWithPattern(f *testing.F) {
	agree.Fuzz(f, suppressionDisagreement, suppressionEdges)
}
