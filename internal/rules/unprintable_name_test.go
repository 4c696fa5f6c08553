package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/testing/hostile"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// runUnprintable runs unprintable-name alone over a config.
func runUnprintable(t *testing.T, doc string) []diag.Diagnostic {
	t.Helper()
	cfg, err := config.Load("config.toml", []byte(doc))
	if err != nil {
		t.Fatalf("not TOML: %v\n%s", err, doc)
	}
	p := &Pass{Input: &Input{ConfigFile: "config.toml", Config: cfg}, Rule: ByID("unprintable-name")}
	p.Rule.Check(p)
	return p.out
}

// namePlaces are the places a name can be written, each a config with
// prefix and the name as %[1]s (written as a TOML basic string) and the
// line the one finding must be on.
var namePlaces = []struct {
	what, prefix, doc string
	line              int
}{
	{"agent key, named by delegates_to and [assistant].agent", "", `[assistant]
agent = %[1]s

[agents.%[1]s]
delegates_to = [%[1]s, %[1]s]

[agents.%[1]s.tools]
available = ["time"]
`, 4},
	{"reviewer key, named by reviewers", "", `[security.auto_approval]
enabled = true
reviewers = [%[1]s]

[reviewers.%[1]s]
model = "anthropic:claude-haiku-4-5"
`, 5},
	{"MCP server name, named by available, resident and an entry", "", `[assistant.tools]
confirm = []
review = [%[1]s]

[agents.assistant.tools]
available = [%[1]s]
resident = [%[1]s]

[[mcp.server]]
name = %[1]s
url = "http://127.0.0.1:1/mcp"
`, 10},
	{"toolset only referenced, in available and resident", "", `[agents.assistant.tools]
available = ["time", %[1]s]
resident = [%[1]s]
`, 2},
	{"a tool in an approval entry", "fs.x", `[security]
never_auto_approve = [%[1]s]
`, 2},
}

// TestUnprintableNameEveryPlace: each name holding a rune printable.Unsafe
// reports (the hostile names of every output test, and an invisible,
// a non-ASCII space, a private-use and a tag character) gives exactly one
// finding in each place a name is written: at the definition when the
// file defines it, else at the first reference. The finding names the
// first such rune as U+XXXX, escapes the name, and carries nothing raw.
func TestUnprintableNameEveryPlace(t *testing.T) {
	names := append(hostile.Valid(), "zero\u200bwidth", "no\u00a0break", "private\ue000", "tag\U000e0041", "tab\tbed")
	for _, name := range names {
		var first rune
		for _, r := range name {
			if printable.Unsafe(r) {
				first = r
				break
			}
		}
		for _, place := range namePlaces {
			doc := fmt.Sprintf(place.doc, tomlpos.BasicString(place.prefix+name))
			got := runUnprintable(t, doc)
			if len(got) != 1 {
				t.Errorf("%q, %s: %d findings, want 1: %v\n%s", name, place.what, len(got), got, doc)
				continue
			}
			d := got[0]
			if d.Span.Start.Line != place.line {
				t.Errorf("%q, %s: reported at line %d, want %d", name, place.what, d.Span.Start.Line, place.line)
			}
			if want := fmt.Sprintf("%U", first); !strings.Contains(d.Message, want) {
				t.Errorf("%q, %s: the message does not name %s: %s", name, place.what, want, d.Message)
			}
			if !strings.Contains(d.Message, printable.Escape(name)) {
				t.Errorf("%q, %s: the message does not name it escaped: %s", name, place.what, d.Message)
			}
			if raw := hostile.Raw([]byte(d.Text() + d.Key)); raw != "" {
				t.Errorf("%q, %s: the finding carries %s", name, place.what, raw)
			}
		}
	}
}

// TestUnprintableNamePrintable: letters of other scripts, accents written
// raw, composed or as a combining mark, symbols and the ASCII space print
// as themselves and are never reported, in any place.
func TestUnprintableNamePrintable(t *testing.T) {
	// The joiners inside a Persian and a Devanagari word spell the word
	// (unseen): they are not reported.
	for _, name := range []string{"café", "cafe\u0301", "日本語", "données", "naïve", "δοκιμή", "emoji😀", "two words", `back\slash`, "it's",
		"\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0915\u094d\u200d\u0937"} {
		for _, place := range namePlaces {
			doc := fmt.Sprintf(place.doc, tomlpos.BasicString(place.prefix+name))
			if got := runUnprintable(t, doc); len(got) != 0 {
				t.Errorf("%q, %s: reported: %v", name, place.what, got)
			}
		}
	}
}

// TestUnprintableNameReferencesOnce: a name only referenced is reported
// once, at its first reference, with the lines of the others in a note;
// another unprintable rune in the same name is named in a note too.
func TestUnprintableNameReferencesOnce(t *testing.T) {
	got := runUnprintable(t, `[agents.a]
delegates_to = ["b"]

[agents.a.tools]
available = ["x\u202ey\u0007"]
resident = ["x\u202ey\u0007"]

[agents.b.tools]
available = ["x\u202ey\u0007", "x\u202ey\u0007"]
`)
	if len(got) != 1 {
		t.Fatalf("%d findings, want 1: %v", len(got), got)
	}
	d := got[0]
	if d.Span.Start.Line != 5 || d.Key != "[agents.a.tools].available" {
		t.Errorf("reported at line %d, key %s; want the first reference, line 5 of [agents.a.tools].available", d.Span.Start.Line, d.Key)
	}
	want := []string{
		"It reorders the text around it: in an editor, a diff or a terminal, a right-to-left override can make one name display as another.",
		"It also holds U+0007.",
		"The same toolset name is also written at lines 6 and 9.",
	}
	if strings.Join(d.Notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(d.Notes, "\n"), strings.Join(want, "\n"))
	}
}

// TestUnprintableNameJoiners: a zero-width joiner or non-joiner is part of
// a word only between letters of a script that writes them; anywhere else
// (a Latin name, the start or the end of a name, between two scripts) it
// hides a difference and is reported.
func TestUnprintableNameJoiners(t *testing.T) {
	for _, tt := range []struct {
		name   string
		report bool
	}{
		{"\u0645\u06cc\u200c\u062e\u0648", false}, // Persian, ZWNJ between letters
		{"\u0915\u094d\u200d\u0937", false},       // Devanagari, ZWJ after a virama
		{"ad\u200dmin", true},                     // Latin
		{"ad\u200cmin", true},
		{"\u200c\u0645\u06cc", true},       // at the start
		{"\u0645\u06cc\u200c", true},       // at the end
		{"\u0645\u200ca", true},            // between two scripts
		{"\u0645\u200c\u200c\u06cc", true}, // two in a row
	} {
		got := unseen(tt.name)
		if (len(got) > 0) != tt.report {
			t.Errorf("unseen(%+q) = %U, want reported: %v", tt.name, got, tt.report)
		}
	}
}
