package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/internal/version"
)

// runTree runs a command tree named "tool" whose action is action.
func runTree(t *testing.T, action urfave.ActionFunc, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	root := &urfave.Command{
		Name:   "tool",
		Flags:  []urfave.Flag{&urfave.StringFlag{Name: "x"}, &urfave.StringFlag{Name: "name"}},
		Action: action,
		Commands: []*urfave.Command{{
			Name:   "sub",
			Flags:  []urfave.Flag{&urfave.BoolFlag{Name: "y"}},
			Action: action,
		}},
	}
	var out, errs bytes.Buffer
	code = Run(root, append([]string{"tool"}, args...), strings.NewReader(""), &out, &errs)
	return code, out.String(), errs.String()
}

func TestRunExitCodes(t *testing.T) {
	record := func(_ context.Context, c *urfave.Command) error {
		switch c.Args().First() {
		case "fail":
			return Fail(ExitRefused, "tool: refused %s", "it")
		case "code":
			return Code(ExitFindings)
		case "panic":
			panic("boom")
		}
		return Code(ExitOK)
	}
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"ok"}, ExitOK, ""},
		{[]string{"code"}, ExitFindings, ""},
		{[]string{"fail"}, ExitRefused, "tool: refused it\n"},
		{[]string{"panic"}, ExitInternal, "tool: internal error: boom\n"},
		{[]string{"--nope", "ok"}, ExitUsage, "tool: unknown flag --nope (see --help)\n"},
		{[]string{"sub", "--nope", "ok"}, ExitUsage, "tool: unknown flag --nope (see --help)\n"},
		{[]string{"-q", "ok"}, ExitUsage, "tool: unknown flag -q (see --help)\n"},
		{[]string{"--xx", "1", "ok"}, ExitUsage, "tool: unknown flag --xx: did you mean -x? (see --help)\n"},
		{[]string{"sub", "--yy", "ok"}, ExitUsage, "tool: unknown flag --yy: did you mean -y? (see --help)\n"},
		{[]string{"--helpp"}, ExitUsage, "tool: unknown flag --helpp: did you mean --help? (see --help)\n"},
		// A flag is named as it is typed, with two dashes for a long name.
		{[]string{"--name=", "ok"}, ExitUsage, "tool: invalid value \"\" for flag --name: " + ErrEmptyValue.Error() + " (see --help)\n"},
		{[]string{"-x=", "ok"}, ExitUsage, "tool: invalid value \"\" for flag -x: " + ErrEmptyValue.Error() + " (see --help)\n"},
		{[]string{"sub", "--y=a for flag -zz", "ok"}, ExitUsage, "tool: invalid value \"a for flag -zz\" for flag -y: parse error (see --help)\n"}, // the value's text is left alone
		{[]string{"sbu", "ok"}, ExitUsage, "tool: unknown command 'sbu': did you mean 'sub'? (see --help)\n"},
		{[]string{"sbu2"}, ExitOK, ""},
		// help WORD (issue 38): a word that names no command is a usage
		// error, with the closest command or the list of them.
		{[]string{"help", "sbu"}, ExitUsage, "tool: help: unknown command 'sbu': did you mean 'sub'? (see --help)\n"},
		{[]string{"help", "nosuch"}, ExitUsage, "tool: help: unknown command 'nosuch': the commands are sub (see --help)\n"},
		{[]string{"help", "sub", "deeper"}, ExitUsage, "tool: help: tool sub has no commands, so no help for 'deeper' (see tool sub --help)\n"},
		{[]string{"sub", "--y", "ok"}, ExitOK, ""},
	} {
		code, stdout, stderr := runTree(t, record, c.args...)
		if code != c.code || stderr != c.stderr || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, stdout, stderr, c.code, c.stderr)
		}
	}
}

// TestRunFlagsAnywhere: flags are read before and after the arguments;
// "--" ends them, and "-" is an argument.
func TestRunFlagsAnywhere(t *testing.T) {
	for _, c := range []struct {
		args     []string
		wantArgs string
		wantX    string
	}{
		{[]string{"--x", "1", "a", "b"}, "a b", "1"},
		{[]string{"a", "--x", "2", "b"}, "a b", "2"},
		{[]string{"a", "b", "--x=3"}, "a b", "3"},
		{[]string{"a", "--", "--x", "4"}, "a --x 4", ""},
		{[]string{"-", "--x", "5"}, "-", "5"},
	} {
		var got []string
		var x string
		code, _, stderr := runTree(t, func(_ context.Context, c *urfave.Command) error {
			got, x = c.Args().Slice(), c.String("x")
			return nil
		}, c.args...)
		if code != ExitOK || strings.Join(got, " ") != c.wantArgs || x != c.wantX {
			t.Errorf("%q: exit %d (%s), arguments %q, --x %q; want %q and %q", c.args, code, stderr, got, x, c.wantArgs, c.wantX)
		}
	}
}

// TestRunConvention: what every command gets from Run: --version, help
// as a word, -h, and a usage error for no arguments and for an unknown
// subcommand of a command that only holds subcommands.
func TestRunConvention(t *testing.T) {
	group := func() *urfave.Command {
		return &urfave.Command{Name: "tool", UsageText: "tool sub [--y] ARG\ntool other",
			Commands: []*urfave.Command{{Name: "sub", Usage: "the sub command", Flags: []urfave.Flag{&urfave.BoolFlag{Name: "y"}},
				Action: func(context.Context, *urfave.Command) error { return nil }}}}
	}
	for _, c := range []struct {
		args           []string
		code           int
		stdout, stderr string // what each must contain; "" for empty
	}{
		{nil, ExitUsage, "", "tool: no arguments; usage: tool COMMAND, one of sub (see --help)\n"},
		{[]string{"--version"}, ExitOK, "tool version " + version.Version + "\n", ""},
		{[]string{"help"}, ExitOK, "the sub command", ""},
		{[]string{"help", "sub"}, ExitOK, "tool sub - the sub command", ""},
		{[]string{"sub", "-h"}, ExitOK, "tool sub - the sub command", ""},
		{[]string{"-h"}, ExitOK, "the sub command", ""},
		{[]string{"nope"}, ExitUsage, "", "tool: unknown command \"nope\": the commands are sub (see --help)\n"},
		{[]string{"sbu"}, ExitUsage, "", "tool: unknown command 'sbu': did you mean 'sub'? (see --help)\n"},
		{[]string{"--y"}, ExitUsage, "", "tool: unknown flag -y (see --help)\n"},
		{[]string{"sub", "a", "--y"}, ExitOK, "", ""},
	} {
		var out, errs bytes.Buffer
		code := Run(group(), append([]string{"tool"}, c.args...), strings.NewReader(""), &out, &errs)
		okOut := c.stdout == "" && out.Len() == 0 || c.stdout != "" && strings.Contains(out.String(), c.stdout)
		okErr := errs.String() == c.stderr
		if code != c.code || !okOut || !okErr {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.args, code, out.String(), errs.String(), c.code, c.stdout, c.stderr)
		}
	}
}

// TestMistypedCommandIsAFileWhenItExists: a first argument close to a
// subcommand is a mistyped command only when no file has that name; a
// file that exists is the action's, whatever its name.
func TestMistypedCommandIsAFileWhenItExists(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("sbu", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var got string
	code, _, stderr := runTree(t, func(_ context.Context, c *urfave.Command) error {
		got = c.Args().First()
		return nil
	}, "sbu")
	if code != ExitOK || got != "sbu" || stderr != "" {
		t.Errorf("a file named sbu: exit %d, argument %q, stderr %q; want 0 and the file read", code, got, stderr)
	}
}

func TestRunHelpGoesToStdout(t *testing.T) {
	code, stdout, stderr := runTree(t, func(context.Context, *urfave.Command) error { return nil }, "--help")
	if code != ExitOK || !strings.Contains(stdout, "tool") || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestUseColor(t *testing.T) {
	var buf bytes.Buffer
	for _, c := range []struct {
		mode, noColor string
		want          bool
	}{
		{"always", "", true},
		{"always", "1", true},
		{"never", "", false},
		{"auto", "", false}, // a buffer is no terminal
		{"", "1", false},
	} {
		t.Setenv("NO_COLOR", c.noColor)
		if got, err := UseColor(c.mode, &buf); err != nil || got != c.want {
			t.Errorf("%q with NO_COLOR=%q: %v (%v), want %v", c.mode, c.noColor, got, err, c.want)
		}
	}
	if _, err := UseColor("sometimes", &buf); err == nil || err.Error() != `--color takes auto, always or never, not "sometimes"` {
		t.Errorf("a bad mode: %v", err)
	}
}

// TestStyle pins the colours of the human format, byte for byte.
func TestStyle(t *testing.T) {
	plain := Style(false)
	if plain.Location != nil || plain.Error != nil || plain.Help != nil {
		t.Error("the plain style paints")
	}
	s := Style(true)
	for _, c := range []struct {
		f    func(string) string
		want string
	}{
		{s.Location, "\x1b[1mx\x1b[22m"},
		{s.Error, "\x1b[31;1mx\x1b[0;22m"},
		{s.Warning, "\x1b[33;1mx\x1b[0;22m"},
		{s.Info, "\x1b[36;1mx\x1b[0;22m"},
		{s.Gutter, "\x1b[34mx\x1b[0m"},
		{s.Underline, "\x1b[32;1mx\x1b[0;22m"},
		{s.Help, "\x1b[36mx\x1b[0m"},
	} {
		if got := c.f("x"); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// TestNoArgumentsListsCommands (issue 38): a command that is nothing but
// its subcommands, run with no arguments, names them all in its one line;
// one with an action of its own still shows its first usage line.
func TestNoArgumentsListsCommands(t *testing.T) {
	subs := []*urfave.Command{{Name: "decide", Action: func(context.Context, *urfave.Command) error { return nil }},
		{Name: "serve", Action: func(context.Context, *urfave.Command) error { return nil }}}
	var errs bytes.Buffer
	code := Run(&urfave.Command{Name: "run", UsageText: "run decide POLICY\nrun serve POLICY", Commands: subs}, []string{"run"}, nil, &bytes.Buffer{}, &errs)
	if want := "run: no arguments; usage: run COMMAND, one of decide, serve (see --help)\n"; code != ExitUsage || errs.String() != want {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs.String(), want)
	}
	errs.Reset()
	code = Run(&urfave.Command{Name: "lint", UsageText: "lint CONFIG\nlint sub", Action: func(context.Context, *urfave.Command) error { return nil }, Commands: subs}, []string{"lint"}, nil, &bytes.Buffer{}, &errs)
	if want := "lint: no arguments; usage: lint CONFIG (see --help)\n"; code != ExitUsage || errs.String() != want {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs.String(), want)
	}
}
