package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

// reportCase is a file of testdata/report/team-diff.
func reportCase(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(golden.Root(t), "testdata", "report", "team-diff", name)
}

// TestReport: the page goes to stdout or to -o, the same bytes; a policy
// file gives the page of its agents without the config's lines; the page
// of a config with errors is not written.
func TestReport(t *testing.T) {
	cfg := shippedPath(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "report", cfg).Split()
	if code != cli.ExitOK || stderr != "" || !strings.HasPrefix(stdout, "<!DOCTYPE html>") {
		t.Fatalf("report: exit %d, stderr %q", code, stderr)
	}
	if r := clitest.Run(Main, "kokua-compile", "", "report", "-o", out, cfg); r.Code != cli.ExitOK || r.Stdout != "" {
		t.Fatalf("report -o: %+v", r)
	}
	data, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(data, []byte(stdout)) {
		t.Errorf("-o wrote other bytes than stdout (%v)", err)
	}
	pol := filepath.Join(dir, "policy.json")
	if r := clitest.Run(Main, "kokua-compile", "", "-o", pol, cfg); r.Code != cli.ExitOK {
		t.Fatalf("compile: %+v", r)
	}
	code, stdout, stderr = clitest.Run(Main, "kokua-compile", "", "report", pol).Split()
	if code != cli.ExitOK || !strings.Contains(stdout, `"f":"shipped.config.toml"`) || strings.Contains(stdout, `"t":`) {
		t.Errorf("report of a policy: exit %d, stderr %q", code, stderr)
	}
	broken := filepath.Join(dir, "broken.toml")
	if err := os.WriteFile(broken, []byte(brokenConfig(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := filepath.Join(dir, "broken.html")
	if code, _, stderr := clitest.Run(Main, "kokua-compile", "", "report", "-o", out2, broken).Split(); code != cli.ExitFindings || !strings.Contains(stderr, "no report was written") {
		t.Errorf("report of a broken config: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("a broken config's report was written (%v)", err)
	}
}

// TestReportOutputIsNoInput: -o naming the config, the manifest or the
// base is a usage error, and the file is left as it was; so is a folder.
func TestReportOutputIsNoInput(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	base := filepath.Join(dir, "base.toml")
	copyFile(t, reportCase(t, "config.toml"), cfg)
	copyFile(t, reportCase(t, "base.toml"), base)
	for _, args := range [][]string{
		{"report", "-o", cfg, cfg},
		{"report", "--base", base, "-o", base, cfg},
		{"report", "-o", dir, cfg},
		{"report", "-o", os.DevNull, cfg},
	} {
		r := clitest.Run(Main, "kokua-compile", "", args...)
		if r.Code != cli.ExitUsage || r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want a usage error", args, r.Code, r.Stderr)
		}
	}
	for path, want := range map[string]string{cfg: reportCase(t, "config.toml"), base: reportCase(t, "base.toml")} {
		got, _ := os.ReadFile(path)
		orig, _ := os.ReadFile(want)
		if !bytes.Equal(got, orig) {
			t.Errorf("%s was changed", path)
		}
	}
}

// TestReportBase: --base with a file lists the change's widened cells
// first; --base REF reads the config at a git revision, as diff --base
// does, to the same page but for the base's name.
func TestReportBase(t *testing.T) {
	code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "report", "--base", reportCase(t, "base.toml"), reportCase(t, "config.toml")).Split()
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	widened, narrowed := strings.Index(stdout, `id="widened-h"`), strings.Index(stdout, `id="narrowed-h"`)
	if widened < 0 || narrowed < widened || !strings.Contains(stdout, "11 widened, 5 narrowed") {
		t.Errorf("the page does not list 11 widened cells before 5 narrowed ones")
	}
	if !strings.Contains(stdout, "lead now holds documents from the first turn") {
		t.Errorf("the page does not show the residency change")
	}
}

// TestReportBaseRef: --base REF reads the config at a git revision.
func TestReportBaseRef(t *testing.T) {
	needs.Program(t, "git", "Debian's git")
	repo := t.TempDir()
	git := gitIn(t, repo)
	git("init", "-q")
	cfg := filepath.Join(repo, "config.toml")
	copyFile(t, reportCase(t, "base.toml"), cfg)
	git("add", "config.toml")
	git("commit", "-q", "-m", "base")
	copyFile(t, reportCase(t, "config.toml"), cfg)
	t.Chdir(repo)
	code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "report", "--base", "HEAD", "config.toml").Split()
	if code != cli.ExitOK || !strings.Contains(stdout, "HEAD:config.toml: 5 critical, 10 high, 3 medium, 3 info; 11 widened, 5 narrowed") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	code, _, stderr = clitest.Run(Main, "kokua-compile", "", "report", "--base", "no-such-ref", "config.toml").Split()
	if code != cli.ExitUsage || !strings.Contains(stderr, "no-such-ref is no revision") {
		t.Errorf("a bad ref: exit %d: %s", code, stderr)
	}
}

// reportChange writes the team's base and its config with text replaced
// (pairs of old and new) into a folder, and returns the two paths.
func reportChange(t *testing.T, config string, replace ...string) (base, changed string) {
	t.Helper()
	dir := t.TempDir()
	base, changed = filepath.Join(dir, "base.toml"), filepath.Join(dir, "config.toml")
	copyFile(t, reportCase(t, "base.toml"), base)
	data, err := os.ReadFile(reportCase(t, config))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for i := 0; i < len(replace); i += 2 {
		if !strings.Contains(text, replace[i]) {
			t.Fatalf("%s has no %q", config, replace[i])
		}
		text = strings.Replace(text, replace[i], replace[i+1], 1)
	}
	if err := os.WriteFile(changed, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return base, changed
}

// TestReportFailOn: report --base says the verdict of diff --fail-on, any
// unless --fail-on says otherwise, and exits 0 either way (the page is
// the view; diff is the gate). --fail-on takes diff's values, and only
// with --base.
func TestReportFailOn(t *testing.T) {
	base, reviewer := reportChange(t, "base.toml", `model = "anthropic:claude-haiku-4-5"`, `model = "anthropic:claude-opus-4-1"`)
	for _, c := range []struct {
		name   string
		args   []string
		config string
		want   string
	}{
		{"the team's change, by default", nil, reportCase(t, "config.toml"), "<strong>Would fail <code>--fail-on any</code></strong>: a change grades critical."},
		{"the team's change, --fail-on critical", []string{"--fail-on", "critical"}, reportCase(t, "config.toml"), "<strong>Would fail <code>--fail-on critical</code></strong>: a change grades critical."},
		{"a reviewer's model, --fail-on high", []string{"--fail-on", "high"}, reviewer, "<strong>Would fail <code>--fail-on high</code></strong>: a change grades high."},
		{"a reviewer's model, --fail-on critical", []string{"--fail-on=critical"}, reviewer,
			"<strong>Passes <code>--fail-on critical</code></strong>: nothing grades critical or above (the most serious grade is high)."},
	} {
		args := append(append([]string{"report", "--base", base}, c.args...), c.config)
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", args...).Split()
		if code != cli.ExitOK || !strings.Contains(stdout, c.want) {
			t.Errorf("%s: exit %d, stderr %q; the page does not say %q", c.name, code, stderr, c.want)
		}
		if strings.Contains(stdout, "Nothing widened") {
			t.Errorf("%s: the page says \"Nothing widened\"", c.name)
		}
	}
	for _, args := range [][]string{
		{"report", "--base", base, "--fail-on", "low", reviewer},
		{"report", "--fail-on", "high", reviewer},
	} {
		r := clitest.Run(Main, "kokua-compile", "", args...)
		if r.Code != cli.ExitUsage || r.Stdout != "" || !strings.Contains(r.Stderr, "--fail-on") {
			t.Errorf("%q: exit %d, stderr %q; want a usage error about --fail-on", args, r.Code, r.Stderr)
		}
	}
}

// TestReportRefusesATerminal (issue 38): report without -o, its standard
// output a terminal, is a usage error, exit 2, whose one line says to
// write the page with -o; nothing reaches the terminal. With -o, or with
// standard output a file, the page is written.
func TestReportRefusesATerminal(t *testing.T) {
	cfg := filepath.Join(golden.Root(t), "examples", "shipped.config.toml")
	tty := clitest.Terminal(t)
	r := clitest.RunTo(Main, "kokua-compile", nil, tty, "report", cfg)
	want := "kokua-compile: report: the page is an HTML file, and standard output is a terminal: write it with -o report.html (or redirect standard output to a file), then open it in a browser\n"
	if r.Code != cli.ExitUsage || r.Stderr != want {
		t.Errorf("report to a terminal: exit %d, stderr %q; want 2 and %q", r.Code, r.Stderr, want)
	}
	out := filepath.Join(t.TempDir(), "report.html")
	if r := clitest.RunTo(Main, "kokua-compile", nil, tty, "report", "-o", out, cfg); r.Code != cli.ExitOK {
		t.Errorf("report -o with a terminal: exit %d: %s", r.Code, r.Stderr)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(data), "<!DOCTYPE html>") {
		t.Errorf("report -o wrote %.40q (%v)", data, err)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "redirected.html"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if r := clitest.RunTo(Main, "kokua-compile", nil, f, "report", cfg); r.Code != cli.ExitOK {
		t.Errorf("report > file: exit %d: %s", r.Code, r.Stderr)
	}
}

// TestReportCountsToolsAsManifest (issue 38): the page's tool count says
// what it counts, and its toolsets' share is the count kokua-compile
// manifest gives of the same install; the rest are core tools.
func TestReportCountsToolsAsManifest(t *testing.T) {
	cfg := shippedPath(t)
	r := clitest.Run(Main, "kokua-compile", "", "manifest", "-o", filepath.Join(t.TempDir(), "m.json"), cfg)
	m := regexp.MustCompile(`, (\d+) tools\n$`).FindStringSubmatch(r.Stderr)
	if r.Code != cli.ExitOK || m == nil {
		t.Fatalf("manifest: exit %d, stderr %q", r.Code, r.Stderr)
	}
	page := clitest.Run(Main, "kokua-compile", "", "report", cfg).Stdout
	f := regexp.MustCompile(`<dd id="fact-tools">(\d+): (\d+) of the toolsets \(as <code>kokua-compile manifest</code> counts them\) and (\d+) core</dd>`).FindStringSubmatch(page)
	if f == nil {
		t.Fatalf("the page's tool count does not say what it counts")
	}
	all, toolsets, core := atoi(t, f[1]), atoi(t, f[2]), atoi(t, f[3])
	if toolsets != atoi(t, m[1]) || all != toolsets+core || core == 0 {
		t.Errorf("the page counts %d tools, %d of the toolsets and %d core; the manifest %s", all, toolsets, core, m[1])
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
