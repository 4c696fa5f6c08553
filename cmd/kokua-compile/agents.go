package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/policy"
)

// agentsCommand is kokua-compile agents: each agent's access, for people
// (--format human) or for programs (--format json: the agents of the
// policy document, docs/policy.md).
func agentsCommand(stdin io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "agents",
		Usage:     "show each agent's availability, residency and approval, and where they come from",
		UsageText: "kokua-compile agents [--manifest FILE] [--format human|json] [--verify-key PUB] CONFIG|POLICY",
		Flags:     append(lintFlags("format of the listing and of diagnostics: human or json", nil), cli.VerifyKeyFlag()),
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return oneConfig
			}
			return agents(lintOptionsOf(c), c.String("verify-key"), stdin, stdout, stderr)
		},
	}
}

// agents lints the config and, when it has no error, writes the view of
// each agent; of a compiled policy, it writes the view of the policy's
// agents, or says the file is not a policy it can read or is not signed
// with the key of verifyKey.
func agents(o lintOptions, verifyKey string, stdin io.Reader, stdout, stderr io.Writer) error {
	if o.format != "human" && o.format != "json" {
		return usage("agents lists in --format human or json, not %q", o.format)
	}
	src, m, err := readInputs(o, stdin)
	if err != nil {
		return err
	}
	key, err := policyKey(verifyKey, src)
	if err != nil {
		return err
	}
	if diff.IsPolicy(src.Data) {
		// A compiled policy, as graph and diff take one: its agents are
		// read from it, verified, and no manifest is needed.
		p, err := diff.ParsePolicy(src, key)
		if errors.Is(err, policy.ErrSignature) {
			return usage("%v", err)
		}
		if err != nil {
			return notAPolicy(src.Name, err)
		}
		return writeAgents(o.format, p.Document(), stdout, func(w io.Writer) error { return engine.WritePolicyAgents(w, p.Document()) })
	}
	l, err := lintConfig(o, src, m, stderr, false, "no agents were listed")
	if err != nil {
		return err
	}
	doc := engine.Compile(l.res.World, l.cfg, l.manifest)
	return writeAgents(o.format, doc, stdout, func(w io.Writer) error { return engine.WriteAgents(w, l.res.World) })
}

// writeAgents writes the agents of doc in JSON, or the human view human
// writes.
func writeAgents(format string, doc *policy.Document, stdout io.Writer, human func(io.Writer) error) error {
	if format == "json" {
		data, err := json.MarshalIndent(struct {
			Agents any `json:"agents"`
		}{doc.Agents}, "", "  ")
		if err != nil {
			return cli.Fail(cli.ExitInternal, "kokua-compile: %v", err)
		}
		// Names come from the config and the manifest: no control or
		// bidirectional character of one reaches the terminal raw.
		if _, err := stdout.Write(append(printable.JSON(data), '\n')); err != nil {
			return cli.StdoutFailed("kokua-compile", "the agents", err)
		}
		return nil
	}
	if err := human(stdout); err != nil {
		return cli.StdoutFailed("kokua-compile", "the agents", err)
	}
	return nil
}

// notAPolicy is the usage error of a file that starts as JSON, so is no
// config, but that policy.Parse refuses: it says the file is not a policy
// and why.
func notAPolicy(name string, err error) error {
	why := err.Error()
	var le *policy.LoadError
	if errors.As(err, &le) {
		why = le.Reason
	}
	return usage("%s is not a policy kokua-compile can read: %s", name, why)
}
