package main

import (
	"io"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestEmptyFlagValues: every string flag of every kokua-run command refuses
// an empty value as a usage error; none reads "" as "not given".
func TestEmptyFlagValues(t *testing.T) {
	clitest.CheckEmptyFlags(t, Main, command(nil, io.Discard, io.Discard), "--verify-key", "--addr", "--preload", "--format", "--decision-log")
}

// TestEmptyVerifyKeyRefuses: an empty --verify-key, as `--verify-key
// "$KEY"` with KEY unset writes it, refuses before loading the policy,
// where it used to load an unsigned policy and answer its decision.
func TestEmptyVerifyKeyRefuses(t *testing.T) {
	pol := shippedPolicy(t)
	for _, args := range [][]string{
		{"decide", "--verify-key", "", pol, "coder", "calculate"},
		{"decide", "--verify-key=", pol, "coder", "calculate"},
		{"session", "--verify-key", "", pol, "coder"},
		{"serve", "--verify-key", "", "--addr", "127.0.0.1:0", pol},
	} {
		r := clitest.Run(Main, "kokua-run", "call calculate\n", args...)
		if r.Code != cli.ExitUsage || r.Stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error", args, r.Code, r.Stdout, r.Stderr)
		}
	}
}
