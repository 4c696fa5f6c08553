package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestWriteFailureExits3 (issue 19): output that cannot be written, on a
// full standard output or into a folder that is not there, exits 3 (the
// internal code) with one line saying so, never 2 (usage): the command
// line was right. These exited 2 before.
func TestWriteFailureExits3(t *testing.T) {
	full := clitest.DevFull(t)
	cfg := shippedPath(t)
	oldFile, newFile := diffCase(t, "agent-added")
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-folder")
	for _, args := range [][]string{
		{cfg},
		{"agents", cfg},
		{"agents", "--format", "json", cfg},
		{"graph", cfg},
		{"risks", cfg},
		{"report", cfg},
		{"report", "--base", oldFile, newFile},
		{"diff", "--allow-widen", oldFile, newFile},
		{"diff", "--allow-widen", "--format", "github", oldFile, newFile},
		{"keygen", filepath.Join(dir, "stdout.key")},
	} {
		clitest.CheckWriteFails(t, "kokua-compile", args, clitest.RunTo(Main, "kokua-compile", nil, full, args...))
	}
	for _, args := range [][]string{
		{"-o", filepath.Join(missing, "policy.json"), cfg},
		{"keygen", filepath.Join(missing, "policy.key")},
		{"report", "-o", filepath.Join(missing, "report.html"), cfg},
	} {
		clitest.CheckWriteFails(t, "kokua-compile", args, clitest.Run(Main, "kokua-compile", "", args...))
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("%s was made (%v)", missing, err)
	}
}

// TestNotRegularOutputIsUsage (issue 19): -o naming a folder or a device
// is refused from its path, before the config is read, as a usage error:
// one line, and no finding of the config printed. It used to be found
// only at the write, after the lint (a config with errors exited 1).
func TestNotRegularOutputIsUsage(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte(brokenConfig(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{dir, os.DevNull} {
		r := clitest.Run(Main, "kokua-compile", "", "-o", out, cfg)
		if r.Code != cli.ExitUsage || r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 ||
			!strings.Contains(r.Stderr, "cannot write "+out) {
			t.Errorf("-o %s: exit %d, stdout %q, stderr %q; want exit 2 and one line", out, r.Code, r.Stdout, r.Stderr)
		}
	}
}
