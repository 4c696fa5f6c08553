//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/testing/hostile"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// hostileConfig is a config whose agent names, toolset names and MCP
// server names are the hostile names, written as TOML escapes so that the
// file is valid TOML and the names read from it hold the raw characters.
func hostileConfig() string {
	var b strings.Builder
	b.WriteString("[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant.tools]\navailable = [\"memory\"")
	for _, n := range hostile.Valid() {
		b.WriteString(", " + tomlpos.BasicString(n))
	}
	b.WriteString("]\n")
	for _, n := range hostile.Valid() {
		fmt.Fprintf(&b, "\n[agents.%s.tools]\navailable = [%s]\n", tomlpos.BasicString(n), tomlpos.BasicString(n+"x"))
		fmt.Fprintf(&b, "\n[[mcp.server]]\nname = %s\nurl = \"http://127.0.0.1:1/mcp\"\n", tomlpos.BasicString(n))
	}
	return b.String()
}

// hostileManifest is the default manifest with its first toolset and its
// first tool renamed to a hostile name, which the manifest reader refuses.
func hostileManifest(name string) string {
	doc := string(manifest.DefaultManifest())
	i := strings.Index(doc, `"name": "`)
	j := i + strings.Index(doc[i+9:], `"`) + 10
	return doc[:i] + `"name": ` + hostile.JSONString(name) + doc[j:]
}

// hostileFiles writes, for each hostile name, a config and a manifest
// whose paths hold the name, and returns the directory and the paths.
func hostileFiles(t *testing.T) (dir string, configs, manifests []string) {
	t.Helper()
	dir = t.TempDir()
	for i, n := range hostile.Names {
		sub := filepath.Join(dir, fmt.Sprint(i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		cfg := filepath.Join(sub, hostile.FileName(n)+".toml")
		man := filepath.Join(sub, hostile.FileName(n)+".json")
		if err := os.WriteFile(cfg, []byte(hostileConfig()), 0o644); err != nil {
			t.Fatal(err)
		}
		name := n
		if !strings.Contains(strings.ToValidUTF8(n, ""), n) {
			name = "ok"
		}
		if err := os.WriteFile(man, []byte(hostileManifest(name+"m")), 0o644); err != nil {
			t.Fatal(err)
		}
		configs, manifests = append(configs, cfg), append(manifests, man)
	}
	return dir, configs, manifests
}

// TestHostileNamesReachNoOutputRaw (issue 13, "Why" 3): config paths,
// config names, manifest paths and manifest names holding ESC, OSC 8,
// CR, LF, a bidirectional override and invalid UTF-8, through every
// format of kokua-lint, of --list-rules and of migrate: nothing but the
// format's own line feeds reaches stdout or stderr raw, and the GitHub
// format writes one line per finding.
func TestHostileNamesReachNoOutputRaw(t *testing.T) {
	dir, configs, manifests := hostileFiles(t)
	check := func(what string, r clitest.Result) {
		t.Helper()
		if raw := hostile.Raw([]byte(r.Stdout)); raw != "" {
			t.Errorf("%s: stdout carries %s", what, raw)
		}
		if raw := hostile.Raw([]byte(r.Stderr)); raw != "" {
			t.Errorf("%s: stderr carries %s", what, raw)
		}
		if hostile.Forged([]byte(r.Stdout)) || hostile.Forged([]byte(r.Stderr)) {
			t.Errorf("%s: a name started a line of its own:\nstdout: %q\nstderr: %q", what, r.Stdout, r.Stderr)
		}
	}
	for i := range configs {
		for _, format := range lintFormats.Names() {
			for _, m := range []string{"", manifests[i]} {
				args := []string{"--format", format, "--color", "never"}
				if m != "" {
					args = append(args, "--manifest", m)
				}
				r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", append(args, configs[i])...)
				what := fmt.Sprintf("%s --format %s (manifest %q)", hostile.Names[i], format, m)
				wantCode(t, r, cli.ExitFindings)
				check(what, r)
				if format != "github" {
					continue
				}
				js := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", append([]string{"--format", "json"}, append(args[4:], configs[i])...)...)
				var report struct{ Diagnostics []json.RawMessage }
				if err := json.Unmarshal([]byte(js.Stdout), &report); err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
				if len(lines) != len(report.Diagnostics) {
					t.Errorf("%s: %d lines for %d findings:\n%s", what, len(lines), len(report.Diagnostics), r.Stdout)
				}
				for _, l := range lines {
					if !strings.HasPrefix(l, "::") {
						t.Errorf("%s: a line is no workflow command: %q", what, l)
					}
				}
			}
		}
		// An input that cannot be read names its path on stderr.
		check("missing "+hostile.Names[i], clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", configs[i]+".missing"))
		check("missing manifest "+hostile.Names[i], clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--manifest", manifests[i]+".missing", configs[i]))
		check("--stdin-filename "+hostile.Names[i], clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--stdin-filename", hostile.Names[i], "-"))
	}
}

// TestMigrateMessagesAreEscaped (issue 13, "Why" 3): migrate's messages
// on stderr name the config by its path, escaped, and its output holds
// the names as the file spells them.
func TestMigrateMessagesAreEscaped(t *testing.T) {
	dir, _, _ := hostileFiles(t)
	for i, n := range hostile.Names {
		cfg := filepath.Join(dir, fmt.Sprint(i), hostile.FileName(n)+".old.toml")
		old := "[agents.assistant]\ntools = [\"memory\", \"read_file\"]\n\n[agents." + tomlpos.BasicString(hostile.Valid()[i%len(hostile.Valid())]) + "]\ntools = [\"time\"]\n"
		if err := os.WriteFile(cfg, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"migrate", cfg}, {"migrate", "--diff", cfg}, {"migrate", cfg + ".missing"}} {
			r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", args...)
			if raw := hostile.Raw([]byte(r.Stdout + r.Stderr)); raw != "" {
				t.Errorf("kokua-lint %q: the output carries %s\nstderr: %q", args, raw, r.Stderr)
			}
			if hostile.Forged([]byte(r.Stderr)) {
				t.Errorf("kokua-lint %q: a name started a line of its own on stderr: %q", args, r.Stderr)
			}
		}
	}
}

// fifo makes a named pipe in a fresh directory, or skips the test.
func fifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	return path
}

// TestSpecialFileInputsAreRefused (issue 13, "Why" 4): a named pipe or a
// device given as a config, a manifest or migrate's input is refused at
// once, exit 2 with one line that says what it is, instead of blocking
// until something writes to it.
func TestSpecialFileInputsAreRefused(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": "[assistant.tools]\nconfirm = []\nreview = []\n"})
	pipe := fifo(t)
	// Paths are absolute: the runs are in a goroutine, which t.Chdir is
	// not for.
	cfg := filepath.Join(dir, "config.toml")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{pipe}, "named pipe (FIFO), not a regular file"},
		{[]string{"--manifest", pipe, cfg}, "named pipe (FIFO), not a regular file"},
		{[]string{"--manifest", "/dev/zero", cfg}, "character device, not a regular file"},
		{[]string{"migrate", pipe}, "named pipe (FIFO), not a regular file"},
		{[]string{"/dev/zero"}, "character device, not a regular file"},
	} {
		done := make(chan clitest.Result, 1)
		go func() {
			done <- clitest.Run(Main, "kokua-lint", "", append([]string{"--color", "never"}, c.args...)...)
		}()
		select {
		case r := <-done:
			wantUsageError(t, r, c.says)
		case <-patience.After(t, 20*time.Second):
			t.Fatalf("kokua-lint %q blocked", c.args)
		}
	}
}
