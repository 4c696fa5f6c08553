package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestEmptyFlagValues: every string flag of every kokua-compile command refuses
// an empty value as a usage error; none reads "" as "not given".
func TestEmptyFlagValues(t *testing.T) {
	clitest.CheckEmptyFlags(t, Main, command(nil, io.Discard, io.Discard), "--sign", "-o", "--output", "--manifest", "--base-manifest", "--base", "--fail-on", "--stdin-filename")
}

// TestEmptySignRefuses: an empty --sign refuses; it used to write an
// unsigned policy ("signature": null) and exit 0.
func TestEmptySignRefuses(t *testing.T) {
	out := filepath.Join(t.TempDir(), "policy.json")
	for _, args := range [][]string{
		{"--sign", "", shippedPath(t)},
		{"--sign=", "-o", out, shippedPath(t)},
	} {
		r := clitest.Run(Main, "kokua-compile", "", args...)
		if r.Code != cli.ExitUsage || r.Stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error", args, r.Code, r.Stdout, r.Stderr)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an empty --sign wrote %s (%v)", out, err)
	}
}
