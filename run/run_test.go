package run_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/policy"
	"github.com/kokua-policy/kokua-policy/run"
)

func shippedPolicy(t *testing.T) string {
	t.Helper()
	return filepath.Join("..", "testdata", "compile", "shipped", "want.json")
}

// TestDecideExitCodes: each decision has its documented exit code, and
// --format json prints one object whose decision is exactly one of the six.
func TestDecideExitCodes(t *testing.T) {
	tests := []struct {
		agent, tool string
		unattended  bool
		want        policy.Decision
		code        int
	}{
		{"coder", "calculate", false, policy.Run, 0},
		{"assistant", "update_config", false, policy.Confirm, 10},
		{"coder", "write_file", false, policy.Review, 11},
		{"assistant", "add_mcp_server", false, policy.NotLoaded, 12},
		{"researcher", "write_file", false, policy.Unavailable, 13},
		{"coder", "write_file", true, policy.Denied, 14},
		{"ghost", "write_file", false, policy.Denied, 14},
	}
	for _, tt := range tests {
		for _, format := range []string{"human", "json"} {
			var out, errs bytes.Buffer
			code := run.Decide(run.DecideOptions{Policy: shippedPolicy(t), Agent: tt.agent, Tool: tt.tool,
				Unattended: tt.unattended, Format: format, Stdout: &out, Stderr: &errs})
			if code != tt.code {
				t.Errorf("%s %s (%s): exit %d, want %d", tt.agent, tt.tool, format, code, tt.code)
			}
			if format == "human" {
				if !strings.HasPrefix(out.String(), string(tt.want)+": ") {
					t.Errorf("%s %s: human output %q", tt.agent, tt.tool, out.String())
				}
				continue
			}
			var a policy.Answer
			if err := json.Unmarshal(out.Bytes(), &a); err != nil || a.Decision != tt.want || a.Reason == nil || a.Reason.Summary == "" {
				t.Errorf("%s %s: JSON %s (%v)", tt.agent, tt.tool, out.String(), err)
			}
		}
	}
}

// TestDecideRefusesBadPolicies: a missing, truncated or tampered policy is
// refused with exit 4 and a one-line reason, and nothing is answered.
func TestDecideRefusesBadPolicies(t *testing.T) {
	good, err := os.ReadFile(shippedPolicy(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := map[string]string{
		filepath.Join(dir, "missing.json"):          "no such file",
		write("truncated.json", good[:len(good)/2]): "not a JSON policy",
		write("tampered.json", bytes.Replace(good, []byte(`"run_command"`), []byte(`"run_commanx"`), 1)):            "digest does not match",
		write("version.json", bytes.Replace(good, []byte(`"policy_version": 1`), []byte(`"policy_version": 2`), 1)): "policy_version 2",
	}
	for path, want := range tests {
		var out, errs bytes.Buffer
		code := run.Decide(run.DecideOptions{Policy: path, Agent: "coder", Tool: "calculate", Format: "human", Stdout: &out, Stderr: &errs})
		if code != run.ExitRefused || out.Len() != 0 || !strings.Contains(errs.String(), want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 4 and %q", filepath.Base(path), code, out.String(), errs.String(), want)
		}
	}
}

func TestSessionUnknownAgent(t *testing.T) {
	var out, errs bytes.Buffer
	code := run.Session(run.SessionOptions{Policy: shippedPolicy(t), Agent: "ghost", Stdin: strings.NewReader("tools\n"),
		Stdout: &out, Stderr: &errs})
	if code != run.ExitUsage || !strings.Contains(errs.String(), "no agent") {
		t.Errorf("exit %d, stderr %q", code, errs.String())
	}
}
