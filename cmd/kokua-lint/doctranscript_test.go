package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docExample is the ```text block of a page of the repository that opens
// with the line first (a "$ " command): the commands and what they print.
func docExample(t *testing.T, page, first string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, page))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "```text\n"+first+"\n")
	body, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatalf("%s has no example opening with %q", page, first)
	}
	return first + "\n" + body
}

// runTranscript runs the "$ " lines of a doc's example in dir, in
// process, and returns them with what each printed as a terminal shows
// it: standard output and standard error in the order they were
// written, both in full (issue 38: a page shows every line a command
// prints, its notes on stderr included). A line is a kokua-lint command
// (its words split at spaces), cp FROM TO, or echo $?.
func runTranscript(t *testing.T, dir, example string) string {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("NO_COLOR", "")
	var out bytes.Buffer
	code := 0
	for _, line := range strings.Split(example, "\n") {
		cmd, ok := strings.CutPrefix(line, "$ ")
		if !ok {
			continue
		}
		out.WriteString(line + "\n")
		args := strings.Fields(cmd)
		switch {
		case cmd == "echo $?":
			fmt.Fprintf(&out, "%d\n", code)
		case args[0] == "cp" && len(args) == 3:
			data, err := os.ReadFile(args[1])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(args[2], data, 0o600); err != nil {
				t.Fatal(err)
			}
		case args[0] == "kokua-lint":
			// One buffer for both streams, as a terminal is.
			code = Main(args, strings.NewReader(""), &out, &out)
		default:
			t.Fatalf("the example runs %q, which the test cannot", cmd)
		}
	}
	return out.String()
}

// TestReadmeLintExample: the README's first example is what `kokua-lint
// config.toml` prints, on stdout and stderr, for the shipped config with
// tool-access.md's misspelled entry: the embedded-manifest note, the
// finding, and the line that counts what a fix resolves.
func TestReadmeLintExample(t *testing.T) {
	want := docExample(t, "README.md", "$ kokua-lint config.toml")
	example, err := os.ReadFile(filepath.Join(root, "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(example), `"mcp.add_mcp_server", "config`, `"mcp.add_mcp_servr", "config`, 1)
	if broken == string(example) {
		t.Fatal("examples/shipped.config.toml no longer holds the entry the README misspells")
	}
	dir := files(t, map[string]string{"config.toml": broken})
	if got := runTranscript(t, dir, want); got != want {
		t.Errorf("the README's example differs from what kokua-lint prints:\n--- printed\n%s--- README\n%s", got, want)
	}
}

// TestOutputFormatsDoc keeps docs/output-formats.md's examples true: its
// human and github examples are what kokua-lint prints, on stdout and
// stderr, for testdata/formats/mixed-severities, the page's config.
func TestOutputFormatsDoc(t *testing.T) {
	for _, first := range []string{
		"$ kokua-lint --manifest manifest.json config.toml",
		"$ kokua-lint --format github --manifest manifest.json config.toml",
	} {
		want := docExample(t, filepath.Join("docs", "output-formats.md"), first)
		dir := files(t, nil)
		for _, name := range []string{"config.toml", "manifest.json"} {
			data, err := os.ReadFile(filepath.Join(root, "testdata", "formats", "mixed-severities", name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := runTranscript(t, dir, want); got != want {
			t.Errorf("docs/output-formats.md's example differs from what kokua-lint prints:\n--- printed\n%s--- page\n%s", got, want)
		}
	}
}
