package main

import (
	"io"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
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

// TestMistypedFailOn (issue 38): a --fail-on value mistyped is a usage
// error, exit 2, with the closest value; one close to none gets none.
func TestMistypedFailOn(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"risks", "--fail-on", "critcal", "config.toml"}, `--fail-on takes critical, high or medium, not "critcal"; did you mean 'critical'?`},
		{[]string{"risks", "--fail-on", "zzzzzz", "config.toml"}, `--fail-on takes critical, high or medium, not "zzzzzz"` + "\n"},
		{[]string{"diff", "--fail-on", "hihg", "a.toml", "b.toml"}, `not "hihg"; did you mean 'high'?`},
		{[]string{"report", "--fail-on", "anyy", "config.toml"}, `not "anyy"; did you mean 'any'?`},
	} {
		r := clitest.Run(Main, "kokua-compile", "", c.args...)
		if r.Code != cli.ExitUsage || !strings.Contains(r.Stderr, c.says) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, r.Code, r.Stderr, c.says)
		}
	}
}
