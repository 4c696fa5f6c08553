package main

import (
	"context"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// graphCommand is kokua-compile graph: the delegation graph with each
// agent's reach.
func graphCommand(_ io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "graph",
		Usage:     "draw the delegation graph with each agent's reach, in Graphviz DOT or Mermaid",
		UsageText: "kokua-compile graph [--manifest FILE] [--format " + reach.Formats.Synopsis() + "] [--verify-key PUB] CONFIG|POLICY",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			cli.FormatFlag("format of the drawing", reach.Formats.List),
			cli.VerifyKeyFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			side, format, err := oneSide(c, stderr, reach.Formats.List, "no graph was drawn")
			if err != nil {
				return err
			}
			if err := reach.Write(stdout, format, side.Graph); err != nil {
				return cli.StdoutFailed("kokua-compile", "the graph", err)
			}
			return nil
		},
	}
}
