package main

import (
	"os"
	"path/filepath"
	"testing"

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
		{"diff", "--allow-widen", oldFile, newFile},
		{"keygen", filepath.Join(dir, "stdout.key")},
	} {
		clitest.CheckWriteFails(t, "kokua-compile", args, clitest.RunTo(Main, "kokua-compile", nil, full, args...))
	}
	for _, args := range [][]string{
		{"-o", filepath.Join(missing, "policy.json"), cfg},
		{"keygen", filepath.Join(missing, "policy.key")},
	} {
		clitest.CheckWriteFails(t, "kokua-compile", args, clitest.Run(Main, "kokua-compile", "", args...))
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("%s was made (%v)", missing, err)
	}
}
