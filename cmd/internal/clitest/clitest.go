// Package clitest is the test support of the three commands: it runs a
// command's Main in process and holds the checks every command must pass
// alike. Only the commands' tests import it.
package clitest

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
)

// Main is a command's entry point, as cmd/<command>.Main.
type Main func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Result is what one run of a command gave.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// Run runs main in process on args (without the program name, which is
// name), with stdin as standard input.
func Run(main Main, name, stdin string, args ...string) Result {
	return RunFrom(main, name, strings.NewReader(stdin), args...)
}

// RunFrom is Run with standard input read from stdin, which may be a
// file, as a shell's redirection gives a command.
func RunFrom(main Main, name string, stdin io.Reader, args ...string) Result {
	var stdout, stderr bytes.Buffer
	code := main(append([]string{name}, args...), stdin, &stdout, &stderr)
	return Result{Code: code, Stdout: stdout.String(), Stderr: stderr.String()}
}

// EmptyFlagArgs lists, for every string flag of root and of its
// subcommands under every name the flag has, the two command lines that
// give it an empty value: `--name ""` and `--name=`.
func EmptyFlagArgs(root *urfave.Command) [][]string {
	var out [][]string
	var walk func(path []string, c *urfave.Command)
	walk = func(path []string, c *urfave.Command) {
		for _, f := range c.Flags {
			if _, ok := f.(*urfave.StringFlag); !ok {
				continue
			}
			for _, name := range f.Names() {
				dash := "--"
				if len(name) == 1 {
					dash = "-"
				}
				out = append(out,
					append(append([]string{}, path...), dash+name, ""),
					append(append([]string{}, path...), dash+name+"="))
			}
		}
		for _, sub := range c.Commands {
			walk(append(append([]string{}, path...), sub.Name), sub)
		}
	}
	walk(nil, root)
	return out
}

// CheckEmptyFlags runs main once with each command line of
// EmptyFlagArgs(root) and requires a usage error for each: exit 2,
// nothing on stdout and one line on stderr that says the value is empty.
// must names flags (as "--name" or "-n") that the tree must have, so
// that the check cannot pass by finding no flags.
func CheckEmptyFlags(t *testing.T, main Main, root *urfave.Command, must ...string) {
	t.Helper()
	cases := EmptyFlagArgs(root)
	for _, flag := range must {
		found := false
		for _, args := range cases {
			found = found || slices.Contains(args, flag)
		}
		if !found {
			t.Errorf("%s has no string flag %s", root.Name, flag)
		}
	}
	for _, args := range cases {
		r := Run(main, root.Name, "", args...)
		if r.Code != cli.ExitUsage || r.Stdout != "" || strings.Count(r.Stderr, "\n") != 1 ||
			!strings.Contains(r.Stderr, cli.ErrEmptyValue.Error()) {
			t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit %d and one line saying the value is empty",
				root.Name, args, r.Code, r.Stdout, r.Stderr, cli.ExitUsage)
		}
	}
}
