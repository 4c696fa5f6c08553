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
)

// TestConvention (issue 10, one CLI convention): the checks every
// command passes (clitest.CheckConvention), and flags before and after
// the files.
func TestConvention(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": withError(t), "clean.toml": shipped(t)})
	clitest.CheckConvention(t, Main, "kokua-lint", clitest.Convention{
		Help: "USAGE:\n   kokua-lint [--manifest FILE]",
		Sub:  "manifest", SubHelp: "kokua-lint manifest > kokua.manifest.json",
		Flag: []string{"--format"},
		Dir:  dir,
		Cases: []clitest.Case{
			{Name: "flags after the file", Args: []string{"config.toml", "--format", "json"}, Code: cli.ExitFindings, Stdout: `"rule": "unknown-toolset"`},
			{Name: "flags around the files", Args: []string{"--format", "json", "clean.toml", "--fail-on", "warning", "config.toml"}, Code: cli.ExitFindings, Stdout: `"rule": "unknown-toolset"`},
			{Name: "-- ends the flags", Args: []string{"--format", "json", "--", "config.toml"}, Code: cli.ExitFindings, Stdout: `"rule": "unknown-toolset"`},
			{Name: "a flag without its value", Args: []string{"config.toml", "--format"}, Code: cli.ExitUsage, Stderr: "--format"},
			{Name: "--list-rules with a file", Args: []string{"--list-rules", "config.toml"}, Code: cli.ExitUsage, Stderr: "--list-rules takes no config files"},
			{Name: "mistyped manifest (issue 21)", Args: []string{"manifests"}, Code: cli.ExitUsage, Stderr: "kokua-lint: unknown command 'manifests': did you mean 'manifest'? (see --help)"},
			{Name: "mistyped --format (issue 21)", Args: []string{"config.toml", "--formt", "json"}, Code: cli.ExitUsage, Stderr: "kokua-lint: unknown flag --formt: did you mean --format? (see --help)"},
			{Name: "manifest with an argument", Args: []string{"manifest", "extra"}, Code: cli.ExitUsage, Stderr: "manifest takes no arguments"},
		},
	})
}

// TestStdin (issue 10): - reads the config from standard input, named by
// --stdin-filename in every position; it can be read once.
func TestStdin(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": shipped(t)})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, withError(t), "--format", "json", "--stdin-filename", "deploy/config.toml", "-")
	wantCode(t, r, cli.ExitFindings)
	var report struct {
		Diagnostics []struct {
			Rule string `json:"rule"`
			File string `json:"file"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil || len(report.Diagnostics) != 1 ||
		report.Diagnostics[0].File != "deploy/config.toml" || report.Diagnostics[0].Rule != "unknown-toolset" {
		t.Errorf("%v: %s", err, r.Stdout)
	}
	r = clitest.RunIn(t, Main, "kokua-lint", dir, nil, withError(t), "--color", "never", "-")
	if !strings.HasPrefix(r.Stdout, cli.StdinName+":") {
		t.Errorf("stdin without a name: %q", r.Stdout)
	}
	wantCode(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, shipped(t), "config.toml", "-"), cli.ExitOK)
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "-", "-"), "standard input")
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--stdin-filename", "x", "config.toml"), "--stdin-filename")
}

// TestOnlyKokua (issue 10, pre-commit): under --only-kokua, a file that
// is not Kokua's is skipped with one line on stderr and the rest are
// checked; without it an empty file still gets no-agents.
func TestOnlyKokua(t *testing.T) {
	cargo := "[build]\ntarget = \"x86_64-unknown-linux-gnu\"\n\n[alias]\nb = \"build\"\n"
	hugo := "baseURL = \"https://example.org/\"\ntitle = \"Site\"\n\n[params]\nauthor = \"me\"\n"
	// issue 21: the skip line used to say a file with Hugo's [security]
	// table had none.
	hugoSecurity := "baseURL = \"https://example.org/\"\n\n[security]\nenableInlineShortcodes = false\n"
	dir := files(t, map[string]string{
		".cargo/config.toml": cargo, "site/config.toml": hugo, "secure/config.toml": hugoSecurity, "empty/config.toml": "", "config.toml": withError(t),
	})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--only-kokua", "--color", "never", ".cargo/config.toml", "site/config.toml", "secure/config.toml", "empty/config.toml", "config.toml")
	wantCode(t, r, cli.ExitFindings)
	if strings.Contains(r.Stderr, "no [assistant], [agents], [security]") {
		t.Errorf("a skip line says a file has no [security] table:\n%s", r.Stderr)
	}
	for _, skipped := range []string{".cargo/config.toml", "site/config.toml", "secure/config.toml", "empty/config.toml"} {
		want := "kokua-lint: skipping " + skipped + ": not a Kokua config (it has no [assistant], [agents], [reviewers], [mcp] or [tools] table, and none of Kokua's keys in [security])\n"
		if strings.Count(r.Stderr, want) != 1 {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
		if strings.Contains(r.Stdout, skipped) {
			t.Errorf("%s was checked:\n%s", skipped, r.Stdout)
		}
	}
	if !strings.Contains(r.Stdout, "config.toml:") || strings.Count(r.Stdout, "[unknown-toolset]") != 1 {
		t.Errorf("Kokua's config was not checked once:\n%s", r.Stdout)
	}
	// A policy test file is skipped as one (issue 38), and the hook's
	// exit is the config's.
	tests := files(t, map[string]string{"kokua.test.toml": "[[expect]]\nname = \"n\"\nagent = \"a\"\ntool = \"web\"\ndecision = \"unavailable\"\n"})
	r = clitest.RunIn(t, Main, "kokua-lint", tests, nil, "", "--only-kokua", "kokua.test.toml")
	if want := "kokua-lint: skipping kokua.test.toml: a policy test file ([[expect]] claims, which kokua-compile test checks), not a config\n"; r.Code != cli.ExitOK || r.Stdout != "" || r.Stderr != want {
		t.Errorf("--only-kokua kokua.test.toml: exit %d, stdout %q, stderr %q; want 0 and %q", r.Code, r.Stdout, r.Stderr, want)
	}
	r = clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--only-kokua", "site/config.toml")
	if r.Code != cli.ExitOK || r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 {
		t.Errorf("only a Hugo config: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	r = clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "json", "empty/config.toml")
	if r.Code != cli.ExitFindings || !strings.Contains(r.Stdout, `"rule": "no-agents"`) {
		t.Errorf("an empty file by hand: exit %d, %s", r.Code, r.Stdout)
	}
}

// TestListRulesFormats (issue 10): --list-rules honours --format, and
// lists lint.Rules (issue 40).
func TestListRulesFormats(t *testing.T) {
	all := lint.Rules()
	r := clitest.RunIn(t, Main, "kokua-lint", t.TempDir(), nil, "", "--list-rules", "--format", "json")
	wantCode(t, r, cli.ExitOK)
	var listed struct {
		Rules []struct {
			ID, Severity, Phase, Summary string
			Fixes, Refs                  []string
			HelpURI                      string `json:"help_uri"`
		} `json:"rules"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &listed); err != nil || len(listed.Rules) != len(all) {
		t.Fatalf("%v; %d rules listed, want %d", err, len(listed.Rules), len(all))
	}
	for i, rule := range all {
		got := listed.Rules[i]
		if got.ID != rule.ID || got.Severity != rule.Severity.String() || got.Phase != string(rule.Phase) ||
			got.Summary != rule.Summary || strings.Join(got.Refs, " ") != strings.Join(rule.Refs, " ") ||
			strings.Join(got.Fixes, " ") != strings.Join(rule.Fixes, " ") || got.HelpURI != rule.HelpURI {
			t.Errorf("rule %d: %+v, want %s", i, got, rule.ID)
		}
	}
	r = clitest.RunIn(t, Main, "kokua-lint", t.TempDir(), nil, "", "--format", "sarif", "--list-rules")
	wantCode(t, r, cli.ExitOK)
	if !strings.Contains(r.Stdout, `"version": "2.1.0"`) || !strings.Contains(r.Stdout, `"id": "unknown-toolset"`) {
		t.Errorf("the SARIF listing lacks the rules:\n%.500s", r.Stdout)
	}
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", t.TempDir(), nil, "", "--list-rules", "--format", "github"), "--list-rules", "github")
}

// TestManifestCommand (issue 10): kokua-lint manifest prints the embedded
// manifest, byte for byte, and a config checked against that output
// gives what it gives against the embedded one.
func TestManifestCommand(t *testing.T) {
	r := clitest.RunIn(t, Main, "kokua-lint", t.TempDir(), nil, "", "manifest")
	wantCode(t, r, cli.ExitOK)
	if r.Stdout != string(lint.DefaultManifest().Source.Data) || r.Stderr != "" {
		t.Fatalf("kokua-lint manifest is not the embedded manifest (stderr %q)", r.Stderr)
	}
	dir := files(t, map[string]string{"kokua.manifest.json": r.Stdout, "config.toml": withError(t)})
	withFile := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "json", "--manifest", "kokua.manifest.json", "config.toml")
	embedded := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "json", "config.toml")
	if withFile.Code != cli.ExitFindings || withFile.Stdout != embedded.Stdout {
		t.Errorf("against the printed manifest:\n%s\nagainst the embedded one:\n%s", withFile.Stdout, embedded.Stdout)
	}
}

// TestSARIFFile (issue 10, the action's one run): --sarif-file writes the
// SARIF log of the same findings the main format printed, and exits as
// that run does.
func TestSARIFFile(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": withError(t)})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "github", "--sarif-file", "kokua-lint.sarif", "config.toml")
	wantCode(t, r, cli.ExitFindings)
	if !strings.HasPrefix(r.Stdout, "::error file=config.toml,") {
		t.Errorf("no annotation: %q", r.Stdout)
	}
	alone := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "sarif", "config.toml")
	data, err := os.ReadFile(filepath.Join(dir, "kokua-lint.sarif"))
	if err != nil || string(data) != alone.Stdout {
		t.Errorf("the SARIF file differs from --format sarif (%v):\n%s", err, data)
	}
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--sarif-file", dir, "config.toml"), "cannot write", "directory")
}
