package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// TestRisks: kokua-compile risks of a config and of the policy compiled
// from it list the same paths (the places of a policy name the config it
// records, with the line and column of approval entries only); usage
// errors exit 2 with one line.
func TestRisks(t *testing.T) {
	root := golden.Root(t)
	cfg := filepath.Join(root, "testdata", "risks", "web-to-shell", "config.toml")
	pol := compileTo(t, cfg, "config.toml.json")
	want, err := os.ReadFile(filepath.Join(root, "testdata", "risks", "web-to-shell", "want.txt"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := clitest.RunIn(t, Main, "kokua-compile", filepath.Dir(cfg), nil, "", "risks", "config.toml").Split()
	if code != cli.ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// The human report names the file as given on its first line only.
	body := func(s string) string { _, rest, _ := strings.Cut(s, "\n"); return rest }
	if body(out) != body(string(want)) {
		t.Errorf("risks of the config differs from want.txt:\n%s", out)
	}
	// A policy records the positions of approval entries only (docs/diff.md).
	noPos := regexp.MustCompile(`:[0-9]+:[0-9]+ `)
	code, fromPolicy, stderr := clitest.Run(Main, "kokua-compile", "", "risks", pol).Split()
	if code != cli.ExitOK || noPos.ReplaceAllString(body(fromPolicy), " ") != noPos.ReplaceAllString(body(string(want)), " ") {
		t.Errorf("risks of the policy: exit %d (%s):\n%s", code, stderr, fromPolicy)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"risks"}, "name exactly one config or compiled policy"},
		{[]string{"risks", cfg, cfg}, "name exactly one config or compiled policy"},
		{[]string{"risks", "--format", "dot", cfg}, `--format takes human, markdown or json, not "dot"`},
		{[]string{"risks", filepath.Join(root, "nope.toml")}, "nope.toml"},
	} {
		code, _, stderr := clitest.Run(Main, "kokua-compile", "", c.args...).Split()
		if code != cli.ExitUsage || !strings.Contains(stderr, c.msg) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want a usage error saying %q", c.args, code, stderr, c.msg)
		}
	}
}

// TestRisksDoc holds docs/risks.md's example to its golden file.
func TestRisksDoc(t *testing.T) {
	root := golden.Root(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "risks.md"))
	if err != nil {
		t.Fatal(err)
	}
	if golden.DocBlocks(t, root, doc, "docs/risks.md") == 0 {
		t.Error("docs/risks.md has no tested block")
	}
}
