package lsp

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// suppressionLinePattern is the regular expression suppressionLine was
// before it was written out by hand; the tests hold the two to the same
// answers and the same offsets.
var suppressionLinePattern = regexp.MustCompile(`^(\s*#\s*kokua-lint\s*:\s*ignore\[)([^\]]*)(\].*)$`)

// suppressionLineDisagreement says how suppressionLine and the pattern
// differ on s, comparing the offsets of every group, or returns "".
func suppressionLineDisagreement(s string) string {
	start, end, ok := suppressionLine(s)
	want := suppressionLinePattern.FindStringSubmatchIndex(s)
	if !ok {
		if want != nil {
			return fmt.Sprintf("suppressionLine does not match, the pattern does at %v", want)
		}
		return ""
	}
	// The groups: the whole line, the prefix up to the bracket, the
	// IDs, and the closing bracket with the rest of the line.
	got := []int{0, len(s), 0, start, start, end, end, len(s)}
	if !slices.Equal(got, want) {
		return fmt.Sprintf("suppressionLine matches at %v, the pattern at %v", got, want)
	}
	return ""
}

// suppressionLineEdges are suppression comments and near misses: white
// space \s takes and white space it does not (U+00A0, U+2003, the
// vertical tab), indentation, brackets and line breaks.
var suppressionLineEdges = []string{
	"", "#", "# kokua-lint: ignore[", "# kokua-lint: ignore[]", "# kokua-lint: ignore[a]", "  # kokua-lint: ignore[a] why",
	"\t#kokua-lint:ignore[a,b]", "\r\n# kokua-lint: ignore[a]", "# kokua-lint: ignore[a]\r", "# kokua-lint: ignore[a] why\n",
	"# kokua-lint: ignore[a\nb] why", "# kokua-lint: ignore[a]]", "# kokua-lint: ignore[[a]", "# kokua-lint: ignore [a]",
	"# kokua-lint : ignore[a]", "#\fkokua-lint\f:\fignore[a]", "\v# kokua-lint: ignore[a]", "# kokua-lint:\vignore[a]",
	"\u00a0# kokua-lint: ignore[a]", "# kokua-lint:\u2003ignore[a]", "# kokua-lint: ignore[é] \xff", "# kokua-lint: ignore(a)",
	"x # kokua-lint: ignore[a]", "## kokua-lint: ignore[a]", "# Kokua-lint: ignore[a]", "# kokua-lint: ignore[a] ]\n",
}

func TestSuppressionLineAgreesOnEdges(t *testing.T) {
	for _, s := range suppressionLineEdges {
		if d := suppressionLineDisagreement(s); d != "" {
			t.Errorf("%q: %s", s, d)
		}
	}
}

// suppressionLineAlphabet is what generated lines are made of.
var suppressionLineAlphabet = []string{
	"#", "kokua-lint", "kokua", "-", ":", "ignore[", "ignore", "[", "]", ",", " ", "\t", "\r", "\n", "\f", "\v",
	"a", "toml-syntax", "why", "\u00a0", "\u2003", "é", "\xff",
}

// generatedSuppressionLines makes n lines: a well-formed suppression with
// white space of every kind between its parts, mutated now and then, or
// pieces of the alphabet put together.
func generatedSuppressionLines(n int) []string {
	r := rand.New(rand.NewPCG(24, 2029))
	pick := func(options ...string) string { return options[r.IntN(len(options))] }
	space := func() string {
		var b strings.Builder
		for range r.IntN(3) {
			b.WriteString(pick(" ", " ", "\t", "\t", "\n", "\r", "\f", "\v", "\u00a0", "\u2003"))
		}
		return b.String()
	}
	out := make([]string, 0, n)
	for len(out) < n {
		if r.IntN(4) == 0 {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(pick(suppressionLineAlphabet...))
			}
			out = append(out, b.String())
			continue
		}
		s := space() + "#" + space() + "kokua-lint" + space() + ":" + space() + "ignore[" + pick("", "a", "a, b", "\n") + "]" +
			pick("", " why", "]", " why\r", " why\nnot", "\n")
		for r.IntN(3) == 0 {
			at := r.IntN(len(s) + 1)
			s = s[:at] + pick(suppressionLineAlphabet...) + s[min(at+r.IntN(2), len(s)):]
		}
		out = append(out, s)
	}
	return out
}

func TestSuppressionLineAgreesOnGenerated(t *testing.T) {
	matched := 0
	for _, s := range generatedSuppressionLines(20000) {
		if d := suppressionLineDisagreement(s); d != "" {
			t.Errorf("%q: %s", s, d)
		}
		if suppressionLinePattern.MatchString(s) {
			matched++
		}
	}
	// Both answers must be common for the comparison to mean something.
	if matched < 2000 || matched > 18000 {
		t.Errorf("the pattern matched %d of 20000 generated lines", matched)
	}
}

func FuzzSuppressionLineAgreesWithPattern(f *testing.F) {
	for _, s := range suppressionLineEdges {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := suppressionLineDisagreement(s); d != "" {
			t.Errorf("%q: %s", s, d)
		}
	})
}
