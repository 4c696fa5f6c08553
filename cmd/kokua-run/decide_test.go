package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// shippedPolicy is the compiled policy of the shipped config, a golden.
func shippedPolicy(t *testing.T) string {
	t.Helper()
	return filepath.Join("..", "..", "testdata", "compile", "shipped", "want.json")
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
			args := []string{"decide", "--format", format}
			if tt.unattended {
				args = append(args, "--unattended")
			}
			code, out, _ := clitest.Run(Main, "kokua-run", "", append(args, shippedPolicy(t), tt.agent, tt.tool)...).Split()
			if code != tt.code {
				t.Errorf("%s %s (%s): exit %d, want %d", tt.agent, tt.tool, format, code, tt.code)
			}
			if format == "human" {
				if !strings.HasPrefix(out, string(tt.want)+": ") {
					t.Errorf("%s %s: human output %q", tt.agent, tt.tool, out)
				}
				continue
			}
			var a policy.Answer
			if err := json.Unmarshal([]byte(out), &a); err != nil || a.Decision != tt.want || a.Reason.Summary == "" {
				t.Errorf("%s %s: JSON %s (%v)", tt.agent, tt.tool, out, err)
			}
		}
	}
}

// TestDecideMistypedNames: an agent or a tool the policy does not know,
// close to one it does, gets a line on stderr that names the close one; the
// answer and its exit code stay what the policy says, and a name that is
// known, or close to nothing, gets no line.
func TestDecideMistypedNames(t *testing.T) {
	for _, c := range []struct {
		agent, tool string
		code        int
		stderr      string
	}{
		{"assistent", "read_file", cli.ExitDenied, "kokua-run decide: the policy declares no agent 'assistent': did you mean 'assistant'?\n"},
		{"coder", "raed_file", cli.ExitUnavailable, "kokua-run decide: no toolset of the policy provides a tool 'raed_file': did you mean 'read_file'?\n"},
		{"researcher", "write_file", cli.ExitUnavailable, ""}, // a tool the policy knows, out of this agent's reach
		{"ghost", "write_file", cli.ExitDenied, ""},
		{"coder", "zzzz", cli.ExitUnavailable, ""},
		{"assistant", "activate_skill", cli.ExitUnavailable, ""}, // a core tool, though this policy has none of that name
		{"composed:assistent", "read_file", cli.ExitOK, ""},      // a composed worker's label, whatever follows the prefix
	} {
		code, out, errs := clitest.Run(Main, "kokua-run", "", "decide", shippedPolicy(t), c.agent, c.tool).Split()
		if code != c.code || errs != c.stderr || strings.Contains(out, "did you mean") {
			t.Errorf("decide %s %s: exit %d, stderr %q; want exit %d, stderr %q", c.agent, c.tool, code, errs, c.code, c.stderr)
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
		code, out, errs := clitest.Run(Main, "kokua-run", "", "decide", "--format", "human", path, "coder", "calculate").Split()
		if code != cli.ExitRefused || out != "" || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 4 and %q", filepath.Base(path), code, out, errs, want)
		}
	}
}

func TestSessionUnknownAgent(t *testing.T) {
	code, _, errs := clitest.Run(Main, "kokua-run", "tools\n", "session", shippedPolicy(t), "ghost").Split()
	if code != cli.ExitUsage || !strings.Contains(errs, "no agent") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestConfigWhereThePolicyGoes (issue 38): a Kokua config.toml given to
// decide or session where the compiled policy goes is a usage error,
// exit 2, that names it a config and gives the command that compiles it;
// another file that is not JSON is still a refused policy, exit 4.
func TestConfigWhereThePolicyGoes(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(config, []byte("[assistant]\nagent = \"a\"\n\n[agents.a.tools]\navailable = [\"web\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "Cargo.toml")
	if err := os.WriteFile(other, []byte("[package]\nname = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "kokua-run: " + config + " is a Kokua config.toml, not a compiled policy: compile it first (kokua-compile -o policy.json " + config + "), then give kokua-run policy.json\n"
	for _, args := range [][]string{{"decide", config, "a", "web_search"}, {"session", config, "a"}} {
		code, out, errs := clitest.Run(Main, "kokua-run", "", args...).Split()
		if code != cli.ExitUsage || out != "" || errs != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", args, code, out, errs, want)
		}
	}
	if code, _, errs := clitest.Run(Main, "kokua-run", "", "decide", other, "a", "web_search").Split(); code != cli.ExitRefused || !strings.Contains(errs, "not a JSON policy") {
		t.Errorf("Cargo.toml: exit %d, stderr %q; want 4, not a JSON policy", code, errs)
	}
}
