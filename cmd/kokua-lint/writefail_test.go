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
// line was right. These exited 2 before. (A --write whose backup cannot
// be written is in TestMigrateWriteRefuses.)
func TestWriteFailureExits3(t *testing.T) {
	full := clitest.DevFull(t)
	dir := files(t, map[string]string{"config.toml": withError(t), "old.toml": oldConfig})
	cfg, old := filepath.Join(dir, "config.toml"), filepath.Join(dir, "old.toml")
	for _, args := range [][]string{
		{cfg},
		{"--format", "json", cfg},
		{"--list-rules"},
		{"--list-rules", "--format", "json"},
		{"--list-rules", "--format", "sarif"},
		{"manifest"},
		{"migrate", old},
		{"migrate", "--diff", old},
	} {
		clitest.CheckWriteFails(t, "kokua-lint", args, clitest.RunTo(Main, "kokua-lint", nil, full, args...))
	}
	missing := filepath.Join(dir, "no-such-folder")
	args := []string{"--sarif-file", filepath.Join(missing, "kokua-lint.sarif"), cfg}
	clitest.CheckWriteFails(t, "kokua-lint", args, clitest.Run(Main, "kokua-lint", "", args...))
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("%s was made (%v)", missing, err)
	}
}
