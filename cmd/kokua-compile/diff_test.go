package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
)

// run runs kokua-compile in process on the arguments after the program.
func diffCase(t *testing.T, name string) (oldFile, newFile string) {
	t.Helper()
	dir := filepath.Join(golden.Root(t), "testdata", "diff", name)
	return filepath.Join(dir, "old.toml"), filepath.Join(dir, "new.toml")
}

// compileTo compiles a config into a policy file in a temporary folder.
func compileTo(t *testing.T, config, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	if code, _, stderr := clitest.Run(Main, "kokua-compile", "", "-o", out, config).Split(); code != 0 {
		t.Fatalf("compiling %s: exit %d: %s", config, code, stderr)
	}
	return out
}

// TestDiffExitCodes: exit 1 when something widens, 0 when nothing does or
// with --allow-widen, which still prints the report.
func TestDiffExitCodes(t *testing.T) {
	wOld, wNew := diffCase(t, "gate-removed")
	nOld, nNew := diffCase(t, "gate-added")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"widened", []string{"diff", wOld, wNew}, cli.ExitFindings, "write_file: review: asks the user -> runs unasked"},
		{"allow-widen", []string{"diff", "--allow-widen", wOld, wNew}, cli.ExitOK, "4 widened"},
		{"narrowed", []string{"diff", nOld, nNew}, cli.ExitOK, "0 widened"},
		{"reversed", []string{"diff", wNew, wOld}, cli.ExitOK, "0 widened, 4 narrowed"},
		{"markdown", []string{"diff", "--format", "markdown", wOld, wNew}, cli.ExitFindings, "| ⚠️ widened | ⚠️ high | `edit_file`, `write_file` |"},
		{"json", []string{"diff", "--format", "json", "--allow-widen", wOld, wNew}, cli.ExitOK, `"widened": true`},
	}
	for _, tt := range tests {
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", tt.args...).Split()
		if code != tt.code || !strings.Contains(stdout, tt.want) {
			t.Errorf("%s: exit %d (want %d), stdout lacks %q:\n%s%s", tt.name, code, tt.code, tt.want, stdout, stderr)
		}
	}
}

// TestDiffPolicies: a compiled policy on either side gives the same report
// as its config, but for the lines a policy does not record (toolset
// items: only approval entries carry positions in a policy). A policy
// side's places name the config it records (its base name), never the
// policy file (issue 21: "(policy.json:7:11 ...)" named a line of the
// config by the policy's name).
func TestDiffPolicies(t *testing.T) {
	oldFile, newFile := diffCase(t, "gate-removed")
	oldPolicy, newPolicy := compileTo(t, oldFile, "old.json"), compileTo(t, newFile, "new.json")
	_, fromConfigs, _ := clitest.Run(Main, "kokua-compile", "", "diff", "--format", "json", oldFile, newFile).Split()
	for _, args := range [][]string{{oldPolicy, newPolicy}, {oldFile, newPolicy}, {oldPolicy, newFile}} {
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", append([]string{"diff", "--format", "json"}, args...)...).Split()
		if code != cli.ExitFindings {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		normalize := strings.NewReplacer(oldPolicy, "OLD", newPolicy, "NEW", oldFile, "OLD", newFile, "NEW", `"old.toml"`, `"OLD"`, `"new.toml"`, `"NEW"`)
		if strings.Contains(stdout, `"file": "`+oldPolicy) || strings.Contains(stdout, `"file": "`+newPolicy) {
			t.Errorf("%v: a place names a policy file:\n%s", args, stdout)
		}
		// A policy records the line and column of approval entries only;
		// every other place (a list's key, an available item, the hops of
		// a risk path) names the key alone.
		lines := regexp.MustCompile(`"line": [0-9]+,\s*"column": [0-9]+`)
		flat := func(s string) string { return lines.ReplaceAllString(normalize.Replace(s), `"line": 0, "column": 0`) }
		if flat(stdout) != flat(fromConfigs) {
			t.Errorf("%v: the report differs from the configs' report:\n%s\n---\n%s", args, stdout, fromConfigs)
		}
	}
	// A policy records no position for an available item: the key alone.
	aOld, aNew := diffCase(t, "available-gained")
	_, stdout, _ := clitest.Run(Main, "kokua-compile", "", "diff", compileTo(t, aOld, "a.json"), compileTo(t, aNew, "b.json")).Split()
	if !strings.Contains(stdout, "available gained: fs_write (new.toml [agents.researcher.tools].available)") {
		t.Errorf("the policy diff does not name the available key:\n%s", stdout)
	}
}

func TestDiffErrors(t *testing.T) {
	oldFile, newFile := diffCase(t, "gate-removed")
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.toml")
	data, _ := os.ReadFile(newFile)
	if err := os.WriteFile(broken, bytes.Replace(data, []byte(`"fs_write"`), []byte(`"fs_writ"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	tampered := filepath.Join(dir, "tampered.json")
	policyData, _ := os.ReadFile(compileTo(t, newFile, "p.json"))
	if err := os.WriteFile(tampered, bytes.Replace(policyData, []byte(`"run_command"`), []byte(`"run_commant"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	// Kokua reads inf as a number; a policy cannot hold it, so the side is
	// refused as kokua-compile refuses to write it, never with a bare
	// encoder error.
	infinite := filepath.Join(dir, "infinite.toml")
	if err := os.WriteFile(infinite, append(append([]byte{}, data...), "\n[security.auto_approval]\ntimeout_seconds = inf\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"one file", []string{"diff", oldFile}, cli.ExitUsage, "name two files"},
		{"infinite timeout", []string{"diff", oldFile, infinite}, cli.ExitUsage, "no runtime would load its policy: auto_approval.timeout_seconds: is +Inf, which JSON cannot write"},
		{"missing", []string{"diff", oldFile, filepath.Join(dir, "nope.toml")}, cli.ExitUsage, "cannot read"},
		{"bad format", []string{"diff", "--format", "xml", oldFile, newFile}, cli.ExitUsage, "--format"},
		{"broken config", []string{"diff", oldFile, broken}, cli.ExitFindings, "nothing was compared"},
		{"tampered policy", []string{"diff", oldFile, tampered}, cli.ExitUsage, "digest"},
		{"base with two", []string{"diff", "--base", "HEAD", oldFile, newFile}, cli.ExitUsage, "with --base"},
		{"graph format", []string{"graph", "--format", "png", oldFile}, cli.ExitUsage, "--format"},
		// issue 21: graph said "nothing was compared", agents "nothing was written".
		{"graph broken", []string{"graph", broken}, cli.ExitFindings, "has errors; no graph was drawn\n"},
		{"agents broken", []string{"agents", broken}, cli.ExitFindings, "has errors; no agents were listed\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", tt.args...).Split()
		wrong := tt.args[0] != "diff" && strings.Contains(stderr, "nothing was compared") || strings.Contains(stderr, "nothing was written")
		if code != tt.code || !strings.Contains(stderr, tt.want) || strings.Contains(stderr, "goroutine") || wrong {
			t.Errorf("%s: exit %d (want %d), stderr lacks %q:\n%s%s", tt.name, code, tt.code, tt.want, stdout, stderr)
		}
	}
}

// TestDiffSidesWithErrors (issue 35, Must 7): a side that is a config
// with errors ends diff with exit 1 and, with --format json, a report
// that names every such side and nothing else, which the Action reads to
// tell "the base has errors" from any other exit 1; every side's findings
// are on stderr. A compared report never carries sides_with_errors, and
// a refused policy (exit 2) writes no report at all.
func TestDiffSidesWithErrors(t *testing.T) {
	good, _ := diffCase(t, "gate-removed")
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.toml")
	data, _ := os.ReadFile(good)
	if err := os.WriteFile(broken, bytes.Replace(data, []byte(`"fs_write"`), []byte(`"fs_writ"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	tampered := filepath.Join(dir, "tampered.json")
	policyData, _ := os.ReadFile(compileTo(t, good, "p.json"))
	if err := os.WriteFile(tampered, bytes.Replace(policyData, []byte(`"run_command"`), []byte(`"run_commant"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		old, new string
		code     int
		which    []string // nil: a compared report (or none, for exit 2)
	}{
		{good, good, cli.ExitOK, nil},
		{broken, good, cli.ExitFindings, []string{"old"}},
		{good, broken, cli.ExitFindings, []string{"new"}},
		{broken, broken, cli.ExitFindings, []string{"old", "new"}},
		{tampered, broken, cli.ExitUsage, nil},
		{broken, tampered, cli.ExitUsage, nil},
	} {
		for _, format := range diff.Formats.Names() {
			code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "diff", "--allow-widen", "--format", format, c.old, c.new).Split()
			what := fmt.Sprintf("diff --format %s %s %s", format, filepath.Base(c.old), filepath.Base(c.new))
			if code != c.code {
				t.Errorf("%s: exit %d, want %d: %s", what, code, c.code, stderr)
			}
			if n := strings.Count(stderr, "'fs_writ' names no installed toolset"); n != len(c.which) {
				t.Errorf("%s: stderr has %d sides' findings, want %d:\n%s", what, n, len(c.which), stderr)
			}
			switch {
			case format != "json" && c.which != nil, c.code == cli.ExitUsage:
				if stdout != "" {
					t.Errorf("%s: wrote a report:\n%s", what, stdout)
				}
			case format == "json":
				var got map[string]any
				if err := json.Unmarshal([]byte(stdout), &got); err != nil {
					t.Fatalf("%s: not JSON: %v\n%s", what, err, stdout)
				}
				sides, has := got["sides_with_errors"]
				if c.which == nil {
					if has || got["widened"] == nil {
						t.Errorf("%s: a compared report with sides_with_errors, or without widened:\n%s", what, stdout)
					}
					continue
				}
				want := []any{}
				for _, w := range c.which {
					want = append(want, w)
				}
				if !reflect.DeepEqual(sides, want) || got["compared"] != false || got["old"] != c.old || got["new"] != c.new || len(got) != 4 {
					t.Errorf("%s: %s, want sides_with_errors %v", what, stdout, c.which)
				}
			}
		}
	}
}

// TestDiffNotComparedDoc holds docs/diff.md's example of the object diff
// writes when a side has errors to what writeNotCompared writes.
func TestDiffNotComparedDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "diff.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```json\n(\\{\n  \"old\": [^`]*\"sides_with_errors\"[^`]*)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/diff.md has no json block with sides_with_errors")
	}
	var b bytes.Buffer
	if err := writeNotCompared(&b, "3f2a9c1d0b7e:config.toml", "config.toml", []string{"old"}); err != nil {
		t.Fatal(err)
	}
	if b.String() != string(m[1]) {
		t.Errorf("docs/diff.md shows\n%s\nkokua-compile writes\n%s", m[1], b.String())
	}
}

// TestDiffBase: --base REF reads the old side with git show, from a real
// repository.
func TestDiffBase(t *testing.T) {
	needs.Program(t, "git", "Debian's git")
	oldFile, newFile := diffCase(t, "gate-removed")
	repo := t.TempDir()
	git := gitIn(t, repo)
	git("init", "-q")
	cfg := filepath.Join(repo, "config.toml")
	copyFile(t, oldFile, cfg)
	git("add", "config.toml")
	git("commit", "-q", "-m", "base")
	copyFile(t, newFile, cfg)
	t.Chdir(repo)
	code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "diff", "--base", "HEAD", "config.toml").Split()
	if code != cli.ExitFindings || !strings.HasPrefix(stdout, "HEAD:config.toml -> config.toml: 2 critical, 4 high; 4 widened") {
		t.Errorf("exit %d:\n%s%s", code, stdout, stderr)
	}
	// A full commit hash is named by its first 12 digits (issue 25).
	head, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	sha := strings.TrimSpace(string(head))
	code, stdout, _ = clitest.Run(Main, "kokua-compile", "", "diff", "--base", sha, "config.toml").Split()
	if code != cli.ExitFindings || !strings.HasPrefix(stdout, sha[:12]+":config.toml -> config.toml: ") {
		t.Errorf("a full hash: exit %d:\n%s", code, stdout)
	}
	// --fail-on high fails on it; a report with nothing graded that high
	// would pass.
	if code, _, _ := clitest.Run(Main, "kokua-compile", "", "diff", "--fail-on", "critical", "--base", "HEAD", "config.toml").Split(); code != cli.ExitFindings {
		t.Errorf("--fail-on critical: exit %d, want 1", code)
	}
	code, _, stderr = clitest.Run(Main, "kokua-compile", "", "diff", "--base", "no-such-ref", "config.toml").Split()
	if code != cli.ExitUsage || !strings.Contains(stderr, "no-such-ref is no revision") {
		t.Errorf("a bad ref: exit %d: %s", code, stderr)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDiffDoc holds docs/diff.md to what the commands do: each block after
// a "<!-- test: FILE -->" marker is that golden file, and the action step
// it shows passes the environment variables scripts/action-diff.sh reads.
func TestDiffDoc(t *testing.T) {
	root := golden.Root(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "diff.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	found := golden.DocBlocks(t, root, doc, "docs/diff.md")
	if found == 0 {
		t.Error("docs/diff.md has no tested block")
	}
	script, err := os.ReadFile(filepath.Join(root, "scripts", "action-diff.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"KOKUA_DIFF_BASE", "KOKUA_DIFF_CONFIGS", "KOKUA_DIFF_MANIFEST", "KOKUA_DIFF_ALLOW_WIDEN"} {
		if !strings.Contains(text, "    "+v+": ") || !strings.Contains(string(script), "${"+v) {
			t.Errorf("%s is not passed by docs/diff.md's action step or not read by scripts/action-diff.sh", v)
		}
	}
}

// gitIn runs git commands in repo, as a test user with no signing, and
// fails the test on an error.
func gitIn(t *testing.T, repo string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}
