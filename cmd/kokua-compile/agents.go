package main

import (
	"context"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/compile"
)

// agentsCommand is kokua-compile agents: each agent's access, for people.
func agentsCommand(stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "agents",
		Usage:     "show each agent's availability, residency and approval, and where they come from",
		UsageText: "kokua-compile agents [--manifest FILE] CONFIG",
		Flags:     lintFlags(),
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return oneConfig
			}
			return agents(lintOptionsOf(c), stdout, stderr)
		},
	}
}

// agents lints the config and, when it has no error, writes the human
// view of each agent.
func agents(o lintOptions, stdout, stderr io.Writer) error {
	res, _, _, err := lintConfig(o, stderr)
	if err != nil {
		return err
	}
	if err := compile.WriteAgents(stdout, res.World); err != nil {
		return usage("%v", err)
	}
	return nil
}
