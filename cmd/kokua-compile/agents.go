package main

import (
	"context"
	"encoding/json"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
)

// agentsCommand is kokua-compile agents: each agent's access, for people
// (--format human) or for programs (--format json: the agents of the
// policy document, docs/policy.md).
func agentsCommand(stdin io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "agents",
		Usage:     "show each agent's availability, residency and approval, and where they come from",
		UsageText: "kokua-compile agents [--manifest FILE] [--format human|json] CONFIG",
		Flags:     lintFlags("format of the listing and of diagnostics: human or json"),
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return oneConfig
			}
			return agents(lintOptionsOf(c), stdin, stdout, stderr)
		},
	}
}

// agents lints the config and, when it has no error, writes the view of
// each agent.
func agents(o lintOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	if o.format != "human" && o.format != "json" {
		return usage("agents lists in --format human or json, not %q", o.format)
	}
	src, m, err := readInputs(o, stdin)
	if err != nil {
		return err
	}
	l, err := lintConfig(o, src, m, stderr, false)
	if err != nil {
		return err
	}
	if o.format == "json" {
		doc := engine.Compile(l.res.World, l.cfg, l.manifest)
		data, err := json.MarshalIndent(struct {
			Agents any `json:"agents"`
		}{doc.Agents}, "", "  ")
		if err != nil {
			return cli.Fail(cli.ExitInternal, "kokua-compile: %v", err)
		}
		// Names come from the config and the manifest: no control or
		// bidirectional character of one reaches the terminal raw.
		if _, err := stdout.Write(append(diag.PrintableJSON(data), '\n')); err != nil {
			return cli.StdoutFailed("kokua-compile", "the agents", err)
		}
		return nil
	}
	if err := engine.WriteAgents(stdout, l.res.World); err != nil {
		return cli.StdoutFailed("kokua-compile", "the agents", err)
	}
	return nil
}
