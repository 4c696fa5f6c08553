package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestWrongFiles (issue 38): the files a new user gives by mistake are
// named for what they are, and nothing advises overwriting them.
// kokua-lint of another program's config.toml, an empty file and a policy
// test file each exit 1 with a no-agents finding that says what the file
// is and no `kokua config init --force`; --manifest (in lint, migrate and
// lsp's setup alike, through cli.Manifest) given a Kokua config or a
// compiled policy is a usage error, exit 2, that says which it is.
func TestWrongFiles(t *testing.T) {
	dir := files(t, map[string]string{
		"cargo/config.toml": "[build]\ntarget = \"x86_64-unknown-linux-gnu\"\n",
		"empty.toml":        "",
		"kokua.test.toml":   "[[expect]]\nname = \"n\"\nagent = \"coder\"\ntool = \"web\"\ndecision = \"unavailable\"\n",
		"config.toml":       shipped(t),
		"policy.json":       `{"policy_version": 1, "agents": {}}`,
	})
	for _, c := range []struct{ file, says string }{
		{"cargo/config.toml", "the file holds none of Kokua's tables (it has [build])"},
		{"empty.toml", "the file is empty"},
		{"kokua.test.toml", "this is a policy test file"},
	} {
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", c.file)
		if r.Code != cli.ExitFindings || !strings.Contains(r.Stdout, c.says) || !strings.Contains(r.Stdout, "[no-agents]") {
			t.Errorf("%s: exit %d, stdout %q; want 1 and a no-agents finding saying %q", c.file, r.Code, r.Stdout, c.says)
		}
		if strings.Contains(r.Stdout, "--force") || strings.Contains(r.Stdout, "overwrite") {
			t.Errorf("%s: the output advises overwriting the file:\n%s", c.file, r.Stdout)
		}
	}
	for _, c := range []struct{ file, is string }{{"config.toml", "a Kokua config"}, {"policy.json", "a compiled policy"}} {
		for _, args := range [][]string{
			{"--manifest", c.file, "config.toml"},
			{"migrate", "--manifest", c.file, "config.toml"},
		} {
			r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", args...)
			want := "kokua-lint: " + c.file + ", given as the manifest, is " + c.is + ", not a registry manifest: "
			if r.Code != cli.ExitUsage || r.Stdout != "" || !strings.HasPrefix(r.Stderr, want) || strings.Count(r.Stderr, "\n") != 1 {
				t.Errorf("%q: exit %d, stderr %q; want 2 and one line starting %q", args, r.Code, r.Stderr, want)
			}
		}
	}
	// docs/manifest.md shows the line for a compiled policy as printed.
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--manifest", "policy.json", "config.toml")
	page, err := os.ReadFile(filepath.Join(root, "docs", "manifest.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "```text\n"+r.Stderr+"```\n") {
		t.Errorf("docs/manifest.md does not show the line --manifest policy.json prints: %q", r.Stderr)
	}
	// The file a manifest should be is still read as one.
	r = clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "manifest")
	m := files(t, map[string]string{"install.json": r.Stdout})
	if r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--manifest", filepath.Join(m, "install.json"), "config.toml"); r.Code != cli.ExitOK {
		t.Errorf("--manifest install.json: exit %d: %s", r.Code, r.Stderr)
	}
}
