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
	"github.com/kokua-policy/kokua-policy/internal/format"
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
		UsageText: "kokua-compile agents [--manifest FILE] [--format " + agentsFormats.Synopsis() + "] [--verify-key PUB] CONFIG|POLICY",
		Flags:     append(lintFlags("format of the listing and of diagnostics", agentsFormats.List, nil), cli.VerifyKeyFlag()),
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
	if err := agentsFormats.Check(o.format); err != nil {
		return usage("agents: %v", err)
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

// agentsView is what kokua-compile agents lists: the agents of doc, and
// the human view human writes.
type agentsView struct {
	doc   *policy.Document
	human func(io.Writer) error
}

// agentsFormats are the formats of kokua-compile agents; its --format is
// also the format of the config's findings, so each is one of lint's too.
var agentsFormats = format.New("agents",
	format.Format[agentsView]{Info: format.Info{Name: "human"}, Write: func(w io.Writer, v agentsView) error { return v.human(w) }},
	format.Format[agentsView]{Info: format.Info{Name: "json"}, Write: func(w io.Writer, v agentsView) error {
		data, err := json.MarshalIndent(struct {
			Agents any `json:"agents"`
		}{v.doc.Agents}, "", "  ")
		if err != nil {
			return err
		}
		// Names come from the config and the manifest: no control or
		// bidirectional character of one reaches the terminal raw.
		_, err = w.Write(append(printable.JSON(data), '\n'))
		return err
	}},
)

// writeAgents writes the agents of doc in JSON, or the human view human
// writes.
func writeAgents(format string, doc *policy.Document, stdout io.Writer, human func(io.Writer) error) error {
	if err := agentsFormats.Write(stdout, format, agentsView{doc: doc, human: human}); err != nil {
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
