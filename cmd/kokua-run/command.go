package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Main runs kokua-run on args, args[0] being the program as in os.Args,
// and returns its exit code: for decide, the decision's (README); for
// serve, once the server has stopped. It reads and writes only the
// streams it is given.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Standard error carries only lines of text: whatever a message quotes
	// (a path, a name), no control or bidirectional character reaches it raw.
	stderr = printable.Writer{W: stderr}
	return cli.Run(command(stdin, stdout, stderr), args, stdin, stdout, stderr)
}

// command is kokua-run's command tree, reading and writing the streams it is
// given.
func command(stdin io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "kokua-run",
		Usage:     "decide tool calls from a compiled Kokua policy",
		UsageText: "kokua-run decide [--format human|json] [--unattended] [--verify-key PUB] [--decision-log FILE|-] POLICY AGENT TOOL\nkokua-run session [--preload TOOLSET,...] [--verify-key PUB] POLICY AGENT < script\nkokua-run serve [--addr 127.0.0.1:8181] [--allow-host HOST]... [--verify-key PUB] [--no-ui] [--decision-log FILE|-] POLICY",
		// One line per subcommand; each lives in its own file.
		Commands: []*urfave.Command{
			decideCommand(stdout, stderr),
			sessionCommand(stdin, stdout),
			serveCommand(stdout, stderr),
		},
	}
}

// load loads and verifies a policy, and, given a verify key file, its
// signature (policy.LoadVerified); the error that ends the command when
// it is refused says why, with ExitRefused, and a key file that cannot
// be read is a usage error.
func load(path, verifyKey string) (*policy.Policy, error) {
	if err := notRegular(path); err != nil {
		return nil, err
	}
	var p *policy.Policy
	if verifyKey != "" {
		key, err := cli.ReadVerifyKey("kokua-run", verifyKey)
		if err != nil {
			return nil, err
		}
		p, err = policy.LoadVerified(path, key)
		if err != nil {
			return nil, cli.Fail(cli.ExitRefused, "kokua-run: %v", err)
		}
		return p, nil
	}
	p, err := policy.Load(path)
	if err != nil {
		if config := configGiven(path, err); config != nil {
			return nil, config
		}
		return nil, cli.Fail(cli.ExitRefused, "kokua-run: %v", err)
	}
	return p, nil
}

// configGiven is the usage error for a Kokua config.toml named where the
// compiled policy goes, which the load refused as no JSON: it says what
// the file is and the command that compiles it. It is nil for any other
// refusal.
func configGiven(path string, err error) error {
	if !errors.Is(err, policy.ErrShape) {
		return nil
	}
	src, rerr := lint.ReadFile(path)
	if rerr != nil || bytes.HasPrefix(bytes.TrimLeft(src.Data, " \t\r\n\ufeff"), []byte("{")) || !lint.IsKokuaConfig(src) {
		return nil
	}
	name := printable.String(path)
	return cli.Fail(cli.ExitUsage, "kokua-run: %s is a Kokua config.toml, not a compiled policy: compile it first (kokua-compile -o policy.json %s), then give kokua-run policy.json", name, name)
}

// notRegular refuses, with ExitUsage and without opening it, an input
// that is a named pipe, a device or a directory: opening a named pipe
// would block until something writes to it. A missing file is left to the
// load, which refuses it as it refuses every policy it cannot read.
func notRegular(path string) error {
	if err := regular.Stat(path); errors.Is(err, regular.ErrNotRegular) {
		return cli.Fail(cli.ExitUsage, "kokua-run: cannot read %s: %v", path, err)
	}
	return nil
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
