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
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/hostile"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
	"github.com/kokua-policy/kokua-policy/policy"
)

// hostileAgents are agent names that lint without errors (no ':' or '[',
// which reserved-agent-name refuses; unprintable-name warns about each,
// which does not stop a compile) and carry what no output may print raw:
// ESC, BEL, CR, LF, the right-to-left override, DEL and a C1 control.
var hostileAgents = []string{"e\x1b7x", "b\a", "c\r", "l\nforged", "r\u202e", "d\x7f", "k\u009b"}

// hostileCompileConfig is a config without errors whose entry agent
// delegates to every hostile agent; review gates fs.read_file when widen
// is false and nothing when it is true, so that the two differ for diff.
func hostileCompileConfig(widen bool) string {
	review := `"fs.read_file"`
	if widen {
		review = ""
	}
	return hostile.DelegatingConfig(hostileAgents, "confirm = []\nreview = ["+review+"]", `available = ["fs"]`)
}

// TestHostileNamesReachNoOutputRaw (issue 13, "Why" 3, Must 3): config
// paths and agent names holding ESC, BEL, CR, LF, the right-to-left
// override, DEL, a C1 control and invalid UTF-8 (the paths), through the
// policy itself (on stdout, signed or not, and in the file -o writes),
// agents (human and json), diff (human, markdown, json and github), risks
// (human, markdown and json), graph (dot
// and mermaid) and the refusals: nothing but the format's own line feeds
// reaches stdout, stderr or a policy file raw, and no name starts a line
// of its own. --check, signed or not, finds the policy files -o wrote up
// to date.
func TestHostileNamesReachNoOutputRaw(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "policy.key")
	if code, _, stderr := clitest.Run(Main, "kokua-compile", "", "keygen", key).Split(); code != cli.ExitOK {
		t.Fatalf("keygen: exit %d: %s", code, stderr)
	}
	clean := func(what string, out []byte) {
		t.Helper()
		if raw := hostile.Raw(out); raw != "" {
			t.Errorf("%s carries %s", what, raw)
		}
		if hostile.Forged(out) {
			t.Errorf("a name started a line of its own in %s:\n%s", what, out)
		}
	}
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
		// The same agents reading the web and files: risk paths through every hostile name.
		riskPath := filepath.Join(sub, hostile.FileName(n)+".risk.toml")
		if err := os.WriteFile(riskPath, []byte(hostile.DelegatingConfig(hostileAgents, "confirm = []\nreview = []", `available = ["web", "fs"]`)), 0o644); err != nil {
			t.Fatal(err)
		}
		policyPath, signedPath := newPath+".policy.json", newPath+".signed.json"
		// The first runs write the policy itself, and must succeed.
		policies := [][]string{
			{newPath},
			{"--sign", key, newPath},
			{"-o", policyPath, newPath},
			{"--sign", key, "-o", signedPath, newPath},
		}
		// Each listing in each of its formats (the registries of
		// internal/format), and the diff to the risky config.
		var listings [][]string
		for _, f := range agentsFormats.Names() {
			listings = append(listings, []string{"agents", "--format", f, newPath})
		}
		for _, f := range diff.Formats.Names() {
			listings = append(listings, []string{"diff", "--format", f, oldPath, newPath}, []string{"diff", "--format", f, newPath, riskPath})
		}
		for _, f := range reach.Formats.Names() {
			listings = append(listings, []string{"graph", "--format", f, newPath})
		}
		for _, f := range diff.RiskFormats.Names() {
			listings = append(listings, []string{"risks", "--format", f, riskPath})
		}
		for k, args := range append(append(policies, listings...), [][]string{
			{"report", newPath},
			{"report", "--base", oldPath, newPath},
			{"--check", "-o", newPath + ".missing.json", newPath},
			{"agents", newPath + ".missing"},
			{"--manifest", newPath + ".missing", newPath},
		}...) {
			code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", args...).Split()
			if code > cli.ExitUsage {
				t.Errorf("kokua-compile %q: exit %d: %s", args, code, stderr)
			}
			for stream, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
				clean(fmt.Sprintf("kokua-compile %q: %s", args, stream), []byte(out))
			}
			if args[0] == "risks" && (code != cli.ExitOK || !strings.Contains(stdout, "critical")) {
				t.Errorf("kokua-compile %q: exit %d, no critical path through the hostile names:\n%s%s", args, code, stdout, stderr)
			}
			if k < len(policies) && code != cli.ExitOK {
				t.Errorf("kokua-compile %q: exit %d: %s", args, code, stderr)
			}
			if len(args) == 1 {
				hasEveryAgent(t, fmt.Sprintf("kokua-compile %q: stdout", args), []byte(stdout))
			}
		}
		for _, c := range []struct {
			path string
			sign []string
		}{{policyPath, nil}, {signedPath, []string{"--sign", key}}} {
			data, err := os.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			clean("the policy file -o wrote ("+c.path+")", data)
			hasEveryAgent(t, c.path, data)
			args := append(append([]string{"--check"}, c.sign...), "-o", c.path, newPath)
			if code, _, stderr := clitest.Run(Main, "kokua-compile", "", args...).Split(); code != cli.ExitOK {
				t.Errorf("kokua-compile %q of the policy -o wrote: exit %d: %s", args, code, stderr)
			}
		}
	}
}

// hasEveryAgent fails unless data is a policy that loads and holds every
// one of hostileAgents, as itself: the escapes that keep a policy
// printable decode to the names.
func hasEveryAgent(t *testing.T, what string, data []byte) {
	t.Helper()
	p, err := policy.Parse(what, data)
	if err != nil {
		t.Errorf("%s is not a policy that loads: %v", what, err)
		return
	}
	for _, n := range hostileAgents {
		if _, ok := p.Document().Agents[n]; !ok {
			t.Errorf("%s has no agent %q", what, n)
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
	// A config without findings, so that the refusal is all stderr says.
	config := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(config, []byte("[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant.tools]\navailable = [\"time\", \"fs\"]\n"), 0o644); err != nil {
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
		{[]string{"risks", pipe}, "named pipe (FIFO), not a regular file"},
		{[]string{"--sign", pipe, config}, "named pipe (FIFO)"},
	} {
		done := make(chan clitest.Result, 1)
		go func() { done <- clitest.Run(Main, "kokua-compile", "", c.args...) }()
		select {
		case r := <-done:
			if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, c.says) || strings.Count(r.Stderr, "\n") != 1 {
				t.Errorf("kokua-compile %q: exit %d, stderr %q; want exit 2 and one line saying %q", c.args, r.Code, r.Stderr, c.says)
			}
		case <-patience.After(t, 20*time.Second):
			t.Fatalf("kokua-compile %q blocked", c.args)
		}
	}
}
