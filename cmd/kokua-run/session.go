package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/policy"
)

// sessionCommand is kokua-run session: a conversation scripted on stdin.
func sessionCommand(stdin io.Reader, stdout io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "session",
		Usage:     "run a conversation scripted on stdin: load <toolset>, call <tool>, tools, names",
		UsageText: "kokua-run session [--preload TOOLSET,...] POLICY AGENT < script",
		Flags: []urfave.Flag{
			&urfave.StringFlag{Name: "preload", Usage: "toolsets the transcript loaded successfully, in first-loaded order"},
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 2 {
				return cli.Fail(cli.ExitUsage, "kokua-run session: want POLICY AGENT")
			}
			var preload []string
			if p := c.String("preload"); p != "" {
				preload = strings.Split(p, ",")
			}
			return session(sessionOptions{policy: c.Args().Get(0), agent: c.Args().Get(1), preload: preload}, stdin, stdout)
		},
	}
}

// sessionOptions are the flags and arguments of kokua-run session.
type sessionOptions struct {
	policy, agent string
	// preload are earlier successful loads, in first-loaded order (R183).
	preload []string
}

// session runs a scripted conversation: it reads one command a line from
// stdin and answers each on stdout.
//
//	load <toolset>             load a deferred toolset (load_tools)
//	call [--unattended] <tool> decide a call, tool as toolset.tool or bare
//	tools                      the tools held now, in presentation order
//	names                      the system prompt's names line
//
// Blank lines and lines starting with # are skipped.
func session(o sessionOptions, stdin io.Reader, stdout io.Writer) (err error) {
	p, err := load(o.policy)
	if err != nil {
		return err
	}
	s, results, err := p.Preload(o.agent, o.preload)
	if err != nil {
		return cli.Fail(cli.ExitUsage, "kokua-run: %v", err)
	}
	out := bufio.NewWriter(stdout)
	// The transcript so far is written out before any message on stderr.
	defer func() { _ = out.Flush() }()
	for _, r := range results {
		if r.Warning != "" {
			fmt.Fprintf(out, "WARNING %s\n", r.Warning)
		}
	}
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 0, 4096), 1<<20)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fmt.Fprintf(out, "> %s\n", line)
		cmd, arg, _ := strings.Cut(line, " ")
		arg = strings.TrimSpace(arg)
		switch cmd {
		case "load":
			fmt.Fprintln(out, s.Load(arg).Message)
		case "call":
			turn := policy.Turn{}
			if rest, ok := strings.CutPrefix(arg, "--unattended "); ok {
				turn.Unattended, arg = true, strings.TrimSpace(rest)
			}
			fmt.Fprintln(out, human(s.Decide(arg, turn)))
		case "tools":
			for _, t := range s.Tools() {
				fmt.Fprintf(out, "%s (%s)\n", t.Name, t.Toolset)
			}
		case "names":
			if line := s.NamesLine(); line != "" {
				fmt.Fprintln(out, line)
			} else {
				fmt.Fprintln(out, "(nothing left to load)")
			}
		default:
			fmt.Fprintf(out, "unknown command %q: use load <toolset>, call <tool>, tools or names\n", cmd)
		}
	}
	if err := in.Err(); err != nil {
		return cli.Fail(cli.ExitUsage, "kokua-run: reading the script: %v", err)
	}
	return nil
}
