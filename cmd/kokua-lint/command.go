package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/format"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/lint"
)

// Main runs kokua-lint on args, args[0] being the program as in os.Args,
// and returns its exit code (README: 0 clean, 1 findings, 2 usage or an
// unreadable input, 3 internal error). It reads and writes only the
// streams it is given.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Standard error carries only lines of text: whatever a message quotes
	// (a path, a name), no control or bidirectional character reaches it raw.
	stderr = printable.Writer{W: stderr}
	return cli.Run(command(stdin, stdout, stderr), args, stdin, stdout, stderr)
}

// command is kokua-lint's command tree, reading and writing the streams it is
// given.
func command(stdin io.Reader, stdout, stderr io.Writer) *urfave.Command {
	// The flags write where the action reads them (cli.Bind).
	var o options
	var list bool
	return &urfave.Command{
		Name:      "kokua-lint",
		Usage:     "check Kokua's config.toml tool access offline",
		UsageText: "kokua-lint [--manifest FILE] [--format " + lintFormats.Synopsis() + "] [--color auto|always|never] [--fail-on error|warning] [--only-kokua] CONFIG...|DIR...\nkokua-lint --fix [--unsafe-fixes] [--diff] CONFIG...\nkokua-lint [--stdin-filename NAME] - < config.toml\nkokua-lint --list-rules [--format " + ruleFormats.Synopsis() + "]\nkokua-lint manifest > kokua.manifest.json\nkokua-lint lsp [--manifest FILE]\nkokua-lint migrate [--manifest FILE] [--diff] [--write] [--fix] CONFIG|-",
		Flags: []urfave.Flag{
			cli.Bind(cli.ManifestFlag(), &o.manifest),
			cli.Bind(cli.FormatFlag("output format", lintFormats), &o.format),
			cli.Bind(cli.ColorFlag("colour: auto, always or never (auto honours NO_COLOR)"), &o.color),
			&urfave.StringFlag{Name: "fail-on", Local: true, Value: "error", Destination: &o.failOn, Usage: "exit 1 on findings of this severity or worse: error or warning"},
			&urfave.BoolFlag{Name: "list-rules", Local: true, Destination: &list, Usage: "print every rule with its severity, phase and summary, in --format " + ruleFormats.Usage()},
			cli.Bind(cli.StdinFilenameFlag(), &o.stdinName),
			cli.Bind(cli.OnlyKokuaFlag(), &o.onlyKokua),
			&urfave.BoolFlag{Name: "fix", Local: true, Destination: &o.fix, Usage: "make the safe fixes of the findings in each CONFIG, in place (a config read from - is written to standard output), and report what remains"},
			&urfave.BoolFlag{Name: "unsafe-fixes", Local: true, Destination: &o.unsafeFixes, Usage: "with --fix or --diff, make the unsafe fixes too: those that could widen what an agent may do"},
			&urfave.BoolFlag{Name: "diff", Local: true, Destination: &o.diff, Usage: "print what --fix would change as a unified diff, and write nothing"},
			&urfave.StringFlag{Name: "sarif-file", Local: true, Destination: &o.sarifFile, Usage: "also write the findings as SARIF 2.1.0 to `FILE`, in the same run (the GitHub Action annotates and uploads from one run)"},
			cli.Bind(cli.InPlaceFlag(), &o.inPlace),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			if list {
				if c.NArg() > 0 {
					return usage("--list-rules takes no config files")
				}
				return listRules(stdout, o.format)
			}
			o.configs = c.Args().Slice()
			return lintConfigs(o, stdin, stdout, stderr)
		},
		// One line per subcommand; each lives in its own file.
		Commands: []*urfave.Command{
			manifestCommand(stdout),
			lspCommand(stdin, stdout, stderr),
			migrateCommand(stdin, stdout, stderr),
		},
	}
}

// lintFormats are the formats of the findings (lint.Formats).
var lintFormats = cli.LintFormats()

// options are kokua-lint's flags and arguments.
type options struct {
	configs  []string
	manifest string
	format   string
	color    string
	failOn   string
	// stdinName names the config read from "-".
	stdinName string
	// onlyKokua skips, with one line on stderr, a file that is not
	// Kokua's config.toml.
	onlyKokua bool
	// sarifFile, when not empty, gets the findings as SARIF too.
	sarifFile string
	// fix makes the findings' fixes (fix.go), unsafeFixes the unsafe ones
	// too, and diff prints them instead of writing them.
	fix, unsafeFixes, diff bool
	// inPlace writes a config --fix fixes, or the SARIF file, in place
	// when it has other hard links, instead of refusing it.
	inPlace bool
}

// writeOptions are what o allows the writes of the run.
func (o options) writeOptions() regular.WriteOptions {
	return regular.WriteOptions{InPlace: o.inPlace}
}

// usage is a usage error of kokua-lint.
func usage(format string, args ...any) error {
	return cli.Fail(cli.ExitUsage, "kokua-lint: "+format, args...)
}

// lintConfigs lints every config against one manifest and writes the
// findings of all of them, sorted, in one report.
func lintConfigs(o options, stdin io.Reader, stdout, stderr io.Writer) error {
	failOn, err := diag.ParseSeverity(o.failOn)
	if err != nil || failOn == diag.Info {
		return usage("--fail-on takes error or warning, not %q%s", o.failOn, cli.Mean(o.failOn, "error", "warning"))
	}
	if err := lintFormats.Check(o.format); err != nil {
		return usage("%v", err)
	}
	color, err := cli.UseColor(o.color, stdout)
	if err != nil {
		return usage("%v", err)
	}
	if len(o.configs) == 0 {
		return usage("name at least one config file (kokua-lint config.toml), or - for standard input")
	}
	if err := cli.CheckStdin(o.configs, o.stdinName); err != nil {
		return usage("%v", err)
	}
	// A folder stands for the Kokua configs below it; one with none is
	// an input that cannot be read (its line on stderr, the others still
	// linted, and exit 2).
	var folderProblems []error
	o.configs, folderProblems = cli.Folders(o.configs)
	if o.unsafeFixes && !o.fix && !o.diff {
		return usage("--unsafe-fixes goes with --fix or --diff")
	}
	inputs := []cli.Input{{What: "the manifest", Path: o.manifest}}
	for _, c := range o.configs {
		inputs = append(inputs, cli.Input{What: "a config", Path: c})
	}
	if err := cli.WritableOutput("kokua-lint", "--sarif-file", o.sarifFile, o.inPlace); err != nil {
		return err
	}
	if err := cli.NotAnInput("kokua-lint", "--sarif-file", o.sarifFile, stdin, inputs...); err != nil {
		return err
	}
	if err := o.checkFixTargets(); err != nil {
		return err
	}

	m, err := cli.Manifest(o.manifest)
	if err != nil {
		return usage("%v", err)
	}
	sources := map[string][]byte{m.Source.Name: m.Source.Data}
	var all []diag.Diagnostic
	// A config that cannot be read gets its line on stderr and the exit
	// code of an unreadable input, ExitUsage, the worst of the run; the
	// others are still linted and reported.
	unreadable := len(folderProblems) > 0
	for _, err := range folderProblems {
		fmt.Fprintf(stderr, "kokua-lint: %s\n", printable.String(err.Error()))
	}
	for _, path := range o.configs {
		// A config --fix replaces is resolved once: the file read is
		// the file written.
		target, src, err := o.readConfig(path, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "kokua-lint: %s\n", printable.String(err.Error()))
			unreadable = true
			continue
		}
		// Fixing lints the config as given in its first round: that
		// lint says whether the file is Kokua's, so it is not made twice.
		var fixed *lint.Fixed
		var res *lint.Result
		if o.fix || o.diff {
			fixed = lint.Fix(src, m, o.unsafeFixes)
			res = fixed.Given
		} else {
			res = lint.Lint(src, m)
		}
		if o.onlyKokua && !res.Kokua {
			closeTarget(target)
			cli.SkipNote(stderr, "kokua-lint", src)
			continue
		}
		if fixed != nil {
			src, res, err = o.fixConfig(path, target, src, fixed, m, stdout, stderr)
		}
		closeTarget(target)
		if err != nil {
			return err
		}
		sources[src.Name] = src.Data
		all = append(all, res.Diagnostics...)
	}
	all = diag.Sort(all)
	if o.diff || o.fix && slices.Contains(o.configs, "-") {
		// Standard output carries the diff, or the fixed config: what
		// remains goes to standard error.
		stdout = stderr
	}

	if o.sarifFile != "" {
		var log bytes.Buffer
		if err := lint.Write(&log, "sarif", all, lint.WriteOptions{Sources: sources}); err != nil {
			return cli.Fail(cli.ExitInternal, "kokua-lint: writing the SARIF log: %v", err)
		}
		if err := cli.WriteOutput("kokua-lint: --sarif-file", o.sarifFile, log.Bytes(), o.inPlace); err != nil {
			return err
		}
	}
	if o.format == "human" && m.Embedded && len(sources) > 1 {
		fmt.Fprintf(stderr, "kokua-lint: no --manifest given: checking against the embedded default Kokua install (%d toolsets)\n", len(m.Toolsets()))
	}
	if err := lint.Write(stdout, o.format, all, lint.WriteOptions{Sources: sources, Style: cli.Style(color)}); err != nil {
		return cli.StdoutFailed("kokua-lint", "the report", err)
	}
	if o.format == "human" {
		o.fixHint(stderr, all)
	}
	if unreadable {
		return cli.Code(cli.ExitUsage)
	}
	for _, d := range all {
		if d.Severity.AtLeast(failOn) {
			return cli.Code(cli.ExitFindings)
		}
	}
	return nil
}

// ruleFormats are the formats of --list-rules: columns for people, a
// JSON object whose "rules" are lint.Rule values (with the fixes and the
// page), or the rules of a SARIF log with no results.
var ruleFormats = format.New("rules",
	format.Format[[]lint.Rule]{Info: format.Info{Name: "human"}, Write: writeRulesHuman},
	format.Format[[]lint.Rule]{Info: format.Info{Name: "json"}, Write: writeRulesJSON},
	format.Format[[]lint.Rule]{Info: format.Info{Name: "sarif", Summary: "SARIF 2.1.0"}, Write: func(w io.Writer, _ []lint.Rule) error {
		return lint.Write(w, "sarif", nil, lint.WriteOptions{})
	}},
)

// listRules prints every rule of lint.Rules: its ID, severity, phase,
// summary and the numbers of the spec it implements, in one of
// ruleFormats.
func listRules(w io.Writer, format string) error {
	if err := ruleFormats.Check(format); err != nil {
		return usage("--list-rules: %v", err)
	}
	if err := ruleFormats.Write(w, format, lint.Rules()); err != nil {
		return cli.StdoutFailed("kokua-lint", "the rules", err)
	}
	return nil
}

// writeRulesHuman writes the rules as columns.
func writeRulesHuman(w io.Writer, all []lint.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Phase, r.Summary, strings.Join(r.Refs, " "))
	}
	return tw.Flush()
}

// writeRulesJSON writes the rules as a JSON object with an array.
func writeRulesJSON(w io.Writer, all []lint.Rule) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Rules []lint.Rule `json:"rules"`
	}{all})
}
