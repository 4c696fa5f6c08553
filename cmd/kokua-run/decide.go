package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/policy"
	"github.com/kokua-policy/kokua-policy/server"
)

// decideCommand is kokua-run decide: one call, answered on stdout and by
// the exit code; a name that looks mistyped gets a line on stderr.
func decideCommand(stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "decide",
		Usage:     "answer one call: run, confirm, review, not_loaded, unavailable or denied (the exit code says which)",
		UsageText: "kokua-run decide [--format human|json] [--unattended] [--verify-key PUB] [--decision-log FILE|-] POLICY AGENT TOOL",
		Flags: []urfave.Flag{
			&urfave.StringFlag{Name: "format", Value: "human", Usage: "human or json"},
			&urfave.BoolFlag{Name: "unattended", Usage: "the call is in a turn nobody watches: gated calls are denied"},
			cli.VerifyKeyFlag(),
			decisionLogFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 3 {
				return cli.Fail(cli.ExitUsage, "kokua-run decide: want POLICY AGENT TOOL")
			}
			return decide(decideOptions{policy: c.Args().Get(0), agent: c.Args().Get(1), tool: c.Args().Get(2),
				format: c.String("format"), unattended: c.Bool("unattended"), verifyKey: c.String("verify-key"),
				decisionLog: c.String("decision-log")}, stdout, stderr)
		},
	}
}

// decideOptions are the flags and arguments of kokua-run decide.
type decideOptions struct {
	policy, agent, tool string
	format              string
	unattended          bool
	// verifyKey is the public key file of --verify-key, or "".
	verifyKey string
	// decisionLog is the file of --decision-log, "-" for stdout, or "".
	decisionLog string
}

// decide loads a policy and answers one call; the exit code is the
// decision's.
func decide(o decideOptions, stdout, stderr io.Writer) error {
	if o.format != "human" && o.format != "json" {
		return cli.Fail(cli.ExitUsage, "kokua-run: --format takes human or json, not %q", o.format)
	}
	var dlog *server.DecisionLog
	if o.decisionLog != "" {
		// One record: a buffer of the default 8,192 would be set up for
		// nothing.
		l, err := openDecisionLog("kokua-run decide", o.decisionLog, stdout, server.DecisionLogOptions{Buffer: 4})
		if err != nil {
			return err
		}
		dlog = l
		// The log is closed last: its record, if any, follows the answer
		// (with -, on the next line of standard output).
		defer closeDecideLog(dlog, stderr)
	}
	p, err := load(o.policy, o.verifyKey)
	if err != nil {
		return err
	}
	asked := time.Now()
	a := p.Decide(o.agent, o.tool, policy.Turn{Unattended: o.unattended})
	latency := time.Since(asked)
	// The JSON is the HTTP API's answer, the close names of a mistyped
	// agent or tool included.
	hinted := server.Hint(p, a)
	// Names in an answer come from the policy file: printable.JSON and
	// printable.String keep their control and bidirectional characters off
	// the terminal.
	if o.format == "json" {
		data, err := json.Marshal(&hinted)
		if err != nil {
			return cli.Fail(cli.ExitInternal, "kokua-run decide: %v", err)
		}
		if _, err := stdout.Write(append(printable.JSON(data), '\n')); err != nil {
			return cli.StdoutFailed("kokua-run decide", "the answer", err)
		}
	} else if _, err := fmt.Fprintln(stdout, printable.String(human(a))); err != nil {
		return cli.StdoutFailed("kokua-run decide", "the answer", err)
	}
	// Only an answer given is a decision: one that could not be written
	// (exit 3) is not logged.
	if dlog != nil {
		dlog.Log(server.LoggedDecision{Time: asked, Source: "kokua-run decide", Digest: p.Document().Digest,
			Agent: o.agent, Tool: o.tool, Unattended: o.unattended, Answer: a, Latency: latency})
	}
	if h := mistyped(hinted); h != "" {
		_, _ = fmt.Fprintln(stderr, "kokua-run decide: "+printable.String(h))
	}
	return cli.Code(exitCode(a.Decision))
}

// closeDecideLog closes decide's decision log. A record that could not be
// written is said on stderr, and changes neither the answer nor the exit
// code.
func closeDecideLog(l *server.DecisionLog, stderr io.Writer) {
	err := closeDecisionLog(l)
	if _, failed := l.Dropped(); err == nil && failed > 0 {
		err = errors.New("the record could not be written")
	}
	if err != nil {
		_, _ = fmt.Fprintln(stderr, "kokua-run decide: --decision-log: "+printable.String(err.Error()))
	}
}

// mistyped says, of an answer for an agent or a tool the policy does not
// know, which known name is close (server.Hint, which the HTTP API's
// answer carries too), or "". The answer stands as it is (a policy fails
// closed); the line is for the person who typed the names.
func mistyped(h server.Answer) string {
	switch {
	case len(h.DidYouMean) == 0:
		return ""
	case h.Decision == policy.Denied:
		return fmt.Sprintf("the policy declares no agent '%s': did you mean '%s'?", h.Agent, h.DidYouMean[0])
	}
	return fmt.Sprintf("no toolset of the policy provides a tool '%s': did you mean '%s'?", h.Tool, h.DidYouMean[0])
}

// exitCode is the exit code of a decision.
func exitCode(d policy.Decision) int {
	switch d {
	case policy.Run:
		return cli.ExitOK
	case policy.Confirm:
		return cli.ExitConfirm
	case policy.Review:
		return cli.ExitReview
	case policy.NotLoaded:
		return cli.ExitNotLoaded
	case policy.Unavailable:
		return cli.ExitUnavailable
	}
	return cli.ExitDenied
}
