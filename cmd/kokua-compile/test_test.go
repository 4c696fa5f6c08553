package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/expect/reports"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// testFormats are the report formats of kokua-compile test with the
// golden file each is held to.
var testFormats = []struct{ format, file string }{
	{"human", "want.txt"},
	{"json", "want.json"},
	{"junit", "want.junit.xml"},
	{"sarif", "want.sarif.json"},
	{"github", "want.github.txt"},
}

// TestTestFormatsHaveGoldens: testFormats names every report format, in
// the order of their registry, so that a new format gets its golden.
func TestTestFormatsHaveGoldens(t *testing.T) {
	var names []string
	for _, f := range testFormats {
		names = append(names, f.format)
	}
	if want := reports.Formats.Names(); !slices.Equal(names, want) {
		t.Errorf("the goldens are of the formats %q, the reports' are %q", names, want)
	}
}

// TestPolicyTestGolden (issue 22): every case of testdata/policytest, a
// config (or a compiled policy.json) with its kokua.test.toml, run in its
// folder in every format; stdout, stderr and the exit code are golden
// (-update rewrites them).
func TestPolicyTestGolden(t *testing.T) {
	// Each case's exit code, count of claims that pass and the claims that
	// fail, stated here so that -update cannot accept a change of them.
	type outcome struct {
		exit    int
		passed  int
		failing []string
	}
	outcomes := map[string]outcome{
		"bad-file": {exit: 2},
		"policy": {1, 3, []string{"support never runs shell commands",
			"nothing the lead can set running runs shell commands unasked", "nobody runs anything while nobody watches"}},
		"selectors": {1, 0, []string{"a misspelled agent", "a misspelled tool", "a misspelled toolset", "a bare tool name",
			"a misspelled toolset in loaded", "composed workers load nothing"}},
		"shipped": {exit: 0, passed: 11},
		"team": {1, 3, []string{"support never runs shell commands",
			"nothing the lead can set running runs shell commands unasked", "nobody runs anything while nobody watches"}},
	}
	for _, dir := range golden.Cases(t, "policytest") {
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			input := "config.toml"
			if _, err := os.Stat(filepath.Join(abs, "policy.json")); err == nil {
				input = "policy.json"
			}
			codes := map[int]bool{}
			for _, f := range testFormats {
				r := clitest.RunIn(t, Main, "kokua-compile", abs, nil, "", "test", "--format", f.format, input)
				codes[r.Code] = true
				golden.Check(t, filepath.Join(abs, f.file), []byte(r.Stdout))
				checkWellFormed(t, f.format, r.Stdout)
				if f.format == "human" {
					var stderr []byte
					if r.Stderr != "" {
						stderr = []byte(r.Stderr)
					}
					golden.CheckOptional(t, filepath.Join(abs, "want.stderr.txt"), stderr)
					golden.Check(t, filepath.Join(abs, "want.exit"), []byte(fmt.Sprintln(r.Code)))
				}
			}
			if len(codes) != 1 {
				t.Errorf("the formats exit with different codes: %v", codes)
			}
			want, ok := outcomes[filepath.Base(dir)]
			if !ok {
				t.Fatalf("state the case's exit code, claims passed and claims failing in outcomes")
			}
			r := clitest.RunIn(t, Main, "kokua-compile", abs, nil, "", "test", "--format", "json", input)
			var report struct {
				Passed, Failed int
				Results        []struct {
					Name   string
					Passed bool
				}
			}
			if r.Stdout != "" {
				if err := json.Unmarshal([]byte(r.Stdout), &report); err != nil {
					t.Fatal(err)
				}
			}
			var failing []string
			for _, res := range report.Results {
				if !res.Passed {
					failing = append(failing, res.Name)
				}
			}
			if r.Code != want.exit || report.Passed != want.passed || report.Failed != len(want.failing) || !slices.Equal(failing, want.failing) {
				t.Errorf("exit %d, %d passed, %d failed %q; want exit %d, %d passed, failing %q",
					r.Code, report.Passed, report.Failed, failing, want.exit, want.passed, want.failing)
			}
		})
	}
}

// checkWellFormed: a report for programs parses as what it says it is.
func checkWellFormed(t *testing.T, format, out string) {
	t.Helper()
	if out == "" {
		return
	}
	switch format {
	case "json", "sarif":
		if !json.Valid([]byte(out)) {
			t.Errorf("--format %s is no JSON:\n%s", format, out)
		}
	case "junit":
		var v struct {
			Tests int `xml:"tests,attr"`
		}
		if err := xml.Unmarshal([]byte(out), &v); err != nil || v.Tests == 0 {
			t.Errorf("--format junit is no JUnit report (%v):\n%s", err, out)
		}
	case "github":
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if !strings.HasPrefix(line, "::error ") && !strings.HasPrefix(line, "::notice ") {
				t.Errorf("--format github writes a line that is no workflow command: %q", line)
			}
		}
	}
}

// TestShippedTestsAreTheExample: the golden case of the shipped config is
// examples/ itself, byte for byte, and its claims hold.
func TestShippedTestsAreTheExample(t *testing.T) {
	for _, pair := range [][2]string{
		{"examples/shipped.config.toml", "testdata/policytest/shipped/config.toml"},
		{"examples/kokua.test.toml", "testdata/policytest/shipped/kokua.test.toml"},
	} {
		if a, b := mustRead(t, filepath.Join("..", "..", pair[0])), mustRead(t, filepath.Join("..", "..", pair[1])); a != b {
			t.Errorf("%s differs from %s: copy it", pair[1], pair[0])
		}
	}
	r := clitest.Run(Main, "kokua-compile", "", "test", shippedPath(t))
	if r.Code != cli.ExitOK || !strings.Contains(r.Stdout, "0 fail") {
		t.Errorf("examples/kokua.test.toml does not hold (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestPolicyTestInputs (issue 22): the config from standard input, named
// by --stdin-filename; no test file beside a config is a usage error; a
// test file cannot be standard input; a config with errors checks nothing
// and exits 1.
func TestPolicyTestInputs(t *testing.T) {
	tests := filepath.Join("..", "..", "examples", "kokua.test.toml")
	r := clitest.Run(Main, "kokua-compile", mustRead(t, shippedPath(t)), "test", "--stdin-filename", "deploy/config.toml", "-", tests)
	if r.Code != cli.ExitOK || !strings.Contains(r.Stdout, "0 fail") {
		t.Errorf("stdin: exit %d:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	team := filepath.Join("..", "..", "testdata", "policytest", "team")
	r = clitest.Run(Main, "kokua-compile", mustRead(t, filepath.Join(team, "config.toml")), "test", "--format", "json", "--stdin-filename", "config.toml", "-", filepath.Join(team, "kokua.test.toml"))
	if r.Code != cli.ExitFindings || !strings.Contains(r.Stdout, `"file": "config.toml"`) {
		t.Errorf("stdin with a failing claim: exit %d:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte(mustRead(t, shippedPath(t))), 0o644); err != nil {
		t.Fatal(err)
	}
	r = clitest.Run(Main, "kokua-compile", "", "test", cfg)
	if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "kokua.test.toml does not exist") || r.Stdout != "" {
		t.Errorf("no test file: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	r = clitest.Run(Main, "kokua-compile", "", "test", cfg, "-")
	if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, "cannot be read from -") {
		t.Errorf("a test file from stdin: exit %d, stderr %q", r.Code, r.Stderr)
	}
	r = clitest.Run(Main, "kokua-compile", "", "test", cfg, dir)
	if r.Code != cli.ExitUsage || r.Stdout != "" {
		t.Errorf("a folder as test file: exit %d, stderr %q", r.Code, r.Stderr)
	}
	if err := os.WriteFile(cfg, []byte(brokenConfig(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = clitest.Run(Main, "kokua-compile", "", "test", cfg, tests)
	if r.Code != cli.ExitFindings || r.Stdout != "" || !strings.Contains(r.Stderr, "no claim was checked") {
		t.Errorf("a config with errors: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
}

// TestPolicyTestWriteFails: a report that cannot be written exits 3.
func TestPolicyTestWriteFails(t *testing.T) {
	for _, format := range reports.Formats.Names() {
		args := []string{"test", "--format", format, shippedPath(t)}
		clitest.CheckWriteFails(t, "kokua-compile", args, clitest.RunTo(Main, "kokua-compile", nil, clitest.DevFull(t), args...))
	}
}

// TestPolicyTestsDoc: docs/policy-tests.md shows the example files and the
// outputs of the golden cases byte for byte.
func TestPolicyTestsDoc(t *testing.T) {
	root := filepath.Join("..", "..")
	doc := []byte(mustRead(t, filepath.Join(root, "docs", "policy-tests.md")))
	if n := golden.DocBlocks(t, root, doc, "docs/policy-tests.md"); n != 5 {
		t.Errorf("docs/policy-tests.md has %d blocks marked for a test, want 5", n)
	}
}

// TestPolicyTestBounded (issue 37): a claim of every agent and every tool
// that every pair fails keeps what the formats show, the first three
// pairs and a count, in every format: n such claims against the shipped
// config write a bounded number of bytes each (before, every failing pair
// went into the JSON: 3,000 claims wrote 497 MB and held 2.3 GB), ten
// times the claims at most eleven times the bytes; the JSON, written one
// claim at a time, is the standard indented form of what it holds, and
// counts every failing pair in "failing".
func TestPolicyTestBounded(t *testing.T) {
	cfg, err := filepath.Abs(shippedPath(t))
	if err != nil {
		t.Fatal(err)
	}
	const claim = "[[expect]]\nagent = \"*\"\ntool = \"*\"\ndecision = \"denied\"\n\n"
	sizes := map[string][2]int{}
	for i, n := range []int{20, 200} {
		dir := t.TempDir()
		tests := filepath.Join(dir, "kokua.test.toml")
		if err := os.WriteFile(tests, []byte(strings.Repeat(claim, n)), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, f := range testFormats {
			r := clitest.Run(Main, "kokua-compile", "", "test", "--format", f.format, cfg, tests)
			if r.Code != cli.ExitFindings {
				t.Fatalf("%s: exit %d, want 1: %s", f.format, r.Code, r.Stderr)
			}
			s := sizes[f.format]
			s[i] = len(r.Stdout)
			sizes[f.format] = s
			if per := len(r.Stdout) / n; per > 6000 {
				t.Errorf("%s: %d bytes a claim, want a bounded few thousand", f.format, per)
			}
			if f.format != "json" {
				continue
			}
			var out struct {
				Results []struct {
					Pairs    int               `json:"pairs"`
					Failing  int               `json:"failing"`
					Failures []json.RawMessage `json:"failures"`
				} `json:"results"`
			}
			if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil || len(out.Results) != n {
				t.Fatalf("json: %d results (%v)", len(out.Results), err)
			}
			for _, res := range out.Results {
				if len(res.Failures) != 3 || res.Failing != res.Pairs || res.Pairs < 100 {
					t.Fatalf("json: a claim keeps %d failures and counts %d failing of %d pairs; want 3, and every pair failing", len(res.Failures), res.Failing, res.Pairs)
				}
			}
			var compact, indented bytes.Buffer
			if err := json.Compact(&compact, []byte(r.Stdout)); err != nil {
				t.Fatal(err)
			}
			if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
				t.Fatal(err)
			}
			if indented.String()+"\n" != r.Stdout {
				t.Error("json: the report written a claim at a time is not the indented form of what it holds")
			}
		}
	}
	for format, s := range sizes {
		if s[1] > 11*s[0] {
			t.Errorf("%s: 10 times the claims write %.1f times the bytes (%d, %d)", format, float64(s[1])/float64(s[0]), s[0], s[1])
		}
	}
}
