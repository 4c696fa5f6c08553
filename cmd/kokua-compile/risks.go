package main

import (
	"context"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/diff"
)

// risksCommand is kokua-compile risks: for every agent, what it can set
// running and the paths from untrusted content to power in it.
func risksCommand(_ io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "risks",
		Usage:     "list, for every agent, the paths from untrusted content to exec, write, self-modify, persist and egress tools, most severe first",
		UsageText: "kokua-compile risks [--manifest FILE] [--format human|json|markdown] [--verify-key PUB] CONFIG|POLICY",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			cli.FormatFlag("format of the report: human, json or markdown"),
			cli.VerifyKeyFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			side, format, err := oneSide(c, stderr, diff.RiskFormats, "no risk was listed")
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
