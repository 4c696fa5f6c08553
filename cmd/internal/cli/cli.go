// Package cli is what kokua-lint, kokua-compile and kokua-run share on the
// command line: the one table of exit codes, running a urfave/cli command
// tree in process, colour and the terminal, and the flags and inputs of
// the two commands that lint. Only the commands import it; the libraries
// know no flags, no exit codes and no terminal.
package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/internal/format"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/internal/version"
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
	// ExitInternal: a bug in the command, or output it could not write
	// (WriteFailed): standard output closed or full, an output file that
	// cannot be created or replaced.
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
// process. An action returns nil, Code or Fail.
//
// Every command shares one convention, which Run gives the tree:
//   - --version prints the version from the binary's build information
//     (package version);
//   - -h and --help print the help of the command they follow, and
//     "help [COMMAND...]" as the first argument is the same as
//     "COMMAND... --help";
//   - no arguments at all, a command line that cannot be parsed and an
//     unknown subcommand are usage errors: one line on stderr,
//     "<name>: ... (see --help)", and ExitUsage;
//   - flags may come before and after the arguments; "--" ends the flags,
//     and "-" is an argument (standard input, where a command reads it);
//   - a panic is one line, "<name>: internal error: ...", and
//     ExitInternal.
func Run(root *urfave.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "%s: internal error: %s\n", root.Name, printable.String(fmt.Sprint(r)))
			code = ExitInternal
		}
	}()
	root.Reader, root.Writer, root.ErrWriter = stdin, stdout, stderr
	// Without a handler of its own, urfave/cli exits the process on an
	// error that carries an exit code.
	root.ExitErrHandler = func(context.Context, *urfave.Command, error) {}
	root.HideHelpCommand = true
	root.Version = version.Version
	if len(args) < 2 {
		first, _, _ := strings.Cut(root.UsageText, "\n")
		if root.Action == nil && len(root.Commands) > 0 {
			// A command that is nothing but its subcommands (kokua-run)
			// lists them all, not the usage of the first.
			first = root.Name + " COMMAND, one of " + strings.Join(commandNames(root), ", ")
		}
		if first == "" {
			first = root.Name + " COMMAND"
		}
		fmt.Fprintf(stderr, "%s: no arguments; usage: %s (see --help)\n", root.Name, first)
		return ExitUsage
	}
	args, err := helpWord(root, args)
	if err != nil {
		fmt.Fprintln(stderr, printable.String(err.Error()))
		return ExitUsage
	}
	usage := func(_ context.Context, c *urfave.Command, err error, _ bool) error {
		return &Exit{Code: ExitUsage, Message: root.Name + ": " + unknownFlag(c, err) + " (see --help)"}
	}
	setup(root, usage)
	err = root.Run(context.Background(), args)
	if err == nil {
		return ExitOK
	}
	var ec urfave.ExitCoder
	if errors.As(err, &ec) {
		// An exit message is one line, and may quote a path or a name:
		// printable.String keeps it one line with nothing raw.
		if msg := ec.Error(); msg != "" {
			fmt.Fprintln(stderr, printable.String(msg))
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, root.Name+": "+printable.String(err.Error())+" (see --help)")
	return ExitUsage
}

// helpWord turns "help [COMMAND...]" at the start of args into
// "COMMAND... --help", for every command, with or without subcommands: a
// config file named help is still ./help. A word after help that names
// no command is a usage error, with the closest command when one is
// close (similar.Suggest), rather than the help of the command before it.
func helpWord(root *urfave.Command, args []string) ([]string, error) {
	if len(args) < 2 || args[1] != "help" {
		return args, nil
	}
	out := []string{args[0]}
	path := []string{root.Name}
	c := root
	for _, a := range args[2:] {
		sub := c.Command(a)
		if sub == nil {
			return nil, unknownHelp(c, path, a)
		}
		path = append(path, a)
		out = append(out, a)
		c = sub
	}
	return append(out, "--help"), nil
}

// unknownHelp is the usage error of "help WORD" where c, the command
// the words before WORD name (path, from the root's name), has no command
// WORD.
func unknownHelp(c *urfave.Command, path []string, word string) error {
	names := commandNames(c)
	name := strings.Join(path, " ")
	switch {
	case len(names) == 0:
		return Fail(ExitUsage, "%s: help: %s has no commands, so no help for '%s' (see %s --help)", path[0], name, word, name)
	case Closest(word, names) != "":
		return Fail(ExitUsage, "%s: help: unknown command '%s': did you mean '%s'? (see --help)", path[0], word, Closest(word, names))
	}
	return Fail(ExitUsage, "%s: help: unknown command '%s': the commands are %s (see --help)", path[0], word, strings.Join(names, ", "))
}

// setup gives c and its subcommands the usage-error handler; a command
// that has subcommands and no action of its own gets one that refuses a
// missing or an unknown subcommand, and one that has both gets its action
// wrapped in mistypedCommand; and every string flag refuses an empty
// value.
func setup(c *urfave.Command, usage urfave.OnUsageErrorFunc) {
	c.OnUsageError = usage
	switch {
	case c.Action == nil && len(c.Commands) > 0:
		c.Action = unknownCommand
	case len(c.Commands) > 0:
		c.Action = mistypedCommand(c.Action)
	}
	for _, f := range c.Flags {
		if s, ok := f.(*urfave.StringFlag); ok {
			s.Validator = nonEmpty(s.Validator)
		}
	}
	for _, sub := range c.Commands {
		setup(sub, usage)
	}
}

// ErrEmptyValue is the usage error of a string flag given an empty
// value. Every string flag of the three commands names a file, a key, an
// address, a format or a list, and none of them means "off" when empty:
// `--verify-key "$KEY"` with KEY unset must refuse, not load an unsigned
// policy.
var ErrEmptyValue = errors.New("an empty value names nothing (leave the flag out instead)")

// nonEmpty is a flag validator that refuses the empty string, then runs
// next, if any.
func nonEmpty(next func(string) error) func(string) error {
	return func(v string) error {
		if v == "" {
			return ErrEmptyValue
		}
		if next != nil {
			return next(v)
		}
		return nil
	}
}

// unknownCommand is the action of a command that does nothing but hold
// subcommands: it was given none, or one it does not have, which is
// answered with the closest of its commands when one is close
// (similar.Suggest), and with the list of them otherwise.
func unknownCommand(_ context.Context, c *urfave.Command) error {
	names := commandNames(c)
	name := c.FullName()
	if c.NArg() == 0 {
		return Fail(ExitUsage, "%s: name a command: %s (see --help)", name, strings.Join(names, ", "))
	}
	word := c.Args().First()
	if near := similar.Suggest(word, names); len(near) > 0 {
		return didYouMean(name, word, near[0])
	}
	return Fail(ExitUsage, "%s: unknown command %q: the commands are %s (see --help)", name, word, strings.Join(names, ", "))
}

// mistypedCommand wraps the action of a command that takes files as well
// as subcommands (kokua-lint, kokua-compile): a first argument that names
// no file and is close to one of its subcommands (similar.Suggest) is a
// mistyped subcommand, a usage error that names the closest one, rather
// than a file that cannot be read. The first argument is where a
// subcommand goes; a file that exists is read, whatever its name.
func mistypedCommand(action urfave.ActionFunc) urfave.ActionFunc {
	return func(ctx context.Context, c *urfave.Command) error {
		if word := c.Args().First(); word != "" && word != Stdin {
			if _, err := os.Lstat(word); errors.Is(err, fs.ErrNotExist) {
				if near := similar.Suggest(word, commandNames(c)); len(near) > 0 {
					return didYouMean(c.FullName(), word, near[0])
				}
			}
		}
		return action(ctx, c)
	}
}

// didYouMean is the usage error of word, a mistyped command of the command
// named name, with the closest command (the first of similar.Suggest, which
// puts the closest first).
func didYouMean(name, word, closest string) error {
	return Fail(ExitUsage, "%s: unknown command '%s': did you mean '%s'? (see --help)", name, word, closest)
}

// Mean is what a usage error about a value not among values adds: "; did
// you mean 'x'?" with the closest of values, or "" when none is close.
func Mean(value string, values ...string) string {
	if c := Closest(value, values); c != "" {
		return "; did you mean '" + c + "'?"
	}
	return ""
}

// Closest is the one of names closest to word, a mistyped name, by the
// project's one rule for suggestions (similar.Suggest), or "" when none
// is close: for a command's own small languages, such as kokua-run
// session's script commands.
func Closest(word string, names []string) string {
	if near := similar.Suggest(word, names); len(near) > 0 {
		return near[0]
	}
	return ""
}

// commandNames are the names of c's visible subcommands.
func commandNames(c *urfave.Command) []string {
	var names []string
	for _, sub := range c.VisibleCommands() {
		names = append(names, sub.Name)
	}
	return names
}

// notDefined is how urfave/cli begins the error of a flag a command does
// not have, followed by the flag's name without its dashes.
const notDefined = "flag provided but not defined: -"

// unknownFlag is the text of a usage error of c: for a flag c does not
// have, "unknown flag --formt: did you mean --format?" with the closest of
// c's flags (similar.Suggest) when one is close; any other error as
// urfave/cli says it.
func unknownFlag(c *urfave.Command, err error) string {
	msg := err.Error()
	// The flag package names a flag with one dash ("invalid value "" for
	// flag -format: ..."); it is written as it is typed.
	if i := strings.LastIndex(msg, " for flag -"); i >= 0 {
		if name, tail, ok := strings.Cut(msg[i+len(" for flag -"):], ":"); ok {
			msg = msg[:i] + " for flag " + dashed(name) + ":" + tail
		}
	}
	given, ok := strings.CutPrefix(msg, notDefined)
	if !ok || c == nil {
		return msg
	}
	var names []string
	for _, f := range c.Flags {
		names = append(names, f.Names()...)
	}
	out := "unknown flag " + dashed(given)
	// A flag's words in another order ("--fix-unsafe") are answered too.
	if near := similar.SuggestParts(given, names, "-"); len(near) > 0 {
		out += ": did you mean " + dashed(near[0]) + "?"
	}
	return out
}

// dashed is a flag's name as it is typed: -o, --format.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// The flags below are local: a command's subcommands do not inherit them,
// and a subcommand that takes one declares it again.

// String is the value of a string flag as the nearest command given it
// says, the command itself first: a flag written before a subcommand's
// name reaches the subcommand, as someone who types
// "kokua-compile --manifest M agents CONFIG" means it to.
func String(c *urfave.Command, name string) string {
	for _, x := range c.Lineage() {
		if x.IsSet(name) {
			return x.String(name)
		}
	}
	return c.String(name)
}

// Bind makes f write its value to dest, where the action reads it, and
// returns f. A root command's action reads its flags so: urfave/cli's
// lookup by name (c.String, c.Bool) walks every flag of the command and
// makes a slice of each one's names as it goes, which for kokua-lint's
// dozen flags came to some 600 allocations a run (docs/benchmarks.md). A
// subcommand reads a flag that may come before its name with String.
func Bind[T, C any, VC urfave.ValueCreator[T, C]](f *urfave.FlagBase[T, C, VC], dest *T) *urfave.FlagBase[T, C, VC] {
	f.Destination = dest
	return f
}

// ManifestFlag is --manifest FILE, the registry manifest kokua-lint and
// kokua-compile check against.
func ManifestFlag() *urfave.StringFlag {
	return &urfave.StringFlag{Name: "manifest", Local: true, Usage: "registry manifest `FILE` (default: the embedded default install)"}
}

// FormatFlag is --format over formats: the first by default, its usage
// what says what the format is of ("format of the report"), then the
// formats: "format of the report: human, json or markdown".
func FormatFlag(what string, formats format.List) *urfave.StringFlag {
	return &urfave.StringFlag{Name: "format", Local: true, Value: formats.Default(), Usage: what + ": " + formats.Usage()}
}

// LintFormats are lint's output formats (lint.Formats), as the --format
// of every command that writes findings takes them.
func LintFormats() format.List {
	var l format.List
	for _, f := range lint.Formats() {
		l = append(l, format.Info{Name: f.Name, Summary: f.Summary})
	}
	return l
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
	if what := notAManifest(src); what != "" {
		return nil, fmt.Errorf("%s, given as the manifest, is %s, not a registry manifest: the manifest is the JSON file that describes an install's toolsets, as `kokua-lint manifest` prints the default one (docs/manifest.md)", src.Name, what)
	}
	return lint.LoadManifest(src), nil
}

// notAManifest says what a file given as the manifest is when it is one
// of the project's other files, "" otherwise (a manifest, or a file that
// is neither, whose mistakes the manifest's own checks report): a Kokua
// config (lint.IsKokuaConfig), or a compiled policy (a JSON object with
// policy_version and no manifest_version).
func notAManifest(src lint.Source) string {
	var top map[string]json.RawMessage
	if !bytes.HasPrefix(bytes.TrimLeft(src.Data, " \t\r\n\ufeff"), []byte("{")) {
		// Not a JSON object, as no config can be one.
		if lint.IsKokuaConfig(src) {
			return "a Kokua config"
		}
		return ""
	}
	// A manifest never mentions policy_version; only then is the file
	// decoded to see where.
	if bytes.Contains(src.Data, []byte(`"policy_version"`)) && json.Unmarshal(src.Data, &top) == nil {
		_, policy := top["policy_version"]
		_, manifest := top["manifest_version"]
		if policy && !manifest {
			return "a compiled policy"
		}
	}
	return ""
}
