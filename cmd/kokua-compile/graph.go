package main

import (
	"context"
	"io"
	"slices"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/lint"
)

// graphCommand is kokua-compile graph: the delegation graph with each
// agent's reach.
func graphCommand(_ io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "graph",
		Usage:     "draw the delegation graph with each agent's reach, in Graphviz DOT or Mermaid",
		UsageText: "kokua-compile graph [--manifest FILE] [--format dot|mermaid] CONFIG|POLICY",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			&urfave.StringFlag{Name: "format", Local: true, Value: "dot", Usage: "dot (Graphviz) or mermaid"},
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return usage("name exactly one config or compiled policy")
			}
			format := cli.String(c, "format")
			if !slices.Contains(reach.Formats, format) {
				return usage("--format takes dot or mermaid, not %q", format)
			}
			src, err := lint.ReadFile(c.Args().First())
			if err != nil {
				return usage("%v", err)
			}
			m, err := cli.Manifest(cli.String(c, "manifest"))
			if err != nil {
				return usage("%v", err)
			}
			side, err := loadSide(src, m, stderr, "no graph was drawn")
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
