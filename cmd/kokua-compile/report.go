package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"slices"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/report"
	"github.com/kokua-policy/kokua-policy/lint"
)

// reportCommand is kokua-compile report: the policy explorer, one HTML
// file (package report).
func reportCommand(stdin io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "report",
		Usage:     "write the policy explorer: one self-contained HTML page with the agents-by-tools matrix, reasons, reach graph, a simulator and, with --base, what a change did",
		UsageText: "kokua-compile report [--manifest FILE] [--base OLD|--base REF] [--fail-on critical|high|medium|any] [-o report.html] [--verify-key PUB] CONFIG|POLICY",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			cli.ColorFlag("colour of diagnostics: auto, always or never"),
			cli.StdinFilenameFlag(),
			&urfave.StringFlag{Name: "base", Local: true, Usage: "compare with `OLD`, a config or policy file, or, when no such file exists, the config at the git revision REF (REF:CONFIG, its links followed)"},
			failOnFlag("with --base, the --fail-on of kokua-compile diff the page's verdict is for: critical, high, medium, or any (any widening or graded change)"),
			&urfave.StringFlag{Name: "output", Aliases: []string{"o"}, Local: true, Usage: "write the page to `FILE` (a regular file or none; atomically, keeping its mode, owner and group) instead of stdout"},
			cli.InPlaceFlag(),
			cli.VerifyKeyFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return oneConfig
			}
			o := lintOptions{config: c.Args().First(), manifest: cli.String(c, "manifest"), format: "human", color: cli.String(c, "color"), stdinName: c.String("stdin-filename")}
			failOn := c.String("fail-on")
			if !slices.Contains(diff.FailOn, failOn) {
				return usage("--fail-on takes critical, high, medium or any, not %q%s", failOn, cli.Mean(failOn, diff.FailOn...))
			}
			if c.IsSet("fail-on") && cli.String(c, "base") == "" {
				return usage("--fail-on says which grade fails a change; name the change's old side with --base")
			}
			return writeReport(o, cli.String(c, "base"), failOn, c.String("verify-key"), reportOutput{cli.String(c, "output"), c.Bool("in-place")}, stdin, stdout, stderr)
		},
	}
}

// reportOutput is where report writes the page: -o, and --in-place.
type reportOutput struct {
	path    string
	inPlace bool
}

// failOnFlag is --fail-on, the least grade that fails a change, as
// kokua-compile diff takes it and kokua-compile report says its verdict
// for; both default to any.
func failOnFlag(help string) *urfave.StringFlag {
	return &urfave.StringFlag{Name: "fail-on", Local: true, Value: "any", Usage: help}
}

// writeReport reads the input (and the base), builds the page and writes
// it to stdout or to output; with a base, the page's verdict is for
// --fail-on failOn. Nothing is written when an input cannot be
// read or has errors.
func writeReport(o lintOptions, base, failOn, verifyKey string, out reportOutput, stdin io.Reader, stdout, stderr io.Writer) error {
	output := out.path
	if output == "" && cli.Terminal(stdout) {
		// Some 60 KB of HTML is of no use on a terminal.
		return usage("report: the page is an HTML file, and standard output is a terminal: write it with -o report.html (or redirect standard output to a file), then open it in a browser")
	}
	if err := cli.WritableOutput("kokua-compile", "-o", output, out.inPlace); err != nil {
		return err
	}
	baseFile := ""
	if base != "" {
		if _, err := os.Stat(base); err == nil {
			baseFile = base
		}
	}
	if err := cli.NotAnInput("kokua-compile", "-o", output, stdin, cli.Input{What: "the config", Path: o.config},
		cli.Input{What: "the manifest", Path: o.manifest}, cli.Input{What: "the base", Path: baseFile},
		cli.Input{What: "the verify key", Path: verifyKey}); err != nil {
		return err
	}
	src, m, err := readInputs(o, stdin)
	if err != nil {
		return err
	}
	in := report.Input{Name: src.Name, FailOn: failOn}
	var inputs []lint.Source // the base, when there is one, then the input
	manifests := []*lint.Manifest{m, m}
	note := ""
	if base != "" {
		var old lint.Source
		switch {
		case baseFile != "":
			old, err = lint.ReadFile(baseFile)
		case o.config == cli.Stdin:
			return usage("--base %s names no file, and a config read from standard input has no git revision to read it at", base)
		default:
			old, err = gitShow(base, o.config)
			if err == nil {
				// The base is graded with the manifest at REF too.
				if manifests[0], _, note, err = sideManifests(o.manifest, "", base, old); err != nil {
					return err
				}
			}
		}
		if err != nil {
			return usage("%v", err)
		}
		inputs = append(inputs, old)
	}
	inputs = append(inputs, src)
	key, err := policyKey(verifyKey, inputs...)
	if err != nil {
		return err
	}
	sides, err := loadSidesWith(manifests[2-len(inputs):], key, stderr, "no report was written", inputs...)
	if err != nil {
		return err
	}
	sides[0].ManifestNote = note
	in.Policy = sides[len(sides)-1].Policy
	if base != "" {
		in.Changes = diff.Compare(sides[0], sides[1])
	}
	if !diff.IsPolicy(src.Data) {
		in.Config = src.Data
	}
	var page bytes.Buffer
	if err := report.Write(&page, report.Build(in)); err != nil {
		return cli.Fail(cli.ExitInternal, "kokua-compile: %v", err)
	}
	if output == "" {
		if _, err := stdout.Write(page.Bytes()); err != nil {
			return cli.StdoutFailed("kokua-compile", "the report", err)
		}
		return nil
	}
	return cli.WriteOutput("kokua-compile", output, page.Bytes(), out.inPlace)
}
