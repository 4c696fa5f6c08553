package main

import (
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestWriteFailureExits3 (issue 19): an answer or a transcript that
// cannot be written to a full standard output exits 3 (the internal
// code) with one line saying so, not the decision's code: a script that
// branches on the code must not act on an answer nobody could read.
// decide exited 0 and session 0 before, saying nothing.
func TestWriteFailureExits3(t *testing.T) {
	full := clitest.DevFull(t)
	pol := shippedPolicy(t)
	for _, args := range [][]string{
		{"decide", pol, "coder", "calculate"},
		{"decide", "--format", "json", pol, "coder", "calculate"},
		{"session", pol, "coder"},
	} {
		r := clitest.RunTo(Main, "kokua-run", strings.NewReader("call calculate\n"), full, args...)
		clitest.CheckWriteFails(t, "kokua-run", args, r)
	}
}
