package lsp

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/testing/agree"
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
	agree.Inputs(t, suppressionLineEdges, suppressionLineDisagreement)
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
	g := agree.NewGen(2029)
	space := func() string { return g.Pieces(2, " ", " ", "\t", "\t", "\n", "\r", "\f", "\v", "\u00a0", "\u2003") }
	out := make([]string, 0, n)
	for len(out) < n {
		if g.IntN(4) == 0 {
			out = append(out, g.Pieces(11, suppressionLineAlphabet...))
			continue
		}
		s := space() + "#" + space() + "kokua-lint" + space() + ":" + space() + "ignore[" + g.Pick("", "a", "a, b", "\n") + "]" +
			g.Pick("", " why", "]", " why\r", " why\nnot", "\n")
		out = append(out, g.Mutate(s, suppressionLineAlphabet...))
	}
	return out
}

func TestSuppressionLineAgreesOnGenerated(t *testing.T) {
	inputs := generatedSuppressionLines(20000)
	agree.Inputs(t, inputs, suppressionLineDisagreement)
	agree.Share(t, "suppression line", inputs, suppressionLinePattern, 2000)
}

func FuzzSuppressionLineAgreesWithPattern(f *testing.F) {
	agree.Fuzz(f, suppressionLineDisagreement, suppressionLineEdges)
}

// TestSuppressionLineEnds: the suppression comment a quick fix writes
// ends its line as the document's lines end, so a CRLF file stays CRLF.
func TestSuppressionLineEnds(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		doc := "[agents.a]" + eol + "  x = 1" + eol
		f := suppression(newText(doc), diag.Diagnostic{Rule: "r", Span: diag.Span{Start: diag.Position{Line: 2, Column: 3, Offset: len("[agents.a]" + eol + "  ")}}})
		if len(f.edits) != 1 || f.edits[0].New != "  # kokua-lint: ignore[r] "+eol {
			t.Errorf("with %q line ends: %v", eol, f.edits)
		}
	}
}
