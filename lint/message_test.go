package lint

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// firstLineMax is how long a message, the first line of a human finding,
// may be: it says what is wrong and why, and long lists and further
// consequences go to notes (issue 10).
const firstLineMax = 160

// quotedNameMax is how much of one quoted name counts toward firstLineMax:
// a name the user chose may be long, and the rule is about what the
// message adds around it.
const quotedNameMax = 40

// quotedName is a name as printable.Quote writes it: between single quotes,
// with quotes inside escaped, standing as a word of its own (so that the
// apostrophe of "agent's" does not open one).
var quotedName = regexp.MustCompile(`(^|[\s(\[,:=])'((?:[^'\\]|\\.)*)'`)

// messageLength is the length of a message in characters, each quoted
// name counted up to quotedNameMax characters.
func messageLength(msg string) int {
	n := utf8.RuneCountInString(msg)
	for _, m := range quotedName.FindAllStringSubmatch(msg, -1) {
		if name := utf8.RuneCountInString(m[2]); name > quotedNameMax {
			n -= name - quotedNameMax
		}
	}
	return n
}

func TestMessageLength(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want int
	}{
		{"plain", 5},
		{"agent 'x' is", 12},
		{"agent '" + strings.Repeat("a", 50) + "' is", 7 + 40 + 4},
		{"the agent's toolset '" + strings.Repeat("b", 45) + "'", 21 + 40 + 1},
		{`a 'quote\'d` + strings.Repeat("c", 40) + "' name", 3 + 40 + 6},
	} {
		if got := messageLength(c.msg); got != c.want {
			t.Errorf("messageLength(%q) = %d, want %d", c.msg, got, c.want)
		}
	}
}

// TestFirstLineLength lints every golden case and holds each finding's
// message, the first line the human format prints, to firstLineMax
// characters (quoted names counted up to quotedNameMax each), and each of
// its notes to a sentence of its own, since JSON, SARIF and the GitHub
// annotations join message and notes into one text.
func TestFirstLineLength(t *testing.T) {
	cases := goldenCases(t)
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	seen := 0
	for _, c := range cases {
		ds, _ := lintCaseFiles(t, c.dir)
		for _, d := range ds {
			seen++
			if n := messageLength(d.Message); n > firstLineMax {
				t.Errorf("%s: %s: the message is %d characters, more than %d; keep it to what and why, and move lists and further consequences to notes:\n%s",
					c.name, d.Rule, n, firstLineMax, d.Message)
			}
			if strings.Contains(d.Message, "\n") {
				t.Errorf("%s: %s: the message spans lines: %q", c.name, d.Rule, d.Message)
			}
			if len(d.Notes) > 0 && !endsSentence(d.Message) {
				t.Errorf("%s: %s: a message followed by notes should end its sentence: %q", c.name, d.Rule, d.Message)
			}
			for _, note := range d.Notes {
				if !startsSentence(note) || !endsSentence(note) || strings.Contains(note, "\n") {
					t.Errorf("%s: %s: note %q is not one sentence (a capital or a quoted name first, a period or question mark last)", c.name, d.Rule, note)
				}
				if !strings.Contains(d.Text(), note) {
					t.Errorf("%s: %s: the full text lacks the note %q", c.name, d.Rule, note)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("the golden cases report nothing")
	}
}

func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) || r == '\'' || r == '"' || r == '[' || r == '\\'
}

func endsSentence(s string) bool {
	return strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?")
}
