package main

import (
	"context"
	"io"
	"slices"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// riskFailOn are the values of risks --fail-on, from the most serious:
// the least grade of a path that makes the run fail. A risk path is graded
// critical, high or medium (docs/risks.md), so there is no "any".
var riskFailOn = []reach.Grade{reach.Critical, reach.High, reach.Medium}

// risksCommand is kokua-compile risks: for every agent, what it can set
// running and the paths from untrusted content to power in it.
func risksCommand(_ io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "risks",
		Usage:     "list, for every agent, the paths from untrusted content to exec, write, self-modify, persist and egress tools, most severe first; with --fail-on, exit 1 when a path reaches that grade",
		UsageText: "kokua-compile risks [--manifest FILE] [--format " + diff.RiskFormats.Synopsis() + "] [--fail-on critical|high|medium] [--verify-key PUB] CONFIG|POLICY",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			cli.FormatFlag("format of the report", diff.RiskFormats.List),
			&urfave.StringFlag{Name: "fail-on", Local: true, Usage: "exit 1 when a risk path is graded at least `GRADE`: critical, high or medium (default: list, and exit 0)"},
			cli.VerifyKeyFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			var failOn reach.Grade
			if c.IsSet("fail-on") {
				v := c.String("fail-on")
				i := slices.IndexFunc(riskFailOn, func(g reach.Grade) bool { return g.String() == v })
				if i < 0 {
					return usage("--fail-on takes critical, high or medium, not %q%s", v, cli.Mean(v, "critical", "high", "medium"))
				}
				failOn = riskFailOn[i]
			}
			side, format, err := oneSide(c, stderr, diff.RiskFormats.List, "no risk was listed")
			if err != nil {
				return err
			}
			r := diff.Risks(side)
			if err := diff.WriteRisks(stdout, format, r); err != nil {
				return cli.StdoutFailed("kokua-compile", "the risks", err)
			}
			if n := reaching(r.Grades, failOn); n > 0 {
				paths := "risk paths"
				if n == 1 {
					paths = "risk path"
				}
				return cli.Fail(cli.ExitFindings, "kokua-compile: %s has %d %s graded %s or above (--fail-on %s)", r.File, n, paths, failOn, failOn)
			}
			return nil
		},
	}
}

// reaching counts the paths graded at least g; none when g is NoGrade
// (no --fail-on).
func reaching(c diff.GradeCount, g reach.Grade) int {
	if g == reach.NoGrade {
		return 0
	}
	n := 0
	for _, x := range riskFailOn {
		if x >= g {
			n += c.Of(x)
		}
	}
	return n
}
