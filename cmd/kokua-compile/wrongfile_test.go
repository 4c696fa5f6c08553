package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/expect"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// TestTestFileWhereTheConfigGoes (issue 38): kokua-compile test given a
// policy test file where the config goes (alone, or before another test
// file) is a usage error, exit 2, with one line that names the file a
// policy test file and the command line that checks it; nothing is
// linted, so no advice to overwrite it is printed. Every policy test file
// of the repository is recognised.
func TestTestFileWhereTheConfigGoes(t *testing.T) {
	root := golden.Root(t)
	tests, err := filepath.Glob(filepath.Join(root, "testdata", "policytest", "*", "kokua.test.toml"))
	if err != nil {
		t.Fatal(err)
	}
	tests = append(tests, filepath.Join(root, "examples", "kokua.test.toml"))
	for _, tf := range tests {
		for _, args := range [][]string{{"test", tf}, {"test", tf, tf}} {
			code, out, stderr := clitest.Run(Main, "kokua-compile", "", args...).Split()
			want := "kokua-compile: test: " + tf + " is a policy test file, not a config: name the config (or compiled policy) first, then the test files: kokua-compile test CONFIG " + tf + "\n"
			if code != cli.ExitUsage || out != "" || stderr != want {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", args, code, out, stderr, want)
			}
		}
	}
	if len(tests) < 2 {
		t.Fatalf("found %d policy test files", len(tests))
	}
	// Every test file expect.Parse reads is one by rules.IsPolicyTestFile
	// (the shape is written in internal/rules, which cannot import
	// internal/expect), and no config of the lint corpus is, but the case
	// that is one.
	for _, tf := range tests {
		data, err := os.ReadFile(tf)
		if err != nil {
			t.Fatal(err)
		}
		if !rules.IsPolicyTestFile(data) {
			t.Errorf("%s is not a policy test file by rules.IsPolicyTestFile", tf)
		}
		if f, ds := expect.Parse(tf, data); f == nil && !strings.Contains(tf, "bad-file") {
			t.Errorf("%s does not parse as a test file: %v", tf, ds)
		}
	}
	configs, err := filepath.Glob(filepath.Join(root, "testdata", "lint", "*", "config.toml"))
	if err != nil || len(configs) < 100 {
		t.Fatalf("the lint corpus: %d configs (%v)", len(configs), err)
	}
	for _, cfg := range configs {
		data, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Base(filepath.Dir(cfg)) == "no-agents--fail-policy-test-file"
		if got := rules.IsPolicyTestFile(data); got != want {
			t.Errorf("%s: IsPolicyTestFile %v, want %v", cfg, got, want)
		}
	}
	// The config before it is still checked against it.
	cfg := filepath.Join(root, "examples", "shipped.config.toml")
	if code, _, stderr := clitest.Run(Main, "kokua-compile", "", "test", cfg, tests[len(tests)-1]).Split(); code != cli.ExitOK {
		t.Errorf("test CONFIG TESTS: exit %d: %s", code, stderr)
	}
}

// TestManifestThatIsAnotherFile (issue 38): --manifest (and diff's
// --base-manifest) given a Kokua config or a compiled policy is a usage
// error, exit 2, whose one line says which it is, in every command that
// takes a manifest.
func TestManifestThatIsAnotherFile(t *testing.T) {
	root := golden.Root(t)
	cfg := filepath.Join(root, "examples", "shipped.config.toml")
	pol := compileTo(t, cfg, "policy.json")
	manifest := filepath.Join(root, "internal", "manifest", "default.manifest.json")
	for _, c := range []struct{ file, is string }{{cfg, "a Kokua config"}, {pol, "a compiled policy"}} {
		for _, args := range [][]string{
			{"--manifest", c.file, cfg},
			{"agents", "--manifest", c.file, cfg},
			{"test", "--manifest", c.file, cfg, filepath.Join(root, "examples", "kokua.test.toml")},
			{"risks", "--manifest", c.file, cfg},
			{"diff", "--manifest", c.file, cfg, cfg},
			{"diff", "--manifest", manifest, "--base-manifest", c.file, cfg, cfg},
			{"report", "--manifest", c.file, "-o", filepath.Join(t.TempDir(), "r.html"), cfg},
		} {
			code, out, stderr := clitest.Run(Main, "kokua-compile", "", args...).Split()
			want := c.file + ", given as the manifest, is " + c.is + ", not a registry manifest"
			if code != cli.ExitUsage || out != "" || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%q: exit %d, stderr %q; want 2 and one line saying %q", args, code, stderr, want)
			}
		}
	}
	// A real manifest is still read.
	if code, _, stderr := clitest.Run(Main, "kokua-compile", "", "--manifest", manifest, cfg).Split(); code != cli.ExitOK {
		t.Errorf("--manifest install.json: exit %d: %s", code, stderr)
	}
}
