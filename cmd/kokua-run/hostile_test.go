//go:build unix

package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/hostile"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
	"github.com/kokua-policy/kokua-policy/server"
)

// hostileAgents are agent names Kokua accepts (no ':' or '[') that carry
// what no output may print raw: ESC, BEL, CR, LF, the right-to-left
// override, DEL and a C1 control.
var hostileAgents = []string{"e\x1b7x", "b\a", "c\r", "l\nforged", "r\u202e", "d\x7f", "k\u009b"}

// hostilePolicy compiles, in process, a config whose entry agent
// delegates to every hostile agent, each of which holds fs with
// fs.read_file under review and fs_write.write_file under confirm.
func hostilePolicy(t *testing.T) []byte {
	t.Helper()
	config := hostile.DelegatingConfig(hostileAgents, "confirm = [\"fs_write.write_file\"]\nreview = [\"fs.read_file\"]",
		"available = [\"fs\", \"fs_write\", \"time\"]\nresident = [\"time\"]")
	src := lint.Source{Name: "config.toml", Data: []byte(config)}
	m := lint.DefaultManifest()
	res := engine.Run(src, m)
	if res.HasErrors() || res.World == nil {
		t.Fatalf("the hostile config has errors: %v", res.Diagnostics)
	}
	doc := engine.Compile(res.World, engine.Source{Name: src.Name, Data: src.Data}, engine.Source{Name: m.Source.Name, Data: m.Source.Data})
	out, err := policy.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHostileNamesReachNoOutputRaw (issue 13, "Why" 3): policy paths and
// agent names holding ESC, BEL, CR, LF, the right-to-left override, DEL, a
// C1 control and invalid UTF-8 (the paths), through decide (human and
// json), session and the refusals: nothing but the format's own line
// feeds reaches stdout or stderr raw, and no name starts a line.
func TestHostileNamesReachNoOutputRaw(t *testing.T) {
	data := hostilePolicy(t)
	dir := t.TempDir()
	for i, n := range hostile.Names {
		path := filepath.Join(dir, fmt.Sprint(i)+hostile.FileName(n)+".json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		agent := hostileAgents[i%len(hostileAgents)]
		script := "call fs.read_file\ncall write_file\ncall --unattended fs.read_file\ntools\nnames\nload fs\n"
		for _, c := range []struct {
			args  []string
			stdin string
		}{
			{args: []string{"decide", path, agent, "fs.read_file"}},
			{args: []string{"decide", "--format", "json", path, agent, "fs_write.write_file"}},
			{args: []string{"decide", path, n, n}},
			{args: []string{"decide", "--format", "json", path, agent, n}},
			{args: []string{"session", path, agent}, stdin: script},
			{args: []string{"session", path, agent}, stdin: "call " + n + "\n"},
			{args: []string{"session", path, agent}, stdin: "bogus " + n + "\n"},
			{args: []string{"session", "--preload", n, path, agent}, stdin: script},
			{args: []string{"decide", path + ".missing", agent, "fs.read_file"}},
			{args: []string{"decide", "--verify-key", path + ".missing", path, agent, "fs.read_file"}},
		} {
			r := clitest.Run(Main, "kokua-run", c.stdin, c.args...)
			if r.Code == cli.ExitInternal {
				t.Errorf("kokua-run %q: internal error: %s", c.args, r.Stderr)
			}
			for stream, out := range map[string][]byte{"stdout": []byte(r.Stdout), "stderr": []byte(r.Stderr)} {
				if raw := hostile.Raw(out); raw != "" {
					t.Errorf("kokua-run %q: %s carries %s", c.args, stream, raw)
				}
				if hostile.Forged(out) {
					t.Errorf("kokua-run %q: a name started a line of its own on %s:\n%s", c.args, stream, out)
				}
			}
		}
	}
}

// TestSpecialFilePoliciesAreRefused (issue 13, "Why" 4): a named pipe or a
// device given as the policy or the --verify-key file of decide, session
// and serve is refused at once, exit 2 with a line that says what it is,
// instead of blocking until something writes to it.
func TestSpecialFilePoliciesAreRefused(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "policy.json")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	good := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"decide", pipe, "coder", "fs.read_file"}, "named pipe (FIFO), not a regular file"},
		{[]string{"decide", "/dev/zero", "coder", "fs.read_file"}, "character device, not a regular file"},
		{[]string{"session", pipe, "coder"}, "named pipe (FIFO), not a regular file"},
		{[]string{"decide", "--verify-key", pipe, good, "coder", "fs.read_file"}, "named pipe (FIFO), not a regular file"},
		{[]string{"serve", "--addr", "127.0.0.1:0", pipe}, "named pipe (FIFO), not a regular file"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--verify-key", pipe, good}, "named pipe (FIFO), not a regular file"},
	} {
		done := make(chan clitest.Result, 1)
		go func() { done <- clitest.Run(Main, "kokua-run", "", c.args...) }()
		select {
		case r := <-done:
			if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, c.says) || strings.Count(r.Stderr, "\n") != 1 {
				t.Errorf("kokua-run %q: exit %d, stderr %q; want exit 2 and one line saying %q", c.args, r.Code, r.Stderr, c.says)
			}
		case <-patience.After(t, 20*time.Second):
			t.Fatalf("kokua-run %q blocked", c.args)
		}
	}
	// policy.Load and policy.ReadPublicKey refuse one by themselves too, for
	// hosts and for the server's reloads, without blocking.
	for name, read := range map[string]func() error{
		"policy.Load":          func() error { _, err := policy.Load(pipe); return err },
		"policy.ReadPublicKey": func() error { _, err := policy.ReadPublicKey(pipe); return err },
	} {
		done := make(chan error, 1)
		go func() { done <- read() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s(a named pipe) = %v", name, err)
			}
		case <-patience.After(t, 20*time.Second):
			t.Fatalf("%s blocked on a named pipe", name)
		}
	}
}

// TestServeStopsOnSignalWhileLoading (issue 13, "Why" 4): SIGTERM while
// the policy is still loading (a load that never ends stands in for a file
// on a stalled mount) stops serve at once, exit 0, rather than being
// ignored until the load ends.
func TestServeStopsOnSignalWhileLoading(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	loading := make(chan struct{})
	release := make(chan struct{})
	saved := newServer
	newServer = func(string, ed25519.PublicKey, *slog.Logger) (*server.Server, error) {
		close(loading)
		<-release
		return nil, errors.New("released")
	}
	t.Cleanup(func() { close(release); newServer = saved })

	log := &logBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- Main([]string{"kokua-run", "serve", "--addr", "127.0.0.1:0", path}, strings.NewReader(""), io.Discard, log)
	}()
	select {
	case <-loading:
	case <-time.After(15 * time.Second):
		t.Fatalf("serve never started loading:\n%s", log)
	}
	terminate(t, code, log)
	if !strings.Contains(log.String(), "stopped while loading the policy") {
		t.Errorf("log:\n%s", log)
	}
}
