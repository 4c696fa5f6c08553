package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// fixable is a config with one safe fix (a bare tool name with one home,
// qualified), one unsafe fix (an unknown toolset in available with one
// close name) and one choice (an entry with two close names).
const fixable = `[assistant.tools]
confirm = ["mcp.add_mcp_servr"]
review = ["run_command"]

[agents.assistant.tools]
available = ["mcp", "compute", "tme"]
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func readConfig(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestFix: --fix makes the safe fix in place and reports what remains
// (exit 1); --unsafe-fixes makes the unsafe fix and the help line's
// choice too, after which nothing remains (exit 0); --diff prints the
// change and writes nothing; a config from standard input is written to
// standard output, the findings to standard error.
func TestFix(t *testing.T) {
	safe := strings.Replace(fixable, `"run_command"`, `"compute.run_command"`, 1)
	all := strings.NewReplacer(`"run_command"`, `"compute.run_command"`, `"tme"`, `"time"`, `"mcp.add_mcp_servr"`, `"mcp.add_mcp_server"`).Replace(fixable)

	t.Run("safe in place", func(t *testing.T) {
		path := writeConfig(t, fixable)
		code, stdout, stderr := clitest.Run(Main, "kokua-lint", "", "--fix", path).Split()
		if code != 1 || readConfig(t, path) != safe {
			t.Fatalf("exit %d, config:\n%s\nwant exit 1 and:\n%s\nstderr: %s", code, readConfig(t, path), safe, stderr)
		}
		if !strings.Contains(stderr, "fixed entry-shape: Write \"compute.run_command\"") {
			t.Errorf("stderr should name the fix made: %s", stderr)
		}
		if strings.Contains(stdout, "entry-shape") || !strings.Contains(stdout, "[unknown-toolset]") || !strings.Contains(stdout, "[dead-entry]") {
			t.Errorf("stdout should report what remains, the unsafe fix and the choice: %s", stdout)
		}
		if code, _, _ := clitest.Run(Main, "kokua-lint", "", "--fix", path).Split(); code != 1 || readConfig(t, path) != safe {
			t.Errorf("a second --fix changed the config or its exit (%d)", code)
		}
	})
	t.Run("unsafe in place", func(t *testing.T) {
		path := writeConfig(t, fixable)
		code, stdout, stderr := clitest.Run(Main, "kokua-lint", "", "--fix", "--unsafe-fixes", path).Split()
		if code != 0 || readConfig(t, path) != all {
			t.Fatalf("exit %d, config:\n%s\nwant exit 0 and:\n%s\nstdout: %s\nstderr: %s", code, readConfig(t, path), all, stdout, stderr)
		}
	})
	t.Run("diff writes nothing", func(t *testing.T) {
		path := writeConfig(t, fixable)
		code, stdout, stderr := clitest.Run(Main, "kokua-lint", "", "--diff", path).Split()
		if code != 1 || readConfig(t, path) != fixable {
			t.Fatalf("exit %d (want 1), and the config must stay as it was:\n%s", code, readConfig(t, path))
		}
		if !strings.Contains(stdout, "-review = [\"run_command\"]\n+review = [\"compute.run_command\"]\n") {
			t.Errorf("stdout should be the diff: %s", stdout)
		}
		if !strings.Contains(stderr, "would fix entry-shape") || !strings.Contains(stderr, "[unknown-toolset]") {
			t.Errorf("stderr should say what would be fixed and what remains: %s", stderr)
		}
	})
	t.Run("diff of several, one missing", func(t *testing.T) {
		path := writeConfig(t, fixable)
		missing := filepath.Join(filepath.Dir(path), "nosuch.toml")
		code, stdout, stderr := clitest.Run(Main, "kokua-lint", "", "--diff", missing, path).Split()
		if code != 2 || readConfig(t, path) != fixable {
			t.Fatalf("exit %d (want 2, a file could not be read), and the config must stay as it was:\n%s", code, readConfig(t, path))
		}
		if !strings.Contains(stdout, "+review = [\"compute.run_command\"]\n") {
			t.Errorf("stdout should be the readable config's diff: %s", stdout)
		}
		if !strings.Contains(stderr, "cannot read "+missing) || !strings.Contains(stderr, "[unknown-toolset]") {
			t.Errorf("stderr should name the missing file and what remains in the other: %s", stderr)
		}
	})
	t.Run("standard input", func(t *testing.T) {
		code, stdout, stderr := clitest.Run(Main, "kokua-lint", fixable, "--fix", "-").Split()
		if code != 1 || stdout != safe {
			t.Fatalf("exit %d, stdout:\n%s\nwant exit 1 and the fixed config", code, stdout)
		}
		if !strings.Contains(stderr, "[unknown-toolset]") {
			t.Errorf("what remains goes to stderr: %s", stderr)
		}
	})
	t.Run("clean config", func(t *testing.T) {
		path := writeConfig(t, all)
		if code, stdout, stderr := clitest.Run(Main, "kokua-lint", "", "--fix", path).Split(); code != 0 || stderr != "" && !strings.Contains(stderr, "no --manifest") || readConfig(t, path) != all {
			t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	})
}

// TestFixRefuses: --unsafe-fixes alone, a --fix of the manifest itself
// and of a path that is not a regular file are usage errors that write
// nothing.
func TestFixRefuses(t *testing.T) {
	path := writeConfig(t, fixable)
	for _, c := range []struct {
		name string
		args []string
		says string
	}{
		{"unsafe-fixes alone", []string{"--unsafe-fixes", path}, "--unsafe-fixes goes with --fix or --diff"},
		{"the manifest", []string{"--fix", "--manifest", path, path}, "--fix"},
		{"a folder", []string{"--fix", filepath.Dir(path)}, "it is a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := clitest.Run(Main, "kokua-lint", "", c.args...).Split()
			if code != 2 || !strings.Contains(stderr, c.says) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, c.says)
			}
			if readConfig(t, path) != fixable {
				t.Errorf("the config was changed")
			}
		})
	}
}

// TestFixHint: a human report ends, on stderr, with how many findings
// --fix fixes and how many only --unsafe-fixes does, saying that those
// can widen an agent's power; after --fix, only the unsafe ones left are
// counted; a report with no fix, and every format for programs, says
// nothing of it.
func TestFixHint(t *testing.T) {
	shipped, err := os.ReadFile(filepath.Join(root, "examples", "shipped.config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(from, to string) string {
		t.Helper()
		out := strings.Replace(string(shipped), from, to, 1)
		if out == string(shipped) {
			t.Fatalf("the shipped config no longer holds %q", from)
		}
		return out
	}
	// A bare tool name has one safe fix; a name close to two tools has
	// two fixes, which only --unsafe-fixes chooses between.
	safe := edit(`"mcp.add_mcp_server", "config`, `"add_mcp_server", "config`)
	unsafe := edit(`"mcp.add_mcp_server", "config`, `"mcp.add_mcp_servr", "config`)
	both := strings.Replace(unsafe, `"compute.execute_python"`, `"execute_python"`, 1)
	const widen = "which can widen what an agent may do"
	for _, c := range []struct {
		name, config string
		args         []string
		want         string
	}{
		{"safe", safe, nil, "kokua-lint: --fix fixes 1 finding (--diff shows them without writing)\n"},
		{"unsafe", unsafe, nil, "kokua-lint: --fix --unsafe-fixes fixes 1 finding, " + widen + " (--diff --unsafe-fixes shows them without writing)\n"},
		{"both", both, nil, "kokua-lint: --fix fixes 1 finding, and --fix --unsafe-fixes 1 more, " + widen + " (--diff shows them without writing)\n"},
		{"unsafe left after --fix", both, []string{"--fix"}, "kokua-lint: --unsafe-fixes would fix 1 finding more, " + widen + " (--diff --unsafe-fixes shows them without writing)\n"},
		{"nothing left after --unsafe-fixes", both, []string{"--fix", "--unsafe-fixes"}, ""},
		{"no fix", string(shipped), nil, ""},
		{"json", both, []string{"--format", "json"}, ""},
		{"github", both, []string{"--format", "github"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := files(t, map[string]string{"config.toml": c.config})
			r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", append(c.args, "config.toml")...)
			var hint string
			for _, line := range strings.SplitAfter(r.Stderr, "\n") {
				if strings.Contains(line, "--fix") || strings.Contains(line, "--unsafe-fixes") {
					if !strings.HasPrefix(line, "config.toml:") { // a line of a fix made
						hint += line
					}
				}
			}
			if hint != c.want {
				t.Errorf("kokua-lint %q: the hint is %q, want %q\n(stderr %q)", c.args, hint, c.want, r.Stderr)
			}
		})
	}
}
