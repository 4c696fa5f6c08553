package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/lint"
)

// root is the repository's folder. The tests change the working folder
// to run kokua-lint where its inputs are, so paths into the repository
// are made absolute once, before any test runs.
var root = func() string {
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return abs
}()

// shipped is the config Kokua ships: it lints clean.
func shipped(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "testdata", "lint", "shipped", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// withError adds an unknown toolset (an error) to the shipped config.
func withError(t *testing.T) string {
	return strings.Replace(shipped(t), `available = ["web", "misc"`, `available = ["webb", "misc"`, 1)
}

// withWarning adds a section of a toolset no agent declares (a warning, and
// nothing else) to the shipped config.
func withWarning(t *testing.T) string {
	return shipped(t) + "\n[github_backup]\nrepo = \"me/kokua-state\"\n"
}

// files writes name -> content into a fresh directory and returns it.
func files(t *testing.T, contents map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range contents {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func wantCode(t *testing.T, r clitest.Result, code int) {
	t.Helper()
	if r.Code != code {
		t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.Code, code, r.Stdout, r.Stderr)
	}
}

// wantUsageError checks a refusal: exit 2, one line on stderr that names
// what it is about, nothing on stdout, and no Go panic or stack trace.
func wantUsageError(t *testing.T, r clitest.Result, mentions ...string) {
	t.Helper()
	wantOneLineError(t, r, cli.ExitUsage, mentions...)
}

// wantWriteError is wantUsageError for output that could not be written:
// ExitInternal, never ExitUsage.
func wantWriteError(t *testing.T, r clitest.Result, mentions ...string) {
	t.Helper()
	wantOneLineError(t, r, cli.ExitInternal, mentions...)
}

// wantOneLineError checks a run ended with code, nothing on stdout and
// one line on stderr that mentions each of mentions.
func wantOneLineError(t *testing.T, r clitest.Result, code int, mentions ...string) {
	t.Helper()
	wantCode(t, r, code)
	if r.Stdout != "" {
		t.Errorf("stdout should be empty, got:\n%s", r.Stdout)
	}
	if n := strings.Count(r.Stderr, "\n"); n != 1 || !strings.HasSuffix(r.Stderr, "\n") {
		t.Errorf("stderr should be one line, got %d:\n%s", n, r.Stderr)
	}
	if !strings.HasPrefix(r.Stderr, "kokua-lint: ") {
		t.Errorf("stderr should start with 'kokua-lint: ', got %q", r.Stderr)
	}
	for _, s := range []string{"panic", "goroutine ", ".go:"} {
		if strings.Contains(r.Stderr, s) {
			t.Errorf("stderr looks like a Go crash (%q):\n%s", s, r.Stderr)
		}
	}
	for _, m := range mentions {
		if !strings.Contains(r.Stderr, m) {
			t.Errorf("stderr should mention %q, got %q", m, r.Stderr)
		}
	}
}

const embeddedNote = "kokua-lint: no --manifest given: checking against the embedded default Kokua install (23 toolsets)\n"

func TestShippedConfigIsClean(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": shipped(t)})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "config.toml")
	wantCode(t, r, cli.ExitOK)
	if r.Stdout != "" {
		t.Errorf("stdout should be empty for the shipped config, got:\n%s", r.Stdout)
	}
	if r.Stderr != embeddedNote {
		t.Errorf("stderr should be the embedded-manifest note, got %q", r.Stderr)
	}
}

func TestErrorExitsOne(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": withError(t)})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--color", "never", "config.toml")
	wantCode(t, r, cli.ExitFindings)
	for _, s := range []string{"config.toml:24:", "error:", "'webb'", "[unknown-toolset]", "1 error, 0 warnings, 0 info\n"} {
		if !strings.Contains(r.Stdout, s) {
			t.Errorf("stdout should contain %q, got:\n%s", s, r.Stdout)
		}
	}
	// --fail-on warning fails on errors too.
	wantCode(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--fail-on", "warning", "config.toml"), cli.ExitFindings)
}

func TestFailOn(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": withWarning(t)})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--color", "never", "config.toml")
	wantCode(t, r, cli.ExitOK)
	if !strings.Contains(r.Stdout, "[unused-section]") || !strings.HasSuffix(r.Stdout, "0 errors, 1 warning, 0 info\n") {
		t.Errorf("want exactly the unused-section warning, got:\n%s", r.Stdout)
	}
	wantCode(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--fail-on", "warning", "config.toml"), cli.ExitFindings)
	wantCode(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--fail-on", "error", "config.toml"), cli.ExitOK)
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--fail-on", "info", "config.toml"), "--fail-on")
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--fail-on", "bogus", "config.toml"), "--fail-on", "bogus")
}

func TestUnreadableInputs(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": shipped(t), "sub/keep": ""})
	t.Run("missing", func(t *testing.T) {
		wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "nosuch.toml"), "nosuch.toml", "no such file")
	})
	t.Run("directory", func(t *testing.T) {
		wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "sub"), "sub", "a folder with no Kokua config below it")
	})
	t.Run("no-arguments", func(t *testing.T) {
		wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, ""), "no arguments", "CONFIG")
	})
	t.Run("no-config", func(t *testing.T) {
		wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--fail-on", "warning"), "config")
	})
	t.Run("too-large", func(t *testing.T) {
		path := filepath.Join(dir, "huge.toml")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		// A sparse file one byte over the limit: it reads as zeros.
		if err := f.Truncate(lint.MaxInputBytes + 1); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "huge.toml"), "huge.toml", "16 MiB")
	})
	t.Run("exactly-the-limit", func(t *testing.T) {
		// A config of exactly 16 MiB is read (and linted: padding is a comment).
		data := []byte(shipped(t))
		pad := lint.MaxInputBytes - len(data) - 1
		data = append(data, '#')
		data = append(data, bytes.Repeat([]byte{' '}, pad)...)
		path := filepath.Join(dir, "big.toml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "big.toml")
		wantCode(t, r, cli.ExitOK)
	})
}

func TestBadFlags(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": shipped(t)})
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "bogus", "config.toml"), "--format", "bogus")
	wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--color", "sometimes", "config.toml"), "--color", "sometimes")
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--no-such-flag", "config.toml")
	wantCode(t, r, cli.ExitUsage)
	if strings.Contains(r.Stderr, "goroutine ") {
		t.Errorf("an unknown flag crashed:\n%s", r.Stderr)
	}
}

func TestJSONOutput(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": withError(t)})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "json", "config.toml")
	wantCode(t, r, cli.ExitFindings)
	if r.Stderr != "" {
		t.Errorf("stderr should be empty with --format json, got %q", r.Stderr)
	}
	var report struct {
		Diagnostics []map[string]any `json:"diagnostics"`
	}
	dec := json.NewDecoder(strings.NewReader(r.Stdout))
	dec.UseNumber()
	if err := dec.Decode(&report); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, r.Stdout)
	}
	if len(report.Diagnostics) != 1 {
		t.Fatalf("want one diagnostic, got %d:\n%s", len(report.Diagnostics), r.Stdout)
	}
	d := report.Diagnostics[0]
	fields := []string{"rule", "severity", "phase", "message", "file", "line", "column", "end_line", "end_column", "key", "suggestion", "refs"}
	for _, f := range fields {
		if _, ok := d[f]; !ok {
			t.Errorf("diagnostic lacks the field %q: %v", f, d)
		}
	}
	if len(d) != len(fields) {
		t.Errorf("diagnostic has %d fields, want the %d documented ones: %v", len(d), len(fields), d)
	}
	want := map[string]any{"rule": "unknown-toolset", "severity": "error", "phase": "validate", "file": "config.toml",
		"line": json.Number("24"), "column": json.Number("14"), "end_line": json.Number("24"), "end_column": json.Number("20"),
		"key": "[agents.researcher.tools].available"}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("%s = %v, want %v", k, d[k], v)
		}
	}
	if refs, ok := d["refs"].([]any); !ok || len(refs) == 0 {
		t.Errorf("refs should be a non-empty list, got %v", d["refs"])
	}

	clean := files(t, map[string]string{"config.toml": shipped(t)})
	r = clitest.RunIn(t, Main, "kokua-lint", clean, nil, "", "--format", "json", "config.toml")
	wantCode(t, r, cli.ExitOK)
	if r.Stdout != "{\n  \"diagnostics\": []\n}\n" {
		t.Errorf("a clean config should give an empty diagnostics list, got %q", r.Stdout)
	}
}

// TestSeveralConfigs lints two files in one call, as pre-commit passes them:
// both files' findings, sorted by file whatever the argument order.
func TestSeveralConfigs(t *testing.T) {
	dir := files(t, map[string]string{"a/config.toml": withError(t), "b/config.toml": withWarning(t), "c/config.toml": shipped(t)})
	r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--color", "never", "b/config.toml", "c/config.toml", "a/config.toml")
	wantCode(t, r, cli.ExitFindings)
	a := strings.Index(r.Stdout, "a/config.toml:24:14: error:")
	b := strings.Index(r.Stdout, "b/config.toml:41:1: warning:")
	if a < 0 || b < 0 || a > b {
		t.Errorf("want a/config.toml's error before b/config.toml's warning, got:\n%s", r.Stdout)
	}
	if strings.Contains(r.Stdout, "c/config.toml") {
		t.Errorf("the clean config should report nothing:\n%s", r.Stdout)
	}
	if !strings.HasSuffix(r.Stdout, "1 error, 1 warning, 0 info\n") {
		t.Errorf("want one summary line for the whole run, got:\n%s", r.Stdout)
	}

	r = clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "json", "b/config.toml", "a/config.toml")
	var report lint.JSONReport
	if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range report.Diagnostics {
		got = append(got, d.File)
	}
	if strings.Join(got, " ") != "a/config.toml b/config.toml" {
		t.Errorf("JSON diagnostics in file order %v, want a/config.toml then b/config.toml", got)
	}
}

// TestSeveralConfigsOneUnreadable (issue 21 Must 5): one file that
// cannot be read no longer hides the others: each readable config is
// linted and reported, each unreadable one gets its line on stderr, and
// the exit code is the worst of the run, 2 when any could not be read.
func TestSeveralConfigsOneUnreadable(t *testing.T) {
	dir := files(t, map[string]string{"bad.toml": withError(t), "clean.toml": shipped(t), "sub/keep": ""})
	for _, c := range []struct {
		name string
		args []string
		// report is what stdout must hold; "" for nothing.
		report string
	}{
		{"a clean config and a missing one", []string{"clean.toml", "nosuch.toml"}, ""},
		{"a missing one first", []string{"nosuch.toml", "bad.toml"}, "bad.toml:24:14: error:"},
		{"a config with errors, a missing one and a folder", []string{"bad.toml", "nosuch.toml", "sub", "clean.toml"}, "1 error, 0 warnings, 0 info\n"},
		{"in JSON", []string{"--format", "json", "bad.toml", "nosuch.toml"}, `"rule": "unknown-toolset"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", append([]string{"--color", "never"}, c.args...)...)
			wantCode(t, r, cli.ExitUsage)
			if c.report == "" && r.Stdout != "" || !strings.Contains(r.Stdout, c.report) {
				t.Errorf("stdout %q, want it to hold %q", r.Stdout, c.report)
			}
			for _, a := range c.args {
				if a == "nosuch.toml" || a == "sub" {
					if !strings.Contains(r.Stderr, "kokua-lint: cannot read "+a+": ") && !strings.Contains(r.Stderr, "kokua-lint: "+a+" is a folder with no Kokua config below it") {
						t.Errorf("stderr %q has no line for %s", r.Stderr, a)
					}
				}
			}
			if strings.Contains(r.Stderr, "cannot read bad.toml") || strings.Contains(r.Stderr, "cannot read clean.toml") {
				t.Errorf("stderr %q says a readable config could not be read", r.Stderr)
			}
		})
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestColor(t *testing.T) {
	dir := files(t, map[string]string{"config.toml": withError(t)})
	for _, c := range []struct {
		name  string
		env   []string
		args  []string
		color bool
	}{
		{"auto-on-a-pipe", nil, nil, false},
		{"NO_COLOR", []string{"NO_COLOR=1"}, nil, false},
		{"NO_COLOR-auto", []string{"NO_COLOR=1"}, []string{"--color", "auto"}, false},
		{"never", nil, []string{"--color", "never"}, false},
		{"always", nil, []string{"--color", "always"}, true},
		// An explicit flag outranks the environment (no-color.org).
		{"always-beats-NO_COLOR", []string{"NO_COLOR=1"}, []string{"--color", "always"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := clitest.RunIn(t, Main, "kokua-lint", dir, c.env, "", append(c.args, "config.toml")...)
			wantCode(t, r, cli.ExitFindings)
			if got := ansi.MatchString(r.Stdout); got != c.color {
				t.Errorf("ANSI colour in output: %v, want %v:\n%q", got, c.color, r.Stdout)
			}
			if strings.Contains(r.Stderr, "\x1b") {
				t.Errorf("stderr holds an escape sequence: %q", r.Stderr)
			}
			plain := ansi.ReplaceAllString(r.Stdout, "")
			if strings.Contains(plain, "\x1b") {
				t.Errorf("output holds an escape that is not a colour: %q", r.Stdout)
			}
			if c.color {
				never := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--color", "never", "config.toml")
				if plain != never.Stdout {
					t.Errorf("coloured output differs from plain output beyond the colour:\n%s\n---\n%s", plain, never.Stdout)
				}
			}
		})
	}
}

func TestListRules(t *testing.T) {
	r := clitest.RunIn(t, Main, "kokua-lint", t.TempDir(), nil, "", "--list-rules")
	wantCode(t, r, cli.ExitOK)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	all := rules.All()
	if len(lines) != len(all) {
		t.Errorf("%d lines for %d rules:\n%s", len(lines), len(all), r.Stdout)
	}
	for i, rule := range all {
		if i >= len(lines) {
			break
		}
		fields := strings.Fields(lines[i])
		if len(fields) < 3 || fields[0] != rule.ID || fields[1] != rule.Severity.String() || fields[2] != string(rule.Phase) {
			t.Errorf("line %d = %q, want rule %s (%s, %s)", i+1, lines[i], rule.ID, rule.Severity, rule.Phase)
		}
		for _, ref := range rule.Refs {
			if !strings.Contains(lines[i], ref) {
				t.Errorf("line %d does not cite %s: %q", i+1, ref, lines[i])
			}
		}
	}
}

func TestManifestFlag(t *testing.T) {
	defaultManifest, err := os.ReadFile(filepath.Join(root, "internal", "manifest", "default.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := files(t, map[string]string{
		"config.toml":   shipped(t),
		"good.json":     string(defaultManifest),
		"broken.json":   `{"manifest_version": 1, "toolsets": [`,
		"wrong.json":    `{"manifest_version": 1, "toolsets": [{"name": "web", "kind": "kokua", "tools": "many"}]}`,
		"sub/keep.json": "",
		// issue 21: no toolset of Kokua's own; once 30 unknown-toolset
		// errors, each noting "Available toolsets: .".
		"none.json": `{"manifest_version": 1, "toolsets": []}`,
	})
	t.Run("good", func(t *testing.T) {
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--manifest", "good.json", "config.toml")
		wantCode(t, r, cli.ExitOK)
		if r.Stdout != "" || r.Stderr != "" {
			t.Errorf("a given manifest should give no note and no finding, got stdout %q stderr %q", r.Stdout, r.Stderr)
		}
	})
	t.Run("none of Kokua's own toolsets", func(t *testing.T) {
		r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--color", "never", "--manifest", "none.json", "config.toml")
		wantCode(t, r, cli.ExitFindings)
		if !strings.HasPrefix(r.Stdout, "none.json:1:37: error: manifest: it registers none of Kokua's own toolsets") ||
			!strings.HasSuffix(r.Stdout, "\n1 error, 0 warnings, 0 info\n") || strings.Contains(r.Stdout, "config.toml") {
			t.Errorf("want one invalid-manifest finding at the manifest's toolsets and none in the config, got:\n%s", r.Stdout)
		}
	})
	for _, name := range []string{"broken.json", "wrong.json", "none.json"} {
		t.Run(name, func(t *testing.T) {
			r := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--color", "never", "--manifest", name, "config.toml")
			wantCode(t, r, cli.ExitFindings)
			if !strings.HasPrefix(r.Stdout, name+":1:") || !strings.Contains(r.Stdout, "[invalid-manifest]") {
				t.Errorf("want invalid-manifest findings in %s, got:\n%s", name, r.Stdout)
			}
			r = clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--format", "json", "--manifest", name, "config.toml")
			var report lint.JSONReport
			if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil {
				t.Fatal(err)
			}
			for _, d := range report.Diagnostics {
				if d.File != name || d.Rule != "invalid-manifest" || d.Line < 1 {
					t.Errorf("want only positioned invalid-manifest findings in %s, got %+v", name, d)
				}
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--manifest", "nosuch.json", "config.toml"), "nosuch.json")
	})
	t.Run("directory", func(t *testing.T) {
		wantUsageError(t, clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", "--manifest", "sub", "config.toml"), "sub", "directory")
	})
}

// TestDeterministic runs the same lint twice: byte-identical output.
func TestDeterministic(t *testing.T) {
	messy := withError(t) + "\n[github_backup]\nrepo = \"x\"\n\n[agents.coder.tools]\nconfirm = [\"compute.execute_pythn\", \"fs_write.*\"]\nreview = [\"fs_write\"]\n"
	dir := files(t, map[string]string{"config.toml": messy, "other.toml": withWarning(t)})
	for _, args := range [][]string{
		{"--color", "never", "config.toml", "other.toml"},
		{"--color", "always", "other.toml", "config.toml"},
		{"--format", "json", "config.toml", "other.toml"},
	} {
		first := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", args...)
		if first.Stdout == "" {
			t.Fatalf("%v: no output", args)
		}
		for range 2 {
			if again := clitest.RunIn(t, Main, "kokua-lint", dir, nil, "", args...); again != first {
				t.Errorf("%v: two runs differ:\n%+v\n---\n%+v", args, first, again)
			}
		}
	}
}

// TestColorBytes holds --color always to the exact bytes kokua-lint has
// always written for the case mixed-severities, which has every severity,
// quoted lines and suggestions; go test -update rewrites the golden file.
func TestColorBytes(t *testing.T) {
	want := filepath.Join(root, "cmd", "kokua-lint", "testdata", "mixed-severities.color.txt")
	r := clitest.RunIn(t, Main, "kokua-lint", filepath.Join(root, "testdata", "formats", "mixed-severities"), nil, "",
		"--color", "always", "--manifest", "manifest.json", "config.toml")
	wantCode(t, r, cli.ExitFindings)
	golden.Check(t, want, []byte(r.Stdout))
}
