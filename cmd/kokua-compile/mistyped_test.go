package main

import (
	"io"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestEveryMistypedFlag (issue 38): every flag of kokua-compile and of its
// subcommands, mistyped (a letter dropped, its words reordered), is
// answered with the closest flag, itself.
func TestEveryMistypedFlag(t *testing.T) {
	if n := clitest.CheckMistypedFlags(t, Main, command(nil, io.Discard, io.Discard)); n < 10 {
		t.Errorf("checked %d mistyped flags; the tree has more", n)
	}
}
