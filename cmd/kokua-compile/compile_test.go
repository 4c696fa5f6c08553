package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// cmdline is a kokua-compile command line, field by field.
type cmdline struct {
	Config, Manifest, Output string
	// Format and Color are human and never when empty.
	Format, Color string
	Agents, Check bool
}

// args spells the command line out as kokua-compile reads it.
func (o cmdline) args() []string {
	var args []string
	if o.Agents {
		args = append(args, "agents")
	}
	if o.Format == "" {
		o.Format = "human"
	}
	if o.Color == "" {
		o.Color = "never"
	}
	args = append(args, "--format", o.Format, "--color", o.Color)
	if o.Manifest != "" {
		args = append(args, "--manifest", o.Manifest)
	}
	if o.Output != "" {
		args = append(args, "-o", o.Output)
	}
	if o.Check {
		args = append(args, "--check")
	}
	return append(args, o.Config)
}
func shippedPath(t *testing.T) string {
	t.Helper()
	return filepath.Join("..", "..", "examples", "shipped.config.toml")
}

// TestRunWritesAtomically: -o writes the policy through a temporary file
// and a rename, leaves nothing else behind, and the runtime accepts it.
func TestRunWritesAtomically(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(out, []byte("the old policy"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", cmdline{Config: shippedPath(t), Output: out}.args()...).Split()
	if code != cli.ExitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := policy.Load(out); err != nil {
		t.Errorf("the written policy is refused: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want only the policy (no temporary file left)", len(entries))
	}
}

// TestRunRefusesBrokenConfig (issue: refuse broken input): a config with
// errors is not compiled; the diagnostics are kokua-lint's, the exit code
// is 1, and an existing output file is left as it was.
func TestRunRefusesBrokenConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	broken := strings.Replace(mustRead(t, shippedPath(t)), "mcp.add_mcp_server\", \"config", "mcp.add_mcp_servr\", \"config", 1)
	if err := os.WriteFile(cfg, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(out, []byte("the old policy"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"human", "json"} {
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", cmdline{Config: cfg, Output: out, Format: format}.args()...).Split()
		if code != cli.ExitFindings || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want 1 and nothing on stdout", format, code, stdout)
		}
		if !strings.Contains(stderr, "pending-dead-entry") {
			t.Errorf("%s: stderr lacks the diagnostic:\n%s", format, stderr)
		}
		// The note is for people; JSON on stderr stays one JSON document.
		if note := strings.Contains(stderr, "nothing was written"); note != (format == "human") {
			t.Errorf("%s: the note 'nothing was written' is there: %v", format, note)
		}
		if format == "json" && !json.Valid([]byte(stderr)) {
			t.Errorf("json: stderr is not one JSON document:\n%s", stderr)
		}
		if got := mustRead(t, out); got != "the old policy" {
			t.Errorf("%s: the existing output was changed to %q", format, got)
		}
	}
}

func TestRunUsageErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		o    cmdline
		want string
	}{
		{"missing config", cmdline{Config: filepath.Join(dir, "nope.toml")}, "cannot read"},
		{"output is a directory", cmdline{Config: shippedPath(t), Output: dir}, "is a directory"},
		{"bad format", cmdline{Config: shippedPath(t), Format: "xml"}, "--format"},
		{"missing manifest", cmdline{Config: shippedPath(t), Manifest: filepath.Join(dir, "m.json")}, "cannot read"},
	}
	for _, tt := range tests {
		code, _, stderr := clitest.Run(Main, "kokua-compile", "", tt.o.args()...).Split()
		if code != cli.ExitUsage || !strings.Contains(stderr, tt.want) || strings.Contains(stderr, "goroutine") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", tt.name, code, stderr, tt.want)
		}
	}
}

// TestRunStdoutMatchesFile: without -o the policy goes to stdout, the same
// bytes as -o writes.
func TestRunStdoutMatchesFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.json")
	_, stdout, _ := clitest.Run(Main, "kokua-compile", "", cmdline{Config: shippedPath(t)}.args()...).Split()
	clitest.Run(Main, "kokua-compile", "", cmdline{Config: shippedPath(t), Output: out}.args()...)
	if stdout != mustRead(t, out) {
		t.Error("stdout and -o differ")
	}
}

func TestRunAgentsView(t *testing.T) {
	code, stdout, _ := clitest.Run(Main, "kokua-compile", "", cmdline{Config: shippedPath(t), Agents: true}.args()...).Split()
	for _, want := range []string{
		"assistant (entry agent)",
		"  loads on demand: documents, skills, mcp, scheduling, benchmark",
		"  resident: every available toolset",
		"  review: run_command, execute_python, write_file, edit_file (inherited from [assistant.tools])",
		"  confirm: add_skill_script (when skills loads), add_mcp_server (when mcp loads), update_config (inherited from [assistant.tools])",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the agents view lacks %q:\n%s", want, stdout)
		}
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestRunCheck: --check passes on a policy compiled from the same inputs,
// wherever it was compiled from, and fails on a stale or missing one.
func TestRunCheck(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "policy.json")
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte(mustRead(t, shippedPath(t))), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := clitest.Run(Main, "kokua-compile", "", cmdline{Config: cfg, Output: out, Check: true}.args()...).Split(); code != cli.ExitFindings || !strings.Contains(stderr, "missing") {
		t.Errorf("no policy yet: exit %d, %q", code, stderr)
	}
	clitest.Run(Main, "kokua-compile", "", cmdline{Config: cfg, Output: out}.args()...)
	// The same config under another path is the same policy.
	if code, _, stderr := clitest.Run(Main, "kokua-compile", "", cmdline{Config: shippedPath(t), Output: out, Check: true}.args()...).Split(); code != cli.ExitOK {
		t.Errorf("up to date: exit %d, %q", code, stderr)
	}
	edited := strings.Replace(mustRead(t, cfg), `"fs", "time", "messaging"]`, `"fs", "time"]`, 1)
	if err := os.WriteFile(cfg, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	before := mustRead(t, out)
	if code, _, stderr := clitest.Run(Main, "kokua-compile", "", cmdline{Config: cfg, Output: out, Check: true}.args()...).Split(); code != cli.ExitFindings || !strings.Contains(stderr, "stale") {
		t.Errorf("stale: exit %d, %q", code, stderr)
	}
	if mustRead(t, out) != before {
		t.Error("--check wrote the policy")
	}
}
