package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// testResults runs kokua-compile test --format json with args and returns
// the exit code and each claim's title with whether it passed.
func testResults(t *testing.T, dir string, args ...string) (int, map[string]bool, string) {
	t.Helper()
	r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", append([]string{"test", "--format", "json"}, args...)...)
	if r.Code == cli.ExitUsage {
		return r.Code, nil, r.Stderr
	}
	var rep struct {
		Results []struct {
			Title  string `json:"title"`
			Passed bool   `json:"passed"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil {
		t.Fatalf("%q: %v\n%s", args, err, r.Stderr)
	}
	out := map[string]bool{}
	for _, res := range rep.Results {
		out[res.Title] = res.Passed
	}
	return r.Code, out, r.Stderr
}

// TestTestRun (issue 38): --run REGEXP checks the claims whose name
// matches, and exactly those: each run's results are the whole run's,
// kept to the names the expression matches (read with Go's regexp here,
// apart from the command), with the same verdict for each, and the exit
// code is 1 exactly when one of them fails. An expression that matches
// no claim is a usage error, never a pass; one that does not compile is
// too.
func TestTestRun(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join(golden.Root(t), "testdata", "policytest", "team"))
	if err != nil {
		t.Fatal(err)
	}
	code, all, stderr := testResults(t, dir, "config.toml")
	if code != cli.ExitFindings || len(all) != 6 {
		t.Fatalf("the whole run: exit %d, %d claims (%s)", code, len(all), stderr)
	}
	for _, expr := range []string{"shell", "^support", "asks|ask", "nobody", "files", "(?i)CHANGING", "^a deploy", ".", "never runs shell commands$"} {
		code, got, stderr := testResults(t, dir, "--run", expr, "config.toml")
		re := regexp.MustCompile(expr)
		want, failed := map[string]bool{}, false
		for title, passed := range all {
			if re.MatchString(title) {
				want[title] = passed
				failed = failed || !passed
			}
		}
		if len(got) != len(want) {
			t.Errorf("--run %q ran %d claims, want %d: %v", expr, len(got), len(want), got)
		}
		for title, passed := range want {
			if p, ok := got[title]; !ok || p != passed {
				t.Errorf("--run %q: claim %q ran %v passed %v; want it run, passed %v", expr, title, ok, p, passed)
			}
		}
		if wantCode := map[bool]int{true: cli.ExitFindings, false: cli.ExitOK}[failed]; code != wantCode {
			t.Errorf("--run %q: exit %d, want %d (%s)", expr, code, wantCode, stderr)
		}
	}
	for _, c := range []struct{ expr, says string }{
		{"no such claim", `--run "no such claim" matches the name of no claim of kokua.test.toml`},
		{"(", `--run "(" is no regular expression`},
	} {
		r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", "--run", c.expr, "config.toml")
		if r.Code != cli.ExitUsage || r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, c.says) {
			t.Errorf("--run %q: exit %d, stderr %q; want 2 and %q", c.expr, r.Code, r.Stderr, c.says)
		}
	}
	// The pattern forgotten, --run takes the config: it is said so.
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--run", "config.toml"}, "--run took config.toml as its REGEXP, and no config is named: give the pattern after --run, then the config"},
		{[]string{"--run", "nosuch"}, "test: name a config or a compiled policy"},
	} {
		r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", append([]string{"test"}, c.args...)...)
		if r.Code != cli.ExitUsage || r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, c.says) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, r.Code, r.Stderr, c.says)
		}
	}
}

// TestTestClaimsOnly (issue 38): with --claims-only, which the kokua-test
// pre-commit hook passes, a config with errors gets one line on stderr,
// not the findings the kokua-lint hook has printed, and exit 1; a config
// that compiles gets the same report as without it.
func TestTestClaimsOnly(t *testing.T) {
	dir := folderOfConfigs(t)
	broken := filepath.Join(dir, "team", "config.toml")
	data := strings.Replace(mustRead(t, broken), `"mcp.add_mcp_server", "config`, `"mcp.add_mcp_servr", "config`, 1)
	writeFile(t, broken, []byte(data))
	r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", "--claims-only", "team/config.toml")
	want := "kokua-compile: team/config.toml has 1 error(s), the first pending-dead-entry at team/config.toml:6:39, so its claims were not checked; kokua-lint reports them\n"
	if r.Code != cli.ExitFindings || r.Stdout != "" || r.Stderr != want {
		t.Errorf("--claims-only of a broken config: exit %d, stdout %q, stderr %q; want 1 and %q", r.Code, r.Stdout, r.Stderr, want)
	}
	if r := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", "team/config.toml"); r.Code != cli.ExitFindings || !strings.Contains(r.Stderr, "[pending-dead-entry]") {
		t.Errorf("without --claims-only the findings are printed: exit %d, stderr %q", r.Code, r.Stderr)
	}
	full := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", "config.toml")
	only := clitest.RunIn(t, Main, "kokua-compile", dir, nil, "", "test", "--claims-only", "config.toml")
	if only != full || full.Code != cli.ExitOK {
		t.Errorf("--claims-only of a clean config differs: %+v\n%+v", only, full)
	}
}
