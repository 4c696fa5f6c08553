package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/similar"
)

// TestReadmeFixExample: the README's `kokua-lint --diff config.toml` is
// what the command prints, on stdout and stderr as a terminal shows them
// (the line of each fix, the diff, the embedded-manifest note), for the
// example config with tool-access.md's misspelled entry written bare,
// the same as the README's first example; it exits 0, since the fix
// leaves nothing, and writes nothing.
func TestReadmeFixExample(t *testing.T) {
	want := docExample(t, "README.md", "$ kokua-lint --diff config.toml")
	example, err := os.ReadFile(filepath.Join(root, "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(example), `"mcp.add_mcp_server", "config`, `"add_mcp_server", "config`, 1)
	if broken == string(example) {
		t.Fatal("examples/shipped.config.toml no longer holds the entry the README writes bare")
	}
	dir := files(t, map[string]string{"config.toml": broken})
	if got := runTranscript(t, dir, want+"$ echo $?\n"); got != want+"$ echo $?\n0\n" {
		t.Errorf("the README's --diff example differs from the output (or the exit is not 0):\n--- printed\n%s--- README\n%s", got, want)
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
