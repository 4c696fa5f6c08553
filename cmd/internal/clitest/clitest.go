// Package clitest is the one test harness of the three commands: it runs
// a command's Main in process (Run, RunFrom, RunTo, RunIn) and holds the
// checks every command must pass alike (CheckConvention,
// CheckEmptyFlags, CheckWriteFails). Only the commands' tests import it.
package clitest

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/version"
)

// Main is a command's entry point, as cmd/<command>.Main.
type Main func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Result is what one run of a command gave.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// Split is the result as three values, for a test that names them:
// code, stdout, stderr := clitest.Run(...).Split().
func (r Result) Split() (code int, stdout, stderr string) {
	return r.Code, r.Stdout, r.Stderr
}

// Run runs main in process on args (without the program name, which is
// name), with stdin as standard input.
func Run(main Main, name, stdin string, args ...string) Result {
	return RunFrom(main, name, strings.NewReader(stdin), args...)
}

// RunFrom is Run with standard input read from stdin, which may be a
// file, as a shell's redirection gives a command.
func RunFrom(main Main, name string, stdin io.Reader, args ...string) Result {
	return RunTo(main, name, stdin, nil, args...)
}

// RunTo is RunFrom with standard output written to stdout, which may be
// a file (DevFull, as `> /dev/full` gives a command); Result.Stdout is
// then empty. A nil stdout is captured in Result.Stdout, as Run does.
func RunTo(main Main, name string, stdin io.Reader, stdout io.Writer, args ...string) Result {
	var out, stderr bytes.Buffer
	if stdout == nil {
		stdout = &out
	}
	code := main(append([]string{name}, args...), stdin, stdout, &stderr)
	return Result{Code: code, Stdout: out.String(), Stderr: stderr.String()}
}

// RunIn is Run in the folder dir, with env ("NAME=value") set on top of
// the test's environment, NO_COLOR emptied first; both are undone when t
// ends. It runs t's test in dir, so a test that calls it cannot be
// parallel.
func RunIn(t *testing.T, main Main, name, dir string, env []string, stdin string, args ...string) Result {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("NO_COLOR", "")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return Run(main, name, stdin, args...)
}

// DevFull opens /dev/full, where every write fails with ENOSPC, to be a
// command's standard output; the test is skipped where there is none. It
// is closed when t ends.
func DevFull(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here:", err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// CheckWriteFails requires a run whose output could not be written to
// end as the README's exit table says: ExitInternal (never ExitUsage),
// with its last line on stderr naming the command and saying it could
// not write.
func CheckWriteFails(t *testing.T, name string, args []string, r Result) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(r.Stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	if r.Code != cli.ExitInternal || !strings.HasPrefix(last, name) || !strings.Contains(last, "cannot write") ||
		strings.Contains(r.Stderr, "goroutine") {
		t.Errorf("%s %q with its output unwritable: exit %d, stderr %q; want exit %d and a last line that starts %q and says it cannot write",
			name, args, r.Code, r.Stderr, cli.ExitInternal, name)
	}
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

// Case is one command line of a convention check and what it must give.
type Case struct {
	Name string
	Args []string
	Code int
	// Stdout and Stderr are a part of each stream; "" means the stream
	// must be empty.
	Stdout, Stderr string
}

// Convention is what CheckConvention needs to know of one command: the
// text its help holds, one subcommand, and the cases only it has (flags
// after the arguments, its own usage errors).
type Convention struct {
	// Help is a part of the command's help (-h, help).
	Help string
	// Sub is a subcommand, and SubHelp a part of its help (help SUB,
	// SUB -h).
	Sub, SubHelp string
	// Flag is a command line that ends in one of the command's flags,
	// written in full ("--format", or "agents", "--format" for a
	// subcommand's): the same line with the flag's last letter dropped
	// must be answered with a suggestion of it.
	Flag []string
	// Dir, when not "", is the folder the cases run in (RunIn, with
	// NO_COLOR emptied); otherwise they run where the test does.
	Dir string
	// Cases are the command's own.
	Cases []Case
}

// CheckConvention runs the convention every command shares (cli.Run)
// over main, then c.Cases:
//   - --version prints "<name> version <version>" and exits 0;
//   - help as the first word and -h print the command's help, and
//     "help SUB" and "SUB -h" the subcommand's, with exit 0;
//   - no arguments, and an unknown flag, are usage errors;
//   - help followed by a word that names no command is a usage error,
//     with the closest command (c.Sub without its last letter) or the
//     list of them (issue 38);
//   - a mistyped subcommand (c.Sub without its last letter), given where
//     a subcommand goes, is "unknown command 'dif': did you mean
//     'diff'?", and a mistyped flag (c.Flag's, the same way) is
//     "unknown flag --formt: did you mean --format?" (issue 21);
//   - every usage error (exit 2), here or in c.Cases, is one line on
//     stderr that starts with the command's name, and nothing on stdout.
func CheckConvention(t *testing.T, main Main, name string, c Convention) {
	t.Helper()
	if c.Sub == "" || len(c.Flag) == 0 {
		t.Fatalf("%s: the convention needs a subcommand and a flag to mistype", name)
	}
	typoSub := c.Sub[:len(c.Sub)-1]
	flag := c.Flag[len(c.Flag)-1]
	typoFlag := append(append([]string{}, c.Flag[:len(c.Flag)-1]...), flag[:len(flag)-1])
	shared := []Case{
		{Name: "version", Args: []string{"--version"}, Code: cli.ExitOK, Stdout: name + " version " + version.Version + "\n"},
		{Name: "help word", Args: []string{"help"}, Code: cli.ExitOK, Stdout: c.Help},
		{Name: "-h", Args: []string{"-h"}, Code: cli.ExitOK, Stdout: c.Help},
		{Name: "help of a subcommand", Args: []string{"help", c.Sub}, Code: cli.ExitOK, Stdout: c.SubHelp},
		{Name: "-h of a subcommand", Args: []string{c.Sub, "-h"}, Code: cli.ExitOK, Stdout: c.SubHelp},
		{Name: "no arguments", Args: nil, Code: cli.ExitUsage, Stderr: name + ": no arguments; usage: " + name + " "},
		{Name: "unknown flag", Args: []string{"--no-such-flag"}, Code: cli.ExitUsage, Stderr: name + ": unknown flag --no-such-flag (see --help)"},
		{Name: "mistyped subcommand", Args: []string{typoSub}, Code: cli.ExitUsage,
			Stderr: name + ": unknown command '" + typoSub + "': did you mean '" + c.Sub + "'? (see --help)"},
		{Name: "mistyped flag", Args: typoFlag, Code: cli.ExitUsage,
			Stderr: name + ": unknown flag " + flag[:len(flag)-1] + ": did you mean " + flag + "? (see --help)"},
		{Name: "help of a mistyped subcommand", Args: []string{"help", typoSub}, Code: cli.ExitUsage,
			Stderr: name + ": help: unknown command '" + typoSub + "': did you mean '" + c.Sub + "'? (see --help)"},
		{Name: "help of no subcommand", Args: []string{"help", "no-such-command"}, Code: cli.ExitUsage,
			Stderr: name + ": help: unknown command 'no-such-command': the commands are "},
		{Name: "mistyped --version", Args: []string{"--versio"}, Code: cli.ExitUsage,
			Stderr: name + ": unknown flag --versio: did you mean --version? (see --help)"},
	}
	for _, k := range append(shared, c.Cases...) {
		var r Result
		if c.Dir != "" {
			r = RunIn(t, main, name, c.Dir, nil, "", k.Args...)
		} else {
			r = Run(main, name, "", k.Args...)
		}
		if r.Code != k.Code || (k.Stdout == "") != (r.Stdout == "") || !strings.Contains(r.Stdout, k.Stdout) ||
			(k.Stderr == "") != (r.Stderr == "") || !strings.Contains(r.Stderr, k.Stderr) {
			t.Errorf("%s: %s %q: exit %d, stdout %.300q, stderr %q; want %d, %q, %q", k.Name, name, k.Args, r.Code, r.Stdout, r.Stderr, k.Code, k.Stdout, k.Stderr)
		}
		if k.Name == "version" && r.Stdout != k.Stdout {
			t.Errorf("%s --version: %q, want %q", name, r.Stdout, k.Stdout)
		}
		if r.Code == cli.ExitUsage && (strings.Count(r.Stderr, "\n") != 1 || !strings.HasPrefix(r.Stderr, name) || r.Stdout != "") {
			t.Errorf("%s: %s %q: a usage error is one line on stderr starting %q and nothing on stdout; got stdout %q, stderr %q", k.Name, name, k.Args, name, r.Stdout, r.Stderr)
		}
	}
}

// CheckMistypedFlags requires every long flag of root and of its
// subcommands, mistyped, to be answered with itself: a usage error, exit
// 2, one line "unknown flag --TYPO: did you mean --FLAG?". Each flag is
// mistyped two ways: its last letter dropped, and, for a name of several
// words, its words in reverse order ("--fix-unsafe" for
// "--unsafe-fixes"). It returns how many command lines it checked.
func CheckMistypedFlags(t *testing.T, main Main, root *urfave.Command) int {
	t.Helper()
	n := 0
	var walk func(path []string, c *urfave.Command)
	walk = func(path []string, c *urfave.Command) {
		for _, f := range c.Flags {
			names := f.Names()
			for _, name := range names {
				if len(name) < 3 {
					continue
				}
				typos := []string{name[:len(name)-1]}
				if words := strings.Split(name, "-"); len(words) > 1 {
					slices.Reverse(words)
					typos = append(typos, strings.Join(words, "-"))
				}
				for _, typo := range typos {
					if slices.ContainsFunc(c.Flags, func(g urfave.Flag) bool { return slices.Contains(g.Names(), typo) }) {
						continue // the typo is a flag of its own
					}
					args := append(append([]string{}, path...), "--"+typo)
					r := Run(main, root.Name, "", args...)
					n++
					want := root.Name + ": unknown flag --" + typo + ": did you mean --" + name + "? (see --help)\n"
					if r.Code != cli.ExitUsage || r.Stdout != "" || r.Stderr != want {
						t.Errorf("%s %q: exit %d, stderr %q; want %d and %q", root.Name, args, r.Code, r.Stderr, cli.ExitUsage, want)
					}
				}
			}
		}
		for _, sub := range c.Commands {
			walk(append(append([]string{}, path...), sub.Name), sub)
		}
	}
	walk(nil, root)
	return n
}
