package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/similar"
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

// TestReadmeSaysWhyTheHelpNamesOne (issue 21): the README's first example
// shows two close names in its note and then names one in its help: line;
// the text after it says why (the first is the closest), and that holds:
// the one named is the first of the note and the closer of the two.
func TestReadmeSaysWhyTheHelpNamesOne(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```text\n$ kokua-lint config.toml\n")
	example, after, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("the README has no kokua-lint config.toml example")
	}
	note := regexp.MustCompile(`note: Did you mean '([^']+)' or '([^']+)'\?`).FindStringSubmatch(example)
	help := regexp.MustCompile(`help: write '[^'.]+\.([^']+)'`).FindStringSubmatch(example)
	typo := regexp.MustCompile(`'[^'.]+\.([^']+)' names no tool`).FindStringSubmatch(example)
	if note == nil || help == nil || typo == nil {
		t.Fatalf("the example no longer shows two candidates and names one:\n%s", example)
	}
	if help[1] != note[1] || similar.Ratio(typo[1], note[1]) <= similar.Ratio(typo[1], note[2]) {
		t.Errorf("the help: line names %q, not the closest of %q and %q to %q", help[1], note[1], note[2], typo[1])
	}
	paragraph, _, _ := strings.Cut(strings.TrimPrefix(after, "\n\n"), "\n\n")
	if !strings.Contains(paragraph, "names the first because it is the\nclosest") || !strings.Contains(paragraph, "`"+note[1]+"`") {
		t.Errorf("the paragraph after the example does not say why the help: line names %q:\n%s", note[1], paragraph)
	}
}
