package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/rules"
)

// Main runs kokua-lint on args, args[0] being the program as in os.Args,
// and returns its exit code (README: 0 clean, 1 findings, 2 usage or an
// unreadable input, 3 internal error). It reads and writes only the
// streams it is given.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := &urfave.Command{
		Name:      "kokua-lint",
		Usage:     "check Kokua's config.toml tool access offline",
		UsageText: "kokua-lint [--manifest FILE] [--format human|json|sarif|github] [--color auto|always|never] [--fail-on error|warning] CONFIG...",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			cli.FormatFlag("output format: human, json, sarif (SARIF 2.1.0) or github (GitHub Actions annotations)"),
			cli.ColorFlag("colour: auto, always or never (auto honours NO_COLOR)"),
			&urfave.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 on findings of this severity or worse: error or warning"},
			&urfave.BoolFlag{Name: "list-rules", Usage: "print every rule with its severity, phase and summary"},
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.Bool("list-rules") {
				return listRules(stdout)
			}
			return lintConfigs(options{
				configs: c.Args().Slice(), manifest: c.String("manifest"), format: c.String("format"),
				color: c.String("color"), failOn: c.String("fail-on"),
			}, stdout, stderr)
		},
	}
	return cli.Run(root, args, stdin, stdout, stderr)
}

// options are kokua-lint's flags and arguments.
type options struct {
	configs  []string
	manifest string
	format   string
	color    string
	failOn   string
}

// usage is a usage error of kokua-lint.
func usage(format string, args ...any) error {
	return cli.Fail(cli.ExitUsage, "kokua-lint: "+format, args...)
}

// lintConfigs lints every config against one manifest and writes the
// findings of all of them, sorted, in one report.
func lintConfigs(o options, stdout, stderr io.Writer) error {
	failOn, err := diag.ParseSeverity(o.failOn)
	if err != nil || failOn == diag.Info {
		return usage("--fail-on takes error or warning, not %q", o.failOn)
	}
	switch o.format {
	case "human", "json", "sarif", "github":
	default:
		return usage("--format takes human, json, sarif or github, not %q", o.format)
	}
	color, err := cli.UseColor(o.color, stdout)
	if err != nil {
		return usage("%v", err)
	}
	if len(o.configs) == 0 {
		return usage("name at least one config file (kokua-lint config.toml)")
	}

	m, err := cli.Manifest(o.manifest)
	if err != nil {
		return usage("%v", err)
	}
	sources := map[string][]byte{m.Source.Name: m.Source.Data}
	var all []diag.Diagnostic
	for _, path := range o.configs {
		src, err := lint.ReadFile(path)
		if err != nil {
			return usage("%v", err)
		}
		sources[src.Name] = src.Data
		all = append(all, lint.Lint(src, m).Diagnostics...)
	}
	all = diag.Sort(all)

	if o.format == "human" && m.Embedded {
		fmt.Fprintf(stderr, "kokua-lint: no --manifest given: checking against the embedded default Kokua install (%d toolsets)\n", len(m.Manifest.Toolsets))
	}
	if err := lint.Write(stdout, o.format, all, lint.WriteOptions{Sources: sources, Style: cli.Style(color)}); err != nil {
		return usage("writing the report: %v", err)
	}
	for _, d := range all {
		if d.Severity.AtLeast(failOn) {
			return cli.Code(cli.ExitFindings)
		}
	}
	return nil
}

// listRules prints every rule: its ID, severity, phase, summary and the
// numbers of the spec it implements, in columns.
func listRules(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rules.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Phase, r.Summary, strings.Join(r.Refs, " "))
	}
	if err := tw.Flush(); err != nil {
		return cli.Code(cli.ExitUsage)
	}
	return nil
}
