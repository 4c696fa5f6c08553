package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestReadmeFixExample: the README's `kokua-lint --diff config.toml` is
// what the command prints, in a terminal's order (the line of each fix on
// stderr, then the diff on stdout), for the example config with
// tool-access.md's misspelled entry, the same as the README's first
// example; it exits 0, since the fix leaves nothing, and writes nothing.
// The embedded-manifest note, which the README explains once for every
// run, is the one other line on stderr.
func TestReadmeFixExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```text\n$ kokua-lint --diff config.toml\n")
	want, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("the README has no kokua-lint --diff example")
	}
	example, err := os.ReadFile(filepath.Join(root, "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(example), `"mcp.add_mcp_server", "config`, `"add_mcp_server", "config`, 1)
	if broken == string(example) {
		t.Fatal("examples/shipped.config.toml no longer holds the entry the README writes bare")
	}
	dir := files(t, map[string]string{"config.toml": broken})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--diff", "config.toml")
	if r.Code != cli.ExitOK {
		t.Errorf("kokua-lint --diff exits %d, want 0:\n%s", r.Code, r.Stderr)
	}
	var fixes, other []string
	for _, line := range strings.SplitAfter(r.Stderr, "\n") {
		if strings.HasPrefix(line, "config.toml:") {
			fixes = append(fixes, line)
		} else if line != "" {
			other = append(other, line)
		}
	}
	if len(other) != 1 || !strings.HasPrefix(other[0], "kokua-lint: no --manifest given:") {
		t.Errorf("stderr holds more than the fixes and the embedded-manifest note: %q", other)
	}
	if got := strings.Join(fixes, "") + r.Stdout; got != want {
		t.Errorf("the README's --diff example differs from the output:\n--- printed\n%s--- README\n%s", got, want)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "config.toml")); err != nil || string(data) != broken {
		t.Errorf("--diff changed config.toml (%v)", err)
	}
}
