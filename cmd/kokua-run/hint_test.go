package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
)

// TestDecideDidYouMeanDoc (issue 38): docs/api.md's answer for a
// misspelt agent is what kokua-run decide --format json prints for the
// shipped policy (which POST /v1/decide answers byte for byte,
// TestServeIsDecide), did_you_mean included, with the decision denied
// and its exit code; the human format says it on stderr.
func TestDecideDidYouMeanDoc(t *testing.T) {
	root := golden.Root(t)
	cfg, err := os.ReadFile(filepath.Join(root, "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	pol := policytest.File(t, policytest.Compile(t, string(cfg)))
	doc, err := os.ReadFile(filepath.Join(root, "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- test: did_you_mean -->\n```json\n")
	want, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/api.md has no did_you_mean example")
	}
	code, out, stderr := clitest.Run(Main, "kokua-run", "", "decide", "--format", "json", pol, "reseacher", "web_search").Split()
	if out != want || code != cli.ExitDenied {
		t.Errorf("exit %d (%s):\n%s\nwant the page's\n%s", code, stderr, out, want)
	}
	code, _, stderr = clitest.Run(Main, "kokua-run", "", "decide", pol, "reseacher", "web_search").Split()
	if code != cli.ExitDenied || stderr != "kokua-run decide: the policy declares no agent 'reseacher': did you mean 'researcher'?\n" {
		t.Errorf("human: exit %d, stderr %q", code, stderr)
	}
}
