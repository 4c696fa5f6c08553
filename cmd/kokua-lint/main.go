// Command kokua-lint checks Kokua's config.toml offline, against a registry
// manifest, for every problem Kokua would find at startup or at a toolset's
// first load, and reports them all at once.
package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/kokua-policy/kokua-policy/internal/command"
	"github.com/kokua-policy/kokua-policy/lint"
)

func main() {
	code := lint.ExitOK
	app := &cli.App{
		Name:      "kokua-lint",
		Usage:     "check Kokua's config.toml tool access offline",
		UsageText: "kokua-lint [--manifest FILE] [--format human|json|sarif|github] [--color auto|always|never] [--fail-on error|warning] CONFIG...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "manifest", Usage: "registry manifest `FILE` (default: the embedded default install)"},
			&cli.StringFlag{Name: "format", Value: "human", Usage: "output format: human, json, sarif (SARIF 2.1.0) or github (GitHub Actions annotations)"},
			&cli.StringFlag{Name: "color", Value: "auto", Usage: "colour: auto, always or never (auto honours NO_COLOR)"},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 on findings of this severity or worse: error or warning"},
			&cli.BoolFlag{Name: "list-rules", Usage: "print every rule with its severity, phase and summary"},
		},
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			code = lint.Run(lint.Options{
				Configs: c.Args().Slice(), Manifest: c.String("manifest"), Format: c.String("format"),
				Color: c.String("color"), FailOn: c.String("fail-on"), ListRules: c.Bool("list-rules"),
				Stdout: os.Stdout, Stderr: os.Stderr,
			})
			return nil
		},
	}
	command.Run(app, &code)
}
