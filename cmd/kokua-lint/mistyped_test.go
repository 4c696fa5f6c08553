package main

import (
	"io"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestEveryMistypedFlag (issue 38): every flag of kokua-lint and of its
// subcommands, mistyped (a letter dropped, its words reordered), is
// answered with the closest flag, itself.
func TestEveryMistypedFlag(t *testing.T) {
	if n := clitest.CheckMistypedFlags(t, Main, command(nil, io.Discard, io.Discard)); n < 10 {
		t.Errorf("checked %d mistyped flags; the tree has more", n)
	}
}

// TestMistypedFailOn (issue 38): --fail-on warn is a usage error with the
// closest value.
func TestMistypedFailOn(t *testing.T) {
	r := clitest.Run(Main, "kokua-lint", "", "--fail-on", "warn", "config.toml")
	if want := "kokua-lint: --fail-on takes error or warning, not \"warn\"; did you mean 'warning'?\n"; r.Code != cli.ExitUsage || r.Stderr != want {
		t.Errorf("exit %d, stderr %q; want 2 and %q", r.Code, r.Stderr, want)
	}
}
