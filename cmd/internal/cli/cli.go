// Package cli is what kokua-lint, kokua-compile and kokua-run share on the
// command line: the one table of exit codes, running a urfave/cli command
// tree in process, colour and the terminal, and the flags and inputs of
// the two commands that lint. Only the commands import it; the libraries
// know no flags, no exit codes and no terminal.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/lint"
)

// Exit codes of the three commands, documented in the README.
const (
	// ExitOK: nothing to report; for kokua-run decide, the call runs.
	ExitOK = 0
	// ExitFindings: a finding at or above --fail-on, a config with errors
	// that was not compiled, or a stale or missing policy under --check.
	ExitFindings = 1
	// ExitServeFailed: kokua-run serve stopped because serving failed
	// after the start.
	ExitServeFailed = 1
	// ExitUsage: a usage error, or an input that cannot be read.
	ExitUsage = 2
	// ExitInternal: a bug in the command.
	ExitInternal = 3
	// ExitRefused: kokua-run refused the policy (missing, truncated,
	// tampered with, an unknown version).
	ExitRefused = 4

	// The exit codes of kokua-run decide, one per answer beyond run, so
	// that a script can branch on the decision.

	// ExitConfirm: the call asks the user.
	ExitConfirm = 10
	// ExitReview: the call goes to review.
	ExitReview = 11
	// ExitNotLoaded: the tool's toolset is deferred and not loaded.
	ExitNotLoaded = 12
	// ExitUnavailable: the agent can never call the tool.
	ExitUnavailable = 13
	// ExitDenied: a gated call in an unattended turn, or an unknown agent.
	ExitDenied = 14
)

// Exit ends an action with an exit code, and with a message for stderr
// when Message is not empty.
type Exit struct {
	Code    int
	Message string
}

// Error is the message.
func (e *Exit) Error() string { return e.Message }

// ExitCode is the exit code.
func (e *Exit) ExitCode() int { return e.Code }

// Code ends an action with an exit code whose messages, if any, the
// action has written itself; nil for ExitOK.
func Code(code int) error {
	if code == ExitOK {
		return nil
	}
	return &Exit{Code: code}
}

// Fail ends an action with an exit code and one line on stderr.
func Fail(code int, format string, args ...any) error {
	return &Exit{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Run runs a command tree on args, args[0] being the program as in
// os.Args, and returns the exit code. The tree reads stdin and writes
// stdout and stderr, never the process's own, and nothing in it exits the
// process. An action returns nil, Code or Fail. A command line that cannot
// be parsed is one line on stderr, "<name>: ... (see --help)", and
// ExitUsage; a panic is one line, "<name>: internal error: ...", and
// ExitInternal.
//
// As every command always has, each command stops reading flags at its
// first argument: what follows is arguments, even when it starts with a
// dash.
func Run(root *urfave.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "%s: internal error: %v\n", root.Name, r)
			code = ExitInternal
		}
	}()
	root.Reader, root.Writer, root.ErrWriter = stdin, stdout, stderr
	// Without a handler of its own, urfave/cli exits the process on an
	// error that carries an exit code.
	root.ExitErrHandler = func(context.Context, *urfave.Command, error) {}
	root.HideHelpCommand = true
	usage := func(_ context.Context, _ *urfave.Command, err error, _ bool) error {
		return &Exit{Code: ExitUsage, Message: root.Name + ": " + err.Error() + " (see --help)"}
	}
	setup(root, usage)
	err := root.Run(context.Background(), args)
	if err == nil {
		return ExitOK
	}
	var ec urfave.ExitCoder
	if errors.As(err, &ec) {
		if msg := ec.Error(); msg != "" {
			fmt.Fprintln(stderr, msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, root.Name+": "+err.Error())
	return ExitUsage
}

// setup gives c and its subcommands the usage-error handler, and makes
// each stop reading flags at its first argument.
func setup(c *urfave.Command, usage urfave.OnUsageErrorFunc) {
	first := 1
	c.OnUsageError = usage
	c.StopOnNthArg = &first
	for _, sub := range c.Commands {
		setup(sub, usage)
	}
}

// The flags below are local: a command's subcommands do not inherit them,
// and a subcommand that takes one declares it again.

// ManifestFlag is --manifest FILE, the registry manifest kokua-lint and
// kokua-compile check against.
func ManifestFlag() *urfave.StringFlag {
	return &urfave.StringFlag{Name: "manifest", Local: true, Usage: "registry manifest `FILE` (default: the embedded default install)"}
}

// FormatFlag is --format, human by default.
func FormatFlag(usage string) *urfave.StringFlag {
	return &urfave.StringFlag{Name: "format", Local: true, Value: "human", Usage: usage}
}

// ColorFlag is --color, auto by default.
func ColorFlag(usage string) *urfave.StringFlag {
	return &urfave.StringFlag{Name: "color", Local: true, Value: "auto", Usage: usage}
}

// Manifest loads the manifest at path, or the embedded default install
// when path is empty. The error names the file it could not read.
func Manifest(path string) (*lint.Manifest, error) {
	if path == "" {
		return lint.DefaultManifest(), nil
	}
	src, err := lint.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return lint.LoadManifest(src), nil
}
