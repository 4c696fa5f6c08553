package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestAgentsOfAPolicy (issue 21): kokua-compile agents reads a compiled
// policy, as graph and diff do (it used to call one "not valid TOML"):
// for every config of testdata/compile, the agents of its policy are
// those of the config, the JSON byte for byte and the human view block
// for block (a policy keeps its agents by name, so the entry agent comes
// first and the others by name).
func TestAgentsOfAPolicy(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "compile", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var flags []string
			if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err == nil {
				flags = []string{"--manifest", filepath.Join(dir, "manifest.json")}
			}
			cfg := filepath.Join(dir, "config.toml")
			pol := filepath.Join(t.TempDir(), "policy.json")
			if r := clitest.Run(Main, "kokua-compile", "", append(flags, "-o", pol, cfg)...); r.Code != cli.ExitOK {
				t.Fatalf("compiling: exit %d, %s", r.Code, r.Stderr)
			}
			for _, format := range agentsFormats.Names() {
				fromCfg := clitest.Run(Main, "kokua-compile", "", append(flags, "agents", "--format", format, cfg)...)
				fromPol := clitest.Run(Main, "kokua-compile", "", "agents", "--format", format, pol)
				if fromPol.Code != cli.ExitOK || fromPol.Stderr != "" {
					t.Fatalf("agents %s of the policy: exit %d, stderr %q", format, fromPol.Code, fromPol.Stderr)
				}
				want, got := fromCfg.Stdout, fromPol.Stdout
				if format == "human" {
					want, got = blocks(want), blocks(got)
				}
				if got != want {
					t.Errorf("agents --format %s of the policy:\n%s\nof the config:\n%s", format, got, want)
				}
			}
		})
	}
}

// blocks is the human view's agent blocks, sorted.
func blocks(view string) string {
	b := strings.Split(strings.TrimSuffix(view, "\n"), "\n\n")
	slices.Sort(b)
	return strings.Join(b, "\n\n")
}

// TestAgentsOfNoPolicy (issue 21): a JSON file that is no policy is said
// to be none, with why, as a usage error.
func TestAgentsOfNoPolicy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := clitest.Run(Main, "kokua-compile", "", "agents", path)
	if r.Code != cli.ExitUsage || r.Stdout != "" || r.Stderr != "kokua-compile: "+path+" is not a policy kokua-compile can read: it has no policy_version\n" {
		t.Errorf("agents of {}: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
}
