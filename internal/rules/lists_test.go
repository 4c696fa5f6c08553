package rules_test

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/lint"
)

// TestSuppressionListIsBounded (issue 40): a suppression without a reason
// that names a rule many times is told so with five of its names and a
// count of the rest, not the whole list, which once grew with the comment.
func TestSuppressionListIsBounded(t *testing.T) {
	ids := strings.Repeat("unknown-toolset,", 999) + "unknown-toolset"
	cfg := "# kokua-lint: ignore[" + ids + "]\n[agents.assistant.tools]\navailable = [\"web\"]\n"
	res := lint.Lint(lint.Source{Name: "config.toml", Data: []byte(cfg)}, lint.DefaultManifest())
	for _, d := range res.Diagnostics {
		if !strings.Contains(d.Message, "gives no reason") {
			continue
		}
		if !strings.Contains(d.Message, "unknown-toolset and 995 more gives no reason") || len(d.Message) > 300 {
			t.Errorf("the message is not bounded to five names and a count: %d bytes, %.300q", len(d.Message), d.Message)
		}
		return
	}
	t.Fatalf("no finding says the suppression gives no reason: %+v", res.Diagnostics)
}
