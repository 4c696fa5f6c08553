// Command kokua-run loads a compiled policy and answers what Kokua answers
// at runtime: may this agent call this tool, does the call ask first and
// whom, what does loading a toolset add. It fails closed.
package main

import (
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/kokua-policy/kokua-policy/internal/command"
	"github.com/kokua-policy/kokua-policy/run"
	"github.com/kokua-policy/kokua-policy/server"
)

func main() {
	code := 0
	app := &cli.App{
		Name:            "kokua-run",
		Usage:           "decide tool calls from a compiled Kokua policy",
		HideHelpCommand: true,
		Commands: []*cli.Command{
			{
				Name:      "decide",
				Usage:     "answer one call: run, confirm, review, not_loaded, unavailable or denied (the exit code says which)",
				UsageText: "kokua-run decide [--format human|json] [--unattended] POLICY AGENT TOOL",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "format", Value: "human", Usage: "human or json"},
					&cli.BoolFlag{Name: "unattended", Usage: "the call is in a turn nobody watches: gated calls are denied"},
				},
				Action: func(c *cli.Context) error {
					if c.NArg() != 3 {
						return cli.Exit("kokua-run decide: want POLICY AGENT TOOL", run.ExitUsage)
					}
					code = run.Decide(run.DecideOptions{Policy: c.Args().Get(0), Agent: c.Args().Get(1), Tool: c.Args().Get(2),
						Format: c.String("format"), Unattended: c.Bool("unattended"), Stdout: os.Stdout, Stderr: os.Stderr})
					return nil
				},
			},
			{
				Name:      "session",
				Usage:     "run a conversation scripted on stdin: load <toolset>, call <tool>, tools, names",
				UsageText: "kokua-run session [--preload TOOLSET,...] POLICY AGENT < script",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "preload", Usage: "toolsets the transcript loaded successfully, in first-loaded order"},
				},
				Action: func(c *cli.Context) error {
					if c.NArg() != 2 {
						return cli.Exit("kokua-run session: want POLICY AGENT", run.ExitUsage)
					}
					var preload []string
					if p := c.String("preload"); p != "" {
						preload = strings.Split(p, ",")
					}
					code = run.Session(run.SessionOptions{Policy: c.Args().Get(0), Agent: c.Args().Get(1), Preload: preload,
						Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
					return nil
				},
			},
			{
				Name:      "serve",
				Usage:     "serve the JSON HTTP API, reloading the policy when it changes or on SIGHUP",
				UsageText: "kokua-run serve [--addr 127.0.0.1:8181] POLICY",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "addr", Value: server.DefaultAddr, Usage: "address to listen on (loopback by default)"},
				},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return cli.Exit("kokua-run serve: want POLICY", run.ExitUsage)
					}
					code = server.Main(server.Options{Policy: c.Args().First(), Addr: c.String("addr"), Stderr: os.Stderr})
					return nil
				},
			},
		},
	}
	command.Run(app, &code)
}
