package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// brokenConfig is the shipped config with tool-access.md's misspelled
// entry: one pending-dead-entry error.
func brokenConfig(t *testing.T) string {
	return strings.Replace(mustRead(t, shippedPath(t)), `"mcp.add_mcp_server", "config`, `"mcp.add_mcp_servr", "config`, 1)
}

// TestConvention (issue 10, one CLI convention): the checks every
// command passes (clitest.CheckConvention), flags after the config, and
// kokua-compile's own usage errors.
func TestConvention(t *testing.T) {
	cfg := shippedPath(t)
	clitest.CheckConvention(t, Main, "kokua-compile", clitest.Convention{
		Help: "kokua-compile agents",
		Sub:  "agents", SubHelp: "kokua-compile agents [--manifest FILE]",
		Flag: []string{"agents", "--format"},
		Cases: []clitest.Case{
			{Name: "two configs", Args: []string{cfg, cfg}, Code: cli.ExitUsage, Stderr: "exactly one config"},
			{Name: "flags after the config", Args: []string{cfg, "--format", "json", "--color", "never"}, Code: cli.ExitOK, Stdout: `"policy_version": 1`},
			{Name: "unknown flag after the config", Args: []string{cfg, "--nope"}, Code: cli.ExitUsage, Stderr: "kokua-compile: unknown flag --nope (see --help)"},
			{Name: "mistyped diff (issue 21)", Args: []string{"dif", cfg, cfg}, Code: cli.ExitUsage, Stderr: "kokua-compile: unknown command 'dif': did you mean 'diff'? (see --help)"},
			{Name: "mistyped --format (issue 21)", Args: []string{cfg, "--formt", "json"}, Code: cli.ExitUsage, Stderr: "kokua-compile: unknown flag --formt: did you mean --format? (see --help)"},
			{Name: "agents listing in JSON", Args: []string{"agents", cfg, "--format", "json"}, Code: cli.ExitOK, Stdout: `"agents": {`},
			{Name: "agents listing in SARIF", Args: []string{"agents", "--format", "sarif", cfg}, Code: cli.ExitUsage, Stderr: `agents: --format takes human or json, not "sarif"`},
			{Name: "stdin-filename without -", Args: []string{"--stdin-filename", "x.toml", cfg}, Code: cli.ExitUsage, Stderr: "--stdin-filename"},
			{Name: "test (issue 22): the shipped claims hold", Args: []string{"test", cfg}, Code: cli.ExitOK, Stdout: "11 claims: 11 hold, 0 fail"},
			{Name: "test with flags after the files", Args: []string{"test", cfg, "--format", "junit"}, Code: cli.ExitOK, Stdout: "<testsuites "},
			{Name: "test in an unknown format", Args: []string{"test", "--format", "xml", cfg}, Code: cli.ExitUsage, Stderr: `test: --format takes human, json, junit, sarif or github, not "xml"`},
			{Name: "test without a config", Args: []string{"test"}, Code: cli.ExitUsage, Stderr: "name a config or a compiled policy"},
			{Name: "test with a missing test file", Args: []string{"test", cfg, "missing.test.toml"}, Code: cli.ExitUsage, Stderr: "missing.test.toml"},
			{Name: "mistyped test", Args: []string{"tset", cfg}, Code: cli.ExitUsage, Stderr: "did you mean 'test'?"},
		},
	})
}

// TestErrorFormats (issue 10): kokua-compile writes a config's errors in
// every format kokua-lint has, on stderr, and nothing on stdout.
func TestErrorFormats(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte(brokenConfig(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	for format, valid := range map[string]func(string) bool{
		"human": func(s string) bool {
			return strings.Contains(s, "error: ") && strings.Contains(s, "[pending-dead-entry]") && strings.Contains(s, "nothing was written")
		},
		"json": func(s string) bool {
			return json.Valid([]byte(s)) && strings.Contains(s, `"rule": "pending-dead-entry"`)
		},
		"sarif": func(s string) bool {
			var log struct {
				Version string `json:"version"`
				Runs    []struct {
					Results []struct {
						RuleID string `json:"ruleId"`
					} `json:"results"`
				} `json:"runs"`
			}
			return json.Unmarshal([]byte(s), &log) == nil && log.Version == "2.1.0" && len(log.Runs) == 1 &&
				len(log.Runs[0].Results) == 1 && log.Runs[0].Results[0].RuleID == "pending-dead-entry"
		},
		"github": func(s string) bool {
			return strings.HasPrefix(s, "::error file=") && strings.Contains(s, "title=pending-dead-entry::")
		},
	} {
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "--format", format, cfg).Split()
		if code != cli.ExitFindings || stdout != "" || !valid(stderr) {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s", format, code, stdout, stderr)
		}
	}
}

// TestStdin (issue 10): - compiles standard input; --stdin-filename names
// it in diagnostics, and the policy is the one the file compiles to.
func TestStdin(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte(mustRead(t, shippedPath(t))), 0o644); err != nil {
		t.Fatal(err)
	}
	_, fromFile, _ := clitest.Run(Main, "kokua-compile", "", cfg).Split()
	code, fromStdin, stderr := clitest.Run(Main, "kokua-compile", mustRead(t, cfg), "--stdin-filename", "deploy/config.toml", "-").Split()
	if code != cli.ExitOK || fromStdin != fromFile {
		t.Errorf("exit %d (%s); the policy of - differs from the file's", code, stderr)
	}
	code, _, stderr = clitest.Run(Main, "kokua-compile", brokenConfig(t), "-", "--stdin-filename", "deploy/config.toml").Split()
	if code != cli.ExitFindings || !strings.HasPrefix(stderr, "deploy/config.toml:") {
		t.Errorf("broken stdin: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = clitest.Run(Main, "kokua-compile", brokenConfig(t), "-").Split()
	if code != cli.ExitFindings || !strings.HasPrefix(stderr, cli.StdinName+":") {
		t.Errorf("broken stdin without a name: exit %d, stderr %q", code, stderr)
	}
}

// TestReproducible (issue 10, reproducible policies): the same config
// named config.toml, ./config.toml, by its absolute path and from another
// folder gives the same bytes, and the policy records the base name.
func TestReproducible(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte(mustRead(t, shippedPath(t))), 0o644); err != nil {
		t.Fatal(err)
	}
	man := filepath.Join(dir, "kokua.manifest.json")
	if err := os.WriteFile(man, lint.DefaultManifest().Source.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	var first string
	for _, c := range []struct{ wd, cfg, man string }{
		{dir, "config.toml", "kokua.manifest.json"},
		{dir, "./config.toml", "./kokua.manifest.json"},
		{dir, cfg, man},
		{sub, "../config.toml", "../sub/../kokua.manifest.json"},
		{"/", cfg[1:], man[1:]},
	} {
		t.Chdir(c.wd)
		code, out, stderr := clitest.Run(Main, "kokua-compile", "", "--manifest", c.man, c.cfg).Split()
		if code != cli.ExitOK {
			t.Fatalf("%+v: exit %d: %s", c, code, stderr)
		}
		if first == "" {
			first = out
			p, err := policy.Parse("policy.json", []byte(out))
			if err != nil {
				t.Fatal(err)
			}
			in := p.Document().Inputs
			if in.Config.File != "config.toml" || in.Manifest.File != "kokua.manifest.json" {
				t.Errorf("the policy records %q and %q, want the base names", in.Config.File, in.Manifest.File)
			}
		} else if out != first {
			t.Errorf("%+v: a different policy", c)
		}
	}
}

// TestWriteSafely (issue 10, safe writes): -o writes through a symlink,
// refuses a device and a directory, and keeps the mode.
func TestWriteSafely(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("policy.json", link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := clitest.Run(Main, "kokua-compile", "", "-o", link, shippedPath(t)).Split(); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced")
	}
	if info, err := os.Stat(target); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode is %v (%v), want 0600", info.Mode().Perm(), err)
	}
	if _, err := policy.Load(target); err != nil {
		t.Errorf("the target does not hold the policy: %v", err)
	}
	for _, out := range []string{os.DevNull, dir} {
		code, _, stderr := clitest.Run(Main, "kokua-compile", "", "-o", out, shippedPath(t)).Split()
		if code != cli.ExitUsage || !strings.Contains(stderr, "cannot write "+out) {
			t.Errorf("-o %s: exit %d, %q", out, code, stderr)
		}
	}
	if info, err := os.Stat(os.DevNull); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("%s is no longer a device", os.DevNull)
	}
}

// TestCheckMessages (issue 10): --check says which input changed and the
// whole command that brings the policy up to date, --manifest included;
// following that command makes --check pass. A config with errors gets
// one line, not the findings kokua-lint's hook prints already.
func TestCheckMessages(t *testing.T) {
	shipped := mustRead(t, shippedPath(t))
	broken := brokenConfig(t)
	manifest := string(lint.DefaultManifest().Source.Data)
	t.Chdir(t.TempDir())
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("deploy/my manifest.json", manifest)
	write("deploy/config.toml", shipped)
	checkArgs := []string{"--check", "--manifest", "deploy/my manifest.json", "-o", "deploy/policy.json", "deploy/config.toml"}
	rerun := "kokua-compile --manifest 'deploy/my manifest.json' -o deploy/policy.json deploy/config.toml"

	follow := func() {
		t.Helper()
		code, _, stderr := clitest.Run(Main, "kokua-compile", "", "--manifest", "deploy/my manifest.json", "-o", "deploy/policy.json", "deploy/config.toml").Split()
		if code != cli.ExitOK {
			t.Fatalf("following the advice: exit %d: %s", code, stderr)
		}
		if code, _, stderr := clitest.Run(Main, "kokua-compile", "", checkArgs...).Split(); code != cli.ExitOK {
			t.Fatalf("--check after following the advice: exit %d: %s", code, stderr)
		}
	}
	for _, c := range []struct {
		name   string
		change func()
		want   string
	}{
		{"missing", func() {}, "deploy/policy.json is missing"},
		{"config", func() { write("deploy/config.toml", shipped+"\n[display]\ntheme = \"dark\"\n") }, "deploy/config.toml has changed since it was compiled"},
		{"manifest", func() { write("deploy/my manifest.json", manifest+"\n") }, "the manifest (my manifest.json) has changed since it was compiled"},
		{"both", func() {
			write("deploy/config.toml", shipped)
			write("deploy/my manifest.json", manifest)
		}, "deploy/config.toml and the manifest (my manifest.json) have changed"},
		{"edited", func() {
			write("deploy/policy.json", strings.Replace(mustRead(t, "deploy/policy.json"), `"policy_version": 1`, `"policy_version":  1`, 1))
		}, "neither input has changed"},
		// issue 21: a JSON file that is no policy used to be "stale".
		{"not a policy", func() { write("deploy/policy.json", "{}\n") }, "deploy/policy.json is not a policy kokua-compile wrote (it has no policy_version)"},
		{"not JSON", func() { write("deploy/policy.json", "[display]\n") }, "deploy/policy.json is not a policy kokua-compile wrote (it is not a JSON object)"},
	} {
		c.change()
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", checkArgs...).Split()
		if code != cli.ExitFindings || stdout != "" || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "run "+rerun) {
			t.Errorf("%s: exit %d, stderr %q; want 1, %q and %q", c.name, code, stderr, c.want, rerun)
		}
		follow()
	}

	write("deploy/config.toml", broken)
	code, _, stderr := clitest.Run(Main, "kokua-compile", "", checkArgs...).Split()
	if code != cli.ExitFindings || strings.Count(stderr, "\n") != 1 ||
		!strings.Contains(stderr, "deploy/config.toml has 1 error(s), the first pending-dead-entry at deploy/config.toml:") {
		t.Errorf("errors under --check: exit %d, stderr %q", code, stderr)
	}
}

// TestOnlyKokua (issue 10, pre-commit): under --only-kokua another
// program's config.toml is skipped with one line, and nothing is written.
func TestOnlyKokua(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("baseURL = \"https://example.org/\"\n[params]\nx = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "policy.json")
	code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "--check", "--only-kokua", "-o", out, cfg).Split()
	if code != cli.ExitOK || stdout != "" || stderr != "kokua-compile: skipping "+cfg+": not a Kokua config (it has no [assistant], [agents], [reviewers], [mcp] or [tools] table, and none of Kokua's keys in [security])\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, _ := clitest.Run(Main, "kokua-compile", "", "--check", "-o", out, cfg).Split(); code != cli.ExitFindings {
		t.Errorf("without --only-kokua: exit %d, want 1 (no-agents)", code)
	}
}

// TestFlagBeforeSubcommand: a flag written before a subcommand's name
// reaches the subcommand. The manifest here registers no benchmark
// toolset, which the shipped config names, so each command line must
// report it; with the embedded default install it would pass.
func TestFlagBeforeSubcommand(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(lint.DefaultManifest().Source.Data, &m); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, ts := range m["toolsets"].([]any) {
		if ts.(map[string]any)["name"] != "benchmark" {
			kept = append(kept, ts)
		}
	}
	m["toolsets"] = kept
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(manifest, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := shippedPath(t)
	for _, args := range [][]string{
		{"--manifest", manifest, "agents", cfg},
		{"agents", "--manifest", manifest, cfg},
		{"agents", cfg, "--manifest", manifest},
		{"--manifest", manifest, "graph", cfg},
	} {
		code, _, stderr := clitest.Run(Main, "kokua-compile", "", args...).Split()
		if code != cli.ExitFindings || !strings.Contains(stderr, "unknown toolset 'benchmark'") {
			t.Errorf("kokua-compile %s: exit %d, stderr %q; want exit 1 and the unknown benchmark toolset", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestUsageListsEverySubcommand (issue 21): the USAGE lines of
// kokua-compile's help show every subcommand, diff, graph and keygen
// included, as the line its own help starts with.
func TestUsageListsEverySubcommand(t *testing.T) {
	r := clitest.Run(Main, "kokua-compile", "", "--help")
	usage, _, _ := strings.Cut(r.Stdout, "COMMANDS:")
	for _, sub := range command(nil, nil, nil).Commands {
		for _, line := range strings.Split(sub.UsageText, "\n") {
			if !strings.Contains(usage, line) {
				t.Errorf("kokua-compile --help's usage does not show %q:\n%s", line, usage)
			}
		}
	}
}
