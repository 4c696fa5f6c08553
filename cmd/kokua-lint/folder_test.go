package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestLintFolder (issue 38): kokua-lint DIR lints the Kokua configs below
// DIR, in subfolders too and in lexical order, and skips without a word
// the TOML files that hold none of Kokua's tables (another program's
// config.toml, pyproject.toml, a policy test file) and hidden folders; the
// exit code is that of the configs it found. A folder with no Kokua
// config is an input that cannot be read: its line on stderr, exit 2,
// the other inputs still linted.
func TestLintFolder(t *testing.T) {
	dir := files(t, map[string]string{
		"config.toml":             shipped(t),
		"deploy/config.toml":      withError(t),
		"deploy/kokua.test.toml":  "[[expect]]\nname = \"n\"\nagent = \"coder\"\ntool = \"web\"\ndecision = \"unavailable\"\n",
		".cargo/config.toml":      "[build]\ntarget = \"x\"\n",
		"rust/.cargo/config.toml": withError(t),
		"rust/Cargo.toml":         "[package]\nname = \"x\"\n",
		"pyproject.toml":          "[tool.ruff]\nline-length = 100\n",
		"notes.txt":               withError(t),
		"empty/README":            "",
	})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "json", ".")
	wantCode(t, r, cli.ExitFindings)
	if !strings.Contains(r.Stdout, `"file": "deploy/config.toml"`) || strings.Count(r.Stdout, `"rule": `) != 1 {
		t.Errorf("kokua-lint . should report deploy/config.toml's one error and nothing else:\n%s", r.Stdout)
	}
	if r.Stderr != "" {
		t.Errorf("skipped files are skipped without a word; stderr %q", r.Stderr)
	}
	// The same as naming the two configs.
	named := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "json", "config.toml", "deploy/config.toml")
	if named.Stdout != r.Stdout || named.Code != r.Code {
		t.Errorf("kokua-lint . differs from naming its configs:\n%s\n%s", r.Stdout, named.Stdout)
	}
	if err := os.Remove(filepath.Join(dir, "deploy", "config.toml")); err != nil {
		t.Fatal(err)
	}
	// What remains is clean: exit 0.
	wantCode(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--fail-on", "warning", "."), cli.ExitOK)
	// Folders with no Kokua config.
	for _, folder := range []string{"empty", "deploy", "rust"} {
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", folder, "config.toml")
		want := "kokua-lint: " + folder + " is a folder with no Kokua config below it: "
		if r.Code != cli.ExitUsage || !strings.HasPrefix(r.Stderr, want) {
			t.Errorf("kokua-lint %s config.toml: exit %d, stderr %q; want 2 and a line starting %q", folder, r.Code, r.Stderr, want)
		}
	}
}
