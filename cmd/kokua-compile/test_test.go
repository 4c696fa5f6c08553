package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
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

// TestPolicyTestGolden (issue 22): every case of testdata/policytest, a
// config (or a compiled policy.json) with its kokua.test.toml, run in its
// folder in every format; stdout, stderr and the exit code are golden
// (-update rewrites them).
func TestPolicyTestGolden(t *testing.T) {
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
