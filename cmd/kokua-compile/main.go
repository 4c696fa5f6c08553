// Command kokua-compile writes the resolved tool-access policy of a Kokua
// config.toml as one deterministic JSON document, or shows each agent's
// resolved access (kokua-compile agents).
package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/command"
	"github.com/kokua-policy/kokua-policy/lint"
)

func main() {
	code := lint.ExitOK
	flags := []cli.Flag{
		&cli.StringFlag{Name: "manifest", Usage: "registry manifest `FILE` (default: the embedded default install)"},
		&cli.StringFlag{Name: "format", Value: "human", Usage: "format of diagnostics: human or json"},
		&cli.StringFlag{Name: "color", Value: "auto", Usage: "colour of diagnostics: auto, always or never"},
	}
	run := func(c *cli.Context, agents bool) error {
		if c.NArg() != 1 {
			return cli.Exit("kokua-compile: name exactly one config file", lint.ExitUsage)
		}
		code = compile.Run(compile.Options{
			Config: c.Args().First(), Manifest: c.String("manifest"), Output: c.String("output"),
			Format: c.String("format"), Color: c.String("color"), Agents: agents, Check: c.Bool("check"),
			Stdout: os.Stdout, Stderr: os.Stderr,
		})
		return nil
	}
	app := &cli.App{
		Name:      "kokua-compile",
		Usage:     "write the resolved tool-access policy of a Kokua config.toml",
		UsageText: "kokua-compile [--manifest FILE] [-o FILE] CONFIG\nkokua-compile --check -o FILE [--manifest FILE] CONFIG\nkokua-compile agents [--manifest FILE] CONFIG",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the policy to `FILE` (atomically) instead of stdout"},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 when the policy in -o FILE is missing or stale against CONFIG"},
		}, flags...),
		HideHelpCommand: true,
		Action:          func(c *cli.Context) error { return run(c, false) },
		Commands: []*cli.Command{{
			Name:      "agents",
			Usage:     "show each agent's availability, residency and approval, and where they come from",
			UsageText: "kokua-compile agents [--manifest FILE] CONFIG",
			Flags:     flags,
			Action:    func(c *cli.Context) error { return run(c, true) },
		}},
	}
	command.Run(app, &code)
}
