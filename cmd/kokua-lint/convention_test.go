package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/version"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/rules"
)

// runStdin runs kokua-lint in process, in dir, with stdin.
func runStdin(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("NO_COLOR", "")
	var stdout, stderr bytes.Buffer
	code := Main(append([]string{"kokua-lint"}, args...), strings.NewReader(stdin), &stdout, &stderr)
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// TestConvention (issue 10, one CLI convention): --version, help as a
// word and -h, no arguments, and flags before and after the files.
func TestConvention(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": withError(t), "clean.toml": shipped(t)})
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stdout string
	}{
		{"version", []string{"--version"}, cli.ExitOK, "kokua-lint version " + version.Version + "\n"},
		{"help word", []string{"help"}, cli.ExitOK, "USAGE:\n   kokua-lint [--manifest FILE]"},
		{"-h", []string{"-h"}, cli.ExitOK, "USAGE:\n   kokua-lint [--manifest FILE]"},
		{"help of a subcommand", []string{"help", "manifest"}, cli.ExitOK, "kokua-lint manifest > kokua.manifest.json"},
		{"flags after the file", []string{"config.toml", "--format", "json"}, cli.ExitFindings, `"rule": "unknown-toolset"`},
		{"flags around the files", []string{"--format", "json", "clean.toml", "--fail-on", "warning", "config.toml"}, cli.ExitFindings, `"rule": "unknown-toolset"`},
		{"-- ends the flags", []string{"--format", "json", "--", "config.toml"}, cli.ExitFindings, `"rule": "unknown-toolset"`},
	} {
		r := run(t, dir, nil, c.args...)
		if r.code != c.code || !strings.Contains(r.stdout, c.stdout) {
			t.Errorf("%s: exit %d, stdout %.300q, stderr %q; want %d and %q", c.name, r.code, r.stdout, r.stderr, c.code, c.stdout)
		}
	}
	wantUsageError(t, run(t, dir, nil), "no arguments", "usage: kokua-lint ")
	wantUsageError(t, run(t, dir, nil, "config.toml", "--format"), "--format")
	wantUsageError(t, run(t, dir, nil, "--list-rules", "config.toml"), "--list-rules takes no config files")
	wantUsageError(t, run(t, dir, nil, "manifest", "extra"), "manifest takes no arguments")
}

// TestStdin (issue 10): - reads the config from standard input, named by
// --stdin-filename in every position; it can be read once.
func TestStdin(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": shipped(t)})
	r := runStdin(t, dir, withError(t), "--format", "json", "--stdin-filename", "deploy/config.toml", "-")
	wantCode(t, r, cli.ExitFindings)
	var report struct {
		Diagnostics []struct {
			Rule string `json:"rule"`
			File string `json:"file"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil || len(report.Diagnostics) != 1 ||
		report.Diagnostics[0].File != "deploy/config.toml" || report.Diagnostics[0].Rule != "unknown-toolset" {
		t.Errorf("%v: %s", err, r.stdout)
	}
	r = runStdin(t, dir, withError(t), "--color", "never", "-")
	if !strings.HasPrefix(r.stdout, cli.StdinName+":") {
		t.Errorf("stdin without a name: %q", r.stdout)
	}
	wantCode(t, runStdin(t, dir, shipped(t), "config.toml", "-"), cli.ExitOK)
	wantUsageError(t, runStdin(t, dir, "", "-", "-"), "standard input")
	wantUsageError(t, runStdin(t, dir, "", "--stdin-filename", "x", "config.toml"), "--stdin-filename")
}

// TestOnlyKokua (issue 10, pre-commit): under --only-kokua, a file that
// is not Kokua's is skipped with one line on stderr and the rest are
// checked; without it an empty file still gets no-agents.
func TestOnlyKokua(t *testing.T) {
	cargo := "[build]\ntarget = \"x86_64-unknown-linux-gnu\"\n\n[alias]\nb = \"build\"\n"
	hugo := "baseURL = \"https://example.org/\"\ntitle = \"Site\"\n\n[params]\nauthor = \"me\"\n"
	dir := files(t, map[string]string{
		".cargo/config.toml": cargo, "site/config.toml": hugo, "empty/config.toml": "", "config.toml": withError(t),
	})
	r := run(t, dir, nil, "--only-kokua", "--color", "never", ".cargo/config.toml", "site/config.toml", "empty/config.toml", "config.toml")
	wantCode(t, r, cli.ExitFindings)
	for _, skipped := range []string{".cargo/config.toml", "site/config.toml", "empty/config.toml"} {
		want := "kokua-lint: skipping " + skipped + ": not a Kokua config (it has no [assistant], [agents], [security], [reviewers], [mcp] or [tools] table)\n"
		if strings.Count(r.stderr, want) != 1 {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
		if strings.Contains(r.stdout, skipped) {
			t.Errorf("%s was checked:\n%s", skipped, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "config.toml:") || strings.Count(r.stdout, "[unknown-toolset]") != 1 {
		t.Errorf("Kokua's config was not checked once:\n%s", r.stdout)
	}
	r = run(t, dir, nil, "--only-kokua", "site/config.toml")
	if r.code != cli.ExitOK || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("only a Hugo config: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, dir, nil, "--format", "json", "empty/config.toml")
	if r.code != cli.ExitFindings || !strings.Contains(r.stdout, `"rule": "no-agents"`) {
		t.Errorf("an empty file by hand: exit %d, %s", r.code, r.stdout)
	}
}

// TestListRulesFormats (issue 10): --list-rules honours --format.
func TestListRulesFormats(t *testing.T) {
	all := rules.All()
	r := run(t, t.TempDir(), nil, "--list-rules", "--format", "json")
	wantCode(t, r, cli.ExitOK)
	var listed struct {
		Rules []struct {
			ID, Severity, Phase, Summary string
			Refs                         []string
			HelpURI                      string `json:"help_uri"`
		} `json:"rules"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil || len(listed.Rules) != len(all) {
		t.Fatalf("%v; %d rules listed, want %d", err, len(listed.Rules), len(all))
	}
	for i, rule := range all {
		got := listed.Rules[i]
		if got.ID != rule.ID || got.Severity != rule.Severity.String() || got.Phase != string(rule.Phase) ||
			got.Summary != rule.Summary || strings.Join(got.Refs, " ") != strings.Join(rule.Refs, " ") ||
			got.HelpURI != lint.SARIFRuleHelpURI(rule.ID) {
			t.Errorf("rule %d: %+v, want %s", i, got, rule.ID)
		}
	}
	r = run(t, t.TempDir(), nil, "--format", "sarif", "--list-rules")
	wantCode(t, r, cli.ExitOK)
	if !strings.Contains(r.stdout, `"version": "2.1.0"`) || !strings.Contains(r.stdout, `"id": "unknown-toolset"`) {
		t.Errorf("the SARIF listing lacks the rules:\n%.500s", r.stdout)
	}
	wantUsageError(t, run(t, t.TempDir(), nil, "--list-rules", "--format", "github"), "--list-rules", "github")
}

// TestManifestCommand (issue 10): kokua-lint manifest prints the embedded
// manifest, byte for byte, and a config checked against that output
// gives what it gives against the embedded one.
func TestManifestCommand(t *testing.T) {
	r := run(t, t.TempDir(), nil, "manifest")
	wantCode(t, r, cli.ExitOK)
	if r.stdout != string(lint.DefaultManifest().Source.Data) || r.stderr != "" {
		t.Fatalf("kokua-lint manifest is not the embedded manifest (stderr %q)", r.stderr)
	}
	dir := files(t, map[string]string{"kokua.manifest.json": r.stdout, "config.toml": withError(t)})
	withFile := run(t, dir, nil, "--format", "json", "--manifest", "kokua.manifest.json", "config.toml")
	embedded := run(t, dir, nil, "--format", "json", "config.toml")
	if withFile.code != cli.ExitFindings || withFile.stdout != embedded.stdout {
		t.Errorf("against the printed manifest:\n%s\nagainst the embedded one:\n%s", withFile.stdout, embedded.stdout)
	}
}

// TestSARIFFile (issue 10, the action's one run): --sarif-file writes the
// SARIF log of the same findings the main format printed, and exits as
// that run does.
func TestSARIFFile(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": withError(t)})
	r := run(t, dir, nil, "--format", "github", "--sarif-file", "kokua-lint.sarif", "config.toml")
	wantCode(t, r, cli.ExitFindings)
	if !strings.HasPrefix(r.stdout, "::error file=config.toml,") {
		t.Errorf("no annotation: %q", r.stdout)
	}
	alone := run(t, dir, nil, "--format", "sarif", "config.toml")
	data, err := os.ReadFile(filepath.Join(dir, "kokua-lint.sarif"))
	if err != nil || string(data) != alone.stdout {
		t.Errorf("the SARIF file differs from --format sarif (%v):\n%s", err, data)
	}
	wantUsageError(t, run(t, dir, nil, "--sarif-file", dir, "config.toml"), "cannot write", "directory")
}
