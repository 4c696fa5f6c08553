//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/hostile"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// hostileAgents are agent names that lint clean (no ':' or '[', which
// reserved-agent-name refuses) and carry what no output may print raw:
// ESC, BEL, CR, LF, the
// right-to-left override, DEL and a C1 control.
var hostileAgents = []string{"e\x1b7x", "b\a", "c\r", "l\nforged", "r\u202e", "d\x7f", "k\u009b"}

// hostileCompileConfig is a clean config whose entry agent delegates to
// every hostile agent; review gates fs.read_file when widen is false and
// nothing when it is true, so that the two differ for diff.
func hostileCompileConfig(widen bool) string {
	var b strings.Builder
	review := `"fs.read_file"`
	if widen {
		review = ""
	}
	fmt.Fprintf(&b, "[assistant.tools]\nconfirm = []\nreview = [%s]\n\n[agents.assistant]\ndelegates_to = [", review)
	for i, n := range hostileAgents {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tomlpos.BasicString(n))
	}
	b.WriteString("]\n\n[agents.assistant.tools]\navailable = [\"time\", \"fs\"]\n")
	for _, n := range hostileAgents {
		fmt.Fprintf(&b, "\n[agents.%s.tools]\navailable = [\"fs\"]\n", tomlpos.BasicString(n))
	}
	return b.String()
}

// TestHostileNamesReachNoOutputRaw (issue 13, "Why" 3): config paths and
// agent names holding ESC, BEL, CR, LF, the right-to-left override, DEL,
// a C1 control and invalid UTF-8 (the paths), through agents (human and
// json), diff (human, markdown and json), graph (dot and mermaid) and the
// refusals: nothing but the format's own line feeds reaches stdout or
// stderr raw, and no name starts a line of its own.
func TestHostileNamesReachNoOutputRaw(t *testing.T) {
	dir := t.TempDir()
	for i, n := range hostile.Names {
		sub := filepath.Join(dir, fmt.Sprint(i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		oldPath := filepath.Join(sub, hostile.FileName(n)+".old.toml")
		newPath := filepath.Join(sub, hostile.FileName(n)+".toml")
		if err := os.WriteFile(oldPath, []byte(hostileCompileConfig(false)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(newPath, []byte(hostileCompileConfig(true)), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"agents", "--format", "human", newPath},
			{"agents", "--format", "json", newPath},
			{"diff", "--format", "human", oldPath, newPath},
			{"diff", "--format", "markdown", oldPath, newPath},
			{"diff", "--format", "json", oldPath, newPath},
			{"graph", "--format", "dot", newPath},
			{"graph", "--format", "mermaid", newPath},
			{"--check", "-o", newPath + ".missing.json", newPath},
			{"agents", newPath + ".missing"},
			{"--manifest", newPath + ".missing", newPath},
		} {
			code, stdout, stderr := run(t, args...)
			if code > cli.ExitUsage {
				t.Errorf("kokua-compile %q: exit %d: %s", args, code, stderr)
			}
			for stream, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
				if raw := hostile.Raw([]byte(out)); raw != "" {
					t.Errorf("kokua-compile %q: %s carries %s", args, stream, raw)
				}
				if hostile.Forged([]byte(out)) {
					t.Errorf("kokua-compile %q: a name started a line of its own on %s:\n%s", args, stream, out)
				}
			}
		}
	}
}

// TestSpecialFileInputsAreRefused (issue 13, "Why" 4): a named pipe or a
// device given as the config, the manifest or the policy --check compares
// with is refused at once, exit 2 with a line that says what it is,
// instead of blocking until something writes to it.
func TestSpecialFileInputsAreRefused(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	config := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(config, []byte(hostileCompileConfig(false)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{pipe}, "named pipe (FIFO), not a regular file"},
		{[]string{"agents", pipe}, "named pipe (FIFO), not a regular file"},
		{[]string{"--manifest", pipe, config}, "named pipe (FIFO), not a regular file"},
		{[]string{"--check", "-o", pipe, config}, "named pipe (FIFO), not a regular file"},
		{[]string{"--check", "-o", "/dev/zero", config}, "character device, not a regular file"},
		{[]string{"diff", config, pipe}, "named pipe (FIFO), not a regular file"},
		{[]string{"graph", pipe}, "named pipe (FIFO), not a regular file"},
		{[]string{"--sign", pipe, config}, "named pipe (FIFO)"},
	} {
		type result struct {
			code           int
			stdout, stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, stdout, stderr := run(t, c.args...)
			done <- result{code, stdout, stderr}
		}()
		select {
		case r := <-done:
			if r.code != cli.ExitUsage || !strings.Contains(r.stderr, c.says) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("kokua-compile %q: exit %d, stderr %q; want exit 2 and one line saying %q", c.args, r.code, r.stderr, c.says)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("kokua-compile %q blocked", c.args)
		}
	}
}
