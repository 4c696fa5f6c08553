package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotAnInput: an output is refused when it is an input however the
// path spells it, and only then.
func TestNotAnInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name string) {
		if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("config.toml")
	write("other.toml")
	if err := os.Symlink("config.toml", "link.toml"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link("config.toml", "hard.toml"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	stdinFile, err := os.Open("config.toml")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stdinFile.Close() })
	config := Input{What: "the config", Path: "config.toml"}
	for _, c := range []struct {
		name    string
		output  string
		inputs  []Input
		refused bool
	}{
		{"the same path", "config.toml", []Input{config}, true},
		{"another spelling", "sub/../config.toml", []Input{config}, true},
		{"an absolute path", filepath.Join(dir, "config.toml"), []Input{config}, true},
		{"a symlink to it", "link.toml", []Input{config}, true},
		{"an input that is the symlink", "config.toml", []Input{{What: "the config", Path: "link.toml"}}, true},
		{"a hard link to it", "hard.toml", []Input{config}, true},
		{"the second input", "config.toml", []Input{{What: "the manifest", Path: "other.toml"}, config}, true},
		{"standard input read from it", "config.toml", []Input{{What: "a config", Path: Stdin}}, true},
		{"another file", "other.toml", []Input{config}, false},
		{"a new file", "new.json", []Input{config}, false},
		{"no output", "", []Input{config}, false},
		{"an input not given", "config.toml", []Input{{What: "the manifest", Path: ""}}, false},
	} {
		err := NotAnInput("tool", "-o", c.output, stdinFile, c.inputs...)
		if (err != nil) != c.refused {
			t.Errorf("%s: %v; want refused %v", c.name, err, c.refused)
			continue
		}
		if err == nil {
			continue
		}
		var exit *Exit
		if !errors.As(err, &exit) || exit.Code != ExitUsage || !strings.HasPrefix(err.Error(), "tool: -o "+c.output+" is ") {
			t.Errorf("%s: %q; want a usage error naming the output", c.name, err)
		}
	}
	// Standard input that is no file (a pipe, a buffer) is no file to
	// compare with.
	if err := NotAnInput("tool", "-o", "config.toml", strings.NewReader("x"), Input{What: "a config", Path: Stdin}); err != nil {
		t.Errorf("standard input from a reader: %v", err)
	}
}

// TestWritableOutput: an output that exists and is not a regular file,
// through a symlink too, is a usage error decided from its path; a
// regular file, a file not there yet and standard output are not; and a
// write failure is ExitInternal, never ExitUsage.
func TestWritableOutput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		output, says string
	}{
		{dir, "it is a directory"},
		{link, "it is a directory"},
		{os.DevNull, "character device, not a regular file"},
		{file, ""},
		{filepath.Join(dir, "new.json"), ""},
		{filepath.Join(dir, "no-such-folder", "new.json"), ""},
		{Stdin, ""},
		{"", ""},
	} {
		err := WritableOutput("kokua-compile", "-o", c.output, false)
		var exit *Exit
		switch {
		case c.says == "" && err != nil:
			t.Errorf("-o %q: %v; want no refusal", c.output, err)
		case c.says != "" && (!errors.As(err, &exit) || exit.Code != ExitUsage ||
			!strings.HasPrefix(exit.Message, "kokua-compile: -o: cannot write "+c.output+": ") || !strings.Contains(exit.Message, c.says)):
			t.Errorf("-o %q: %v; want a usage error saying %q", c.output, err, c.says)
		}
	}
	var exit *Exit
	if err := WriteFailed("kokua-lint", errors.New("cannot write x.sarif: no space left on device")); !errors.As(err, &exit) ||
		exit.Code != ExitInternal || exit.Message != "kokua-lint: cannot write x.sarif: no space left on device" {
		t.Errorf("WriteFailed: %v", err)
	}
}
