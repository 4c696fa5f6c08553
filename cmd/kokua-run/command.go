package main

import (
	"fmt"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Main runs kokua-run on args, args[0] being the program as in os.Args,
// and returns its exit code: for decide, the decision's (README); for
// serve, once the server has stopped. It reads and writes only the
// streams it is given.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := &urfave.Command{
		Name:  "kokua-run",
		Usage: "decide tool calls from a compiled Kokua policy",
		Commands: []*urfave.Command{
			decideCommand(stdout),
			sessionCommand(stdin, stdout),
			serveCommand(stderr),
		},
	}
	return cli.Run(root, args, stdin, stdout, stderr)
}

// load loads and verifies a policy; the error that ends the command when
// it is refused says why, with ExitRefused.
func load(path string) (*policy.Policy, error) {
	p, err := policy.Load(path)
	if err != nil {
		return nil, cli.Fail(cli.ExitRefused, "kokua-run: %v", err)
	}
	return p, nil
}

// human is an answer on one line for people: the decision, then why.
func human(a policy.Answer) string {
	s := fmt.Sprintf("%s: %s", a.Decision, a.Reason.Summary)
	if pos := a.Reason.Position; pos != (policy.Position{}) {
		s += fmt.Sprintf(" (config line %d, column %d)", pos.Line, pos.Column)
	}
	if a.Decision == policy.Review {
		if a.Reason.Reviewer {
			s += "; the reviewer answers first, then the user"
		} else {
			s += "; auto-approval is off (or the tool is on the floor), so the user answers"
		}
	}
	return s
}
