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
