package main

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestConvention (issue 10, one CLI convention): the checks every
// command passes (clitest.CheckConvention: help as a word used to exit 3,
// no arguments used to exit 0), an unknown command, and flags after the
// arguments.
func TestConvention(t *testing.T) {
	pol := shippedPolicy(t)
	clitest.CheckConvention(t, Main, "kokua-run", clitest.Convention{
		Help: "kokua-run session [--preload TOOLSET,...] [--verify-key PUB] POLICY AGENT < script",
		Sub:  "decide", SubHelp: "kokua-run decide [--format human|json] [--unattended] [--verify-key PUB] [--decision-log FILE|-] POLICY AGENT TOOL",
		Flag: []string{"decide", "--format"},
		Cases: []clitest.Case{
			{Name: "-h of another command", Args: []string{"serve", "-h"}, Code: cli.ExitOK, Stdout: "kokua-run serve [--addr 127.0.0.1:8181] [--allow-host HOST]... [--verify-key PUB] [--no-ui] [--decision-log FILE|-] POLICY"},
			{Name: "unknown command", Args: []string{"frobnicate"}, Code: cli.ExitUsage, Stderr: `kokua-run: unknown command "frobnicate": the commands are decide, session, serve`},
			{Name: "mistyped command", Args: []string{"sesion", pol, "coder"}, Code: cli.ExitUsage, Stderr: `kokua-run: unknown command 'sesion': did you mean 'session'?`},
			{Name: "flags after the arguments", Args: []string{"decide", pol, "coder", "write_file", "--format", "json", "--unattended"}, Code: cli.ExitDenied, Stdout: `"decision":"denied"`},
			{Name: "session without its arguments", Args: []string{"session", pol}, Code: cli.ExitUsage, Stderr: "want POLICY AGENT, and the script on standard input"},
			{Name: "decide without its arguments", Args: []string{"decide", pol}, Code: cli.ExitUsage, Stderr: "want POLICY AGENT TOOL"},
		},
	})
}

// TestSessionMistypedCommand: a script line whose command is close to one
// of the four is answered with it, as a mistyped subcommand is; one close
// to none gets the list alone.
func TestSessionMistypedCommand(t *testing.T) {
	pol := shippedPolicy(t)
	for script, want := range map[string]string{
		"load fs\ncal read_file\n": "kokua-run session: line 2: unknown command \"cal\" (did you mean \"call\"?); the commands are load <toolset>, call [--unattended] <tool>, tools and names\n",
		"frobnicate\n":             "kokua-run session: line 1: unknown command \"frobnicate\"; the commands are load <toolset>, call [--unattended] <tool>, tools and names\n",
	} {
		r := clitest.Run(Main, "kokua-run", script, "session", pol, "coder")
		if r.Code != cli.ExitUsage || r.Stderr != want {
			t.Errorf("script %q: exit %d, stderr %q; want %d, %q", script, r.Code, r.Stderr, cli.ExitUsage, want)
		}
	}
}

// TestSessionQuotedNames: a name in double quotes is read as the name
// itself, so a toolset registered with a space in its name can be loaded
// and called; quoted and bare names give the same answers.
func TestSessionQuotedNames(t *testing.T) {
	pol := shippedPolicy(t)
	bare := clitest.Run(Main, "kokua-run", "load mcp\ncall mcp.add_mcp_server\n", "session", pol, "assistant")
	quoted := clitest.Run(Main, "kokua-run", "load \"mcp\"\ncall \"mcp.add_mcp_server\"\n", "session", pol, "assistant")
	if bare.Code != 0 || quoted.Code != 0 {
		t.Fatalf("exit %d and %d: %s %s", bare.Code, quoted.Code, bare.Stderr, quoted.Stderr)
	}
	strip := func(out string) string { return strings.ReplaceAll(out, `"`, "") } // the echoed lines differ by their quotes
	if strip(bare.Stdout) != strip(quoted.Stdout) {
		t.Errorf("quoted names answered otherwise:\n%s\n---\n%s", quoted.Stdout, bare.Stdout)
	}
}

// TestSessionUsageErrors (issue 10): a line session cannot read stops it
// with exit 2 and the line's number; what was answered before stays on
// stdout.
func TestSessionUsageErrors(t *testing.T) {
	pol := shippedPolicy(t)
	for _, c := range []struct {
		script, stderr string
	}{
		{"call\n", "kokua-run session: line 1: call takes one tool"},
		{"call --unattended\n", "kokua-run session: line 1: call takes one tool"},
		{"load\n", "kokua-run session: line 1: load takes one toolset"},
		{"load mcp skills\n", "kokua-run session: line 1: load takes one toolset"},
		{"load \"my wiki\n", "kokua-run session: line 1: load takes one toolset"},
		{"load \"\"\n", "kokua-run session: line 1: load takes one toolset"},
		{"call \"mcp\" add_mcp_server\n", "kokua-run session: line 1: call takes one tool"},
		{"tools now\n", "kokua-run session: line 1: tools takes nothing after it"},
		{"# a comment\n\nnames\nfrobnicate mcp\ntools\n", `kokua-run session: line 4: unknown command "frobnicate"`},
	} {
		code, stdout, stderr := clitest.Run(Main, "kokua-run", c.script, "session", pol, "assistant").Split()
		if code != cli.ExitUsage || !strings.HasPrefix(stderr, c.stderr) || strings.Count(stderr, "\n") != 1 ||
			!strings.Contains(stderr, "the commands are load <toolset>, call [--unattended] <tool>, tools and names") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.script, code, stderr, c.stderr)
		}
		if strings.Contains(c.script, "names\n") && !strings.Contains(stdout, "> names\n") {
			t.Errorf("%q: the lines before the bad one were not answered: %q", c.script, stdout)
		}
		if strings.Contains(stdout, "> tools\n") && strings.Contains(c.script, "frobnicate") {
			t.Errorf("%q: the session went on after the bad line: %q", c.script, stdout)
		}
	}
	code, stdout, stderr := clitest.Run(Main, "kokua-run", "load mcp\ncall --unattended add_mcp_server\ncall mcp.add_mcp_server\n", "session", pol, "assistant").Split()
	if code != cli.ExitOK || !strings.Contains(stdout, "denied: ") || !strings.Contains(stdout, "confirm: ") {
		t.Errorf("a good script: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
