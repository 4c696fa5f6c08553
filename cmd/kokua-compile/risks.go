package main

import (
	"context"
	"io"
	"slices"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/lint"
)

// risksCommand is kokua-compile risks: for every agent, what it can set
// running and the paths from untrusted content to power in it.
func risksCommand(_ io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "risks",
		Usage:     "list, for every agent, the paths from untrusted content to exec, write, self-modify, persist and egress tools, most severe first",
		UsageText: "kokua-compile risks [--manifest FILE] [--format human|json|markdown] CONFIG|POLICY",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			cli.FormatFlag("format of the report: human, json or markdown"),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return usage("name exactly one config or compiled policy")
			}
			format := cli.String(c, "format")
			if !slices.Contains(diff.RiskFormats, format) {
				return usage("--format takes human, json or markdown, not %q", format)
			}
			src, err := lint.ReadFile(c.Args().First())
			if err != nil {
				return usage("%v", err)
			}
			m, err := cli.Manifest(cli.String(c, "manifest"))
			if err != nil {
				return usage("%v", err)
			}
			side, err := loadSide(src, m, stderr, "no risk was listed")
			if err != nil {
				return err
			}
			if err := diff.WriteRisks(stdout, format, diff.Risks(side)); err != nil {
				return cli.StdoutFailed("kokua-compile", "the risks", err)
			}
			return nil
		},
	}
}
