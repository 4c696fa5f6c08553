package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/policy"
)

// scriptCommands are the commands a session script's lines start with.
var scriptCommands = []string{"load", "call", "tools", "names"}

// sessionCommand is kokua-run session: a conversation scripted on stdin.
func sessionCommand(stdin io.Reader, stdout io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "session",
		Usage:     "run a conversation scripted on stdin: load <toolset>, call <tool>, tools, names",
		UsageText: "kokua-run session [--preload TOOLSET,...] [--verify-key PUB] POLICY AGENT < script",
		Flags: []urfave.Flag{
			&urfave.StringFlag{Name: "preload", Usage: "toolsets the conversation loaded before the script starts, in the order they were first loaded, as when it is resumed"},
			cli.VerifyKeyFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 2 {
				return cli.Fail(cli.ExitUsage, "kokua-run session: want POLICY AGENT, and the script on standard input (see --help)")
			}
			var preload []string
			if p := c.String("preload"); p != "" {
				preload = strings.Split(p, ",")
			}
			return session(sessionOptions{policy: c.Args().Get(0), agent: c.Args().Get(1), preload: preload, verifyKey: c.String("verify-key")}, stdin, stdout)
		},
	}
}

// sessionOptions are the flags and arguments of kokua-run session.
type sessionOptions struct {
	policy, agent string
	// preload are earlier successful loads, in first-loaded order (R183).
	preload []string
	// verifyKey is the public key file of --verify-key, or "".
	verifyKey string
}

// session runs a scripted conversation: it reads one command a line from
// stdin and answers each on stdout.
//
//	load <toolset>             load a deferred toolset (load_tools)
//	call [--unattended] <tool> decide a call, tool as toolset.tool or bare
//	tools                      the tools held now, in presentation order
//	names                      the system prompt's names line
//
// Blank lines and lines starting with # are skipped. A line that is none
// of these, or one of them with a missing or extra argument, ends the
// session: what was answered so far is on stdout, the line's number and
// what is wrong with it on stderr, and the exit code is ExitUsage.
func session(o sessionOptions, stdin io.Reader, stdout io.Writer) (err error) {
	p, err := load(o.policy, o.verifyKey)
	if err != nil {
		return err
	}
	s, results, err := p.Preload(o.agent, o.preload)
	if err != nil {
		return cli.Fail(cli.ExitUsage, "kokua-run: %v", err)
	}
	out := bufio.NewWriter(stdout)
	// The transcript so far is written out before any message on stderr.
	// A transcript that could not be written ends the session with
	// ExitInternal, whatever else went wrong: what stdout was to hold is
	// not there.
	defer func() {
		if ferr := out.Flush(); ferr != nil {
			err = cli.StdoutFailed("kokua-run session", "the transcript", ferr)
		}
	}()
	for _, r := range results {
		if r.Warning != "" {
			fmt.Fprintf(out, "WARNING %s\n", printable.String(r.Warning))
		}
	}
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; in.Scan(); n++ {
		line := strings.TrimSpace(in.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// Everything echoed comes from the script or the policy file, and
		// goes through printable.String: one line each, nothing raw.
		fmt.Fprintf(out, "> %s\n", printable.String(line))
		cmd, arg, _ := strings.Cut(line, " ")
		arg = strings.TrimSpace(arg)
		bad := func(format string, args ...any) error {
			return cli.Fail(cli.ExitUsage, "kokua-run session: line %d: %s; the commands are load <toolset>, call [--unattended] <tool>, tools and names",
				n, printable.String(fmt.Sprintf(format, args...)))
		}
		switch cmd {
		case "load":
			var ok bool
			if arg, ok = oneName(arg); !ok {
				return bad("load takes one toolset")
			}
			// A load answer is lines: the toolset's guidance follows it.
			fmt.Fprintln(out, printable.Lines(s.Load(arg).Message))
		case "call":
			turn := policy.Turn{}
			if rest, ok := strings.CutPrefix(arg, "--unattended"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				turn.Unattended, arg = true, strings.TrimSpace(rest)
			}
			var ok bool
			if arg, ok = oneName(arg); !ok {
				return bad("call takes one tool, as toolset.tool or the bare name")
			}
			fmt.Fprintln(out, printable.String(human(s.Decide(arg, turn))))
		case "tools", "names":
			if arg != "" {
				return bad("%s takes nothing after it", cmd)
			}
			if cmd == "tools" {
				for _, t := range s.Tools() {
					fmt.Fprintf(out, "%s (%s)\n", printable.String(t.Name), printable.String(t.Toolset))
				}
			} else if line := s.NamesLine(); line != "" {
				fmt.Fprintln(out, printable.String(line))
			} else {
				fmt.Fprintln(out, "(nothing left to load)")
			}
		default:
			if near := cli.Closest(cmd, scriptCommands); near != "" {
				return bad("unknown command %q (did you mean %q?)", cmd, near)
			}
			return bad("unknown command %q", cmd)
		}
	}
	if err := in.Err(); err != nil {
		return cli.Fail(cli.ExitUsage, "kokua-run: reading the script: %v", err)
	}
	return nil
}

// oneName reads a session line's one argument: a word, or a name in
// double quotes with Go's escapes, for a toolset Kokua registers with a
// space in its name ("my wiki", "my wiki.search").
func oneName(arg string) (string, bool) {
	if strings.HasPrefix(arg, `"`) {
		name, err := strconv.Unquote(arg)
		return name, err == nil && name != ""
	}
	return arg, arg != "" && !strings.ContainsAny(arg, " \t")
}
