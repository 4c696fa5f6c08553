package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mtibben/confusables"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// runConfusable runs confusable-name alone over a config.
func runConfusable(t *testing.T, doc string) []diag.Diagnostic {
	t.Helper()
	cfg, err := config.Load("config.toml", []byte(doc))
	if err != nil {
		t.Fatalf("not TOML: %v\n%s", err, doc)
	}
	p := &Pass{Input: &Input{ConfigFile: "config.toml", Config: cfg}, Rule: ByID("confusable-name")}
	p.Rule.Check(p)
	return p.out
}

// agentsConfig is a config whose entry agent delegates to each name, each
// defined with a table of its own.
func agentsConfig(names ...string) string {
	var b strings.Builder
	b.WriteString("[agents.assistant]\ndelegates_to = [")
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(n))
	}
	b.WriteString("]\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\n[agents.%s.tools]\navailable = [\"time\"]\n", strconv.Quote(n))
	}
	return b.String()
}

// TestConfusableNames: which names of a file the rule reports, and why:
// a look-alike of another name by UTS #39 skeleton (Cyrillic and Greek
// letters, "1" for "l", "rn" for "m", a precomposed accent against a
// combining one), a word of two scripts; and which it leaves alone: one
// script each (Greek, Cyrillic, Japanese, Korean, accented Latin), words
// of different scripts apart, names a reader tells apart.
func TestConfusableNames(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  []string // each finding's message starts so
	}{
		{[]string{"assistant2", "аssistant2"}, []string{"agent name 'аssistant2' looks like agent name 'assistant2'"}},
		{[]string{"w\u03bfrker", "worker"}, []string{"agent name 'wοrker' looks like agent name 'worker'"}},
		{[]string{"асе", "ace"}, []string{"agent name 'ace' looks like agent name 'асе'"}},
		{[]string{"agent1", "agentl"}, []string{"agent name 'agentl' looks like agent name 'agent1'"}},
		{[]string{"modern", "modem"}, []string{"agent name 'modem' looks like agent name 'modern'"}},
		{[]string{"caf\u00e9", "cafe\u0301"}, []string{"agent name 'cafe\u0301' differs from agent name 'caf\u00e9' (line 4) only in Unicode normalization"}},
		{[]string{"pаypal"}, []string{"agent name 'pаypal' mixes Latin and Cyrillic letters in one word"}},
		{[]string{"data-pаypal"}, []string{"agent name 'data-pаypal' mixes Latin and Cyrillic letters in one word, 'pаypal'"}},
		{[]string{"αlpha"}, []string{"agent name 'αlpha' mixes Greek and Latin letters in one word"}},
		{[]string{"ελληνικά", "русский", "日本語テストです", "韓國어", "注音ㄅㄆ", "café", "naïve", "data_архив", "coder", "codes", "a1", "b2"}, nil},
	} {
		got := runConfusable(t, agentsConfig(c.names...))
		var msgs []string
		for _, d := range got {
			msgs = append(msgs, d.Message)
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: %d findings, want %d: %q", c.names, len(got), len(c.want), msgs)
			continue
		}
		for i, w := range c.want {
			if !strings.HasPrefix(msgs[i], w) {
				t.Errorf("%q: finding %d is %q, want it to start %q", c.names, i, msgs[i], w)
			}
		}
	}
}

// TestConfusableKinds: names are compared within their kind only (an
// agent and a reviewer may look alike: nothing takes one for the
// other), and an MCP server is compared with the toolsets the file
// writes in available and resident, with which it shares a namespace.
func TestConfusableKinds(t *testing.T) {
	doc := `[assistant.tools]
confirm = []
review = []

[agents.assistant.tools]
available = ["web", "time"]

[security]
never_auto_approve = []

[security.auto_approval]
enabled = true
reviewers = ["assistant"]

[reviewers."аssistant"]
model = "anthropic:claude-haiku-4-5"

[reviewers.assistant]
model = "anthropic:claude-haiku-4-5"

[[mcp.server]]
name = "wеb"
url = "http://127.0.0.1:1/mcp"
`
	got := runConfusable(t, doc)
	var msgs []string
	for _, d := range got {
		msgs = append(msgs, fmt.Sprintf("%d: %s", d.Span.Start.Line, d.Message))
	}
	want := []string{
		"15: reviewer name 'аssistant' looks like reviewer name 'assistant' (line 18)",
		"22: MCP server name 'wеb' looks like toolset name 'web' (line 6)",
	}
	if len(msgs) != len(want) {
		t.Fatalf("findings %q, want %q", msgs, want)
	}
	for i := range want {
		if !strings.HasPrefix(msgs[i], want[i]) {
			t.Errorf("finding %q, want it to start %q", msgs[i], want[i])
		}
	}
}

// homoglyphs are Latin letters and a letter of another script drawn
// like each (UTS #39's confusables.txt maps each to the Latin one).
var homoglyphs = map[rune][]rune{
	'a': {'а'}, 'c': {'с'}, 'e': {'е'}, 'o': {'о', 'ο'}, 'p': {'р', 'ρ'}, 'x': {'х'}, 'y': {'у'},
	'i': {'і'}, 's': {'ѕ'}, 'j': {'ј'}, 'h': {'һ'}, 'v': {'ν'},
}

// TestConfusableGenerated (property): in generated files of Latin agent
// names, a name made from another by putting a homoglyph of another
// script for one of its letters is reported, against the original,
// whichever of the two the file writes first, and nothing else is: the
// original names differ from one another by letters a reader sees.
func TestConfusableGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 4))
	letters := []rune("acdeghiklmnopstuvxy")
	for round := range 200 {
		seen := map[string]bool{"assistant": true}
		var names []string
		for len(names) < 1+rng.IntN(6) {
			var b strings.Builder
			for range 3 + rng.IntN(6) {
				b.WriteRune(letters[rng.IntN(len(letters))])
			}
			// Names a reader tells apart: no two with one skeleton.
			if n := b.String(); !seen[n] && !slices.ContainsFunc(names, func(o string) bool { return skeletonEqual(o, n) }) {
				seen[n] = true
				names = append(names, n)
			}
		}
		original := names[rng.IntN(len(names))]
		runes := []rune(original)
		var at []int
		for i, r := range runes {
			if homoglyphs[r] != nil {
				at = append(at, i)
			}
		}
		fake := ""
		if len(at) > 0 {
			i := at[rng.IntN(len(at))]
			runes[i] = homoglyphs[runes[i]][rng.IntN(len(homoglyphs[runes[i]]))]
			fake = string(runes)
		}
		all := slices.Clone(names)
		if fake != "" {
			all = append(all, fake)
		}
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		got := runConfusable(t, agentsConfig(all...))
		switch {
		case fake == "" && len(got) != 0:
			t.Errorf("round %d: %q: %d findings, want none: %v", round, all, len(got), got)
		case fake != "" && len(got) != 1:
			t.Errorf("round %d: %q: %d findings, want 1 for %q: %v", round, all, len(got), fake, got)
		case fake != "":
			if want := "agent name " + printable.Quote(fake) + " looks like agent name " + printable.Quote(original); !strings.HasPrefix(got[0].Message, want) {
				t.Errorf("round %d: %q, want it to start %q", round, got[0].Message, want)
			}
		}
	}
}

func skeletonEqual(a, b string) bool {
	return confusables.Skeleton(a) == confusables.Skeleton(b)
}
