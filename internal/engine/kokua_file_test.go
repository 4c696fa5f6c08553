package engine

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/agree"
)

// headerPattern is the regular expression kokuaHeader was before it was
// written out by hand; the tests hold the two to the same answers.
var headerPattern = regexp.MustCompile(`(?m)^[ \t]*(?:\[\[?[ \t]*"?(?:assistant|agents|reviewers|mcp|tools|security[ \t]*\.[ \t]*"?(?:auto_approval|never_auto_approve|locked_config_keys|confirm_tools))"?[ \t]*(?:[.\]]|\r?$)|(?:assistant|agents|reviewers|mcp|tools)[ \t]*[.=])`)

func headerDisagreement(s string) string {
	if got, want := kokuaHeader([]byte(s)), headerPattern.MatchString(s); got != want {
		return fmt.Sprintf("kokuaHeader says %v, the pattern %v", got, want)
	}
	return ""
}

// headerEdges are one-line and several-line files that start, or nearly
// start, one of Kokua's tables.
var headerEdges = []string{
	"", "\n", "[", "[[", "[]", "[assistant]", "[assistant", "[assistant\r", "[assistant\r\n", "[assistant\rx", "[assistant\n",
	"[assistant \t", "[ assistant ]", "[\tassistant\t.x]", "[[mcp.server]]", "[[ \"mcp\" ]]", "[\"agents\".x]", "[\"agents\"\"]",
	"[agents\"x", "[[[agents]]]", "[ [agents]", "[assistants]", "[assistan]", "[Assistant]", "[reviewers]", "[tools]", "[mcp]",
	"[mcpx]", "[security]", "[security.auto_approval]", "[security . \"never_auto_approve\"]", "[security.\"locked_config_keys\"\"",
	"[security.confirm_tools", "[security.confirm_tools\r", "[security.other]", "[security.auto_approvals]", "[\"security\".auto_approval]",
	"[security\t.\tauto_approval]", "[security.auto_approval.x]", "assistant = 1", "assistant.x = 1", "assistant\t.x", "assistant=",
	"assistant", "assistant x = 1", "assistants = 1", " \tagents = {}", "\"agents\" = 1", "tools.=", "mcp .", "security.auto_approval = 1",
	"x = 1\n[assistant]", "x = 1\r\n  [assistant]\r\n", "x = [\n[tools]", "# [assistant]", "x\n\n\nmcp=1", "\u00a0[assistant]",
	"\u2003assistant = 1", "\v[assistant]", "\f[assistant]", "\r[assistant]", "[assistant]\xff", "\xff\n[assistant", "[\u00a0assistant]",
	"[assistant\u00a0]", "[assistant\r\r", "[assistant\r ", "[assistant \r", "x\r[assistant]",
}

func TestKokuaHeaderAgreesOnEdges(t *testing.T) { agree.Inputs(t, headerEdges, headerDisagreement) }

// headerPieces are what generated lines are made of: the names of the
// pattern, near misses of them, and the punctuation and white space
// around them.
var headerPieces = []string{
	"[", "[[", "]", "]]", "\"", ".", "=", " ", "\t", "\r", "\n", "\r\n", "#", "x", "1",
	"assistant", "agents", "reviewers", "mcp", "tools", "security", "auto_approval", "never_auto_approve",
	"locked_config_keys", "confirm_tools", "assistan", "agentsx", "Tools", "securit", "confirm_tool",
	"\u00a0", "\u2003", "é", "\xff",
}

// generatedHeaders makes n files of one to three lines, each line most
// often a header of the pattern's shape with its pieces drawn at random.
func generatedHeaders(n int) []string {
	r := rand.New(rand.NewPCG(24, 2027))
	pick := func(options ...string) string { return options[r.IntN(len(options))] }
	line := func() string {
		if r.IntN(4) == 0 {
			var b strings.Builder
			for range r.IntN(8) {
				b.WriteString(pick(headerPieces...))
			}
			return b.String()
		}
		blank := func() string { return pick("", "", " ", "\t", " \t", "\u00a0") }
		quote := func() string { return pick("", "", "\"", "\"\"") }
		table := pick("assistant", "agents", "reviewers", "mcp", "tools", "assistan", "toolsx")
		if r.IntN(3) == 0 {
			return blank() + table + blank() + pick(".", "=", "", "x", ":")
		}
		if r.IntN(3) == 0 {
			table = "security" + blank() + pick(".", ".", "", "-") + blank() + quote() +
				pick("auto_approval", "never_auto_approve", "locked_config_keys", "confirm_tools", "other", "confirm_tool")
		}
		return blank() + pick("[", "[[", "[[[", "") + blank() + quote() + table + quote() + blank() +
			pick(".", "]", "", "\r", "\r\r", "x", " x", "=")
	}
	out := make([]string, 0, n)
	for len(out) < n {
		lines := make([]string, 1+r.IntN(3))
		for i := range lines {
			lines[i] = line()
		}
		out = append(out, strings.Join(lines, pick("\n", "\r\n", "\n\n")))
	}
	return out
}

func TestKokuaHeaderAgreesOnGenerated(t *testing.T) {
	inputs := generatedHeaders(20000)
	agree.Inputs(t, inputs, headerDisagreement)
	agree.Share(t, "Kokua table header", inputs, headerPattern, 2000)
}

func FuzzKokuaHeaderAgreesWithPattern(f *testing.F) { agree.Fuzz(f, headerDisagreement, headerEdges) }
