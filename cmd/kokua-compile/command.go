package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/format"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/lint"
)

// Main runs kokua-compile on args, args[0] being the program as in
// os.Args, and returns its exit code, the same codes as kokua-lint's. It
// reads and writes only the streams it is given, and the files the
// command line names.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Standard error carries only lines of text: whatever a message quotes
	// (a path, a name), no control or bidirectional character reaches it raw.
	stderr = printable.Writer{W: stderr}
	return cli.Run(command(stdin, stdout, stderr), args, stdin, stdout, stderr)
}

// command is kokua-compile's command tree, reading and writing the streams it is
// given.
func command(stdin io.Reader, stdout, stderr io.Writer) *urfave.Command {
	// The flags write where the action reads them (cli.Bind).
	var o compileOptions
	// One line per subcommand; each lives in its own file.
	subs := []*urfave.Command{
		agentsCommand(stdin, stdout, stderr),
		diffCommand(stdin, stdout, stderr),
		graphCommand(stdin, stdout, stderr),
		keygenCommand(stdout),
		manifestCommand(stdout, stderr),
		testCommand(stdin, stdout, stderr),
		risksCommand(stdin, stdout, stderr),
		reportCommand(stdin, stdout, stderr),
	}
	return &urfave.Command{
		Name:  "kokua-compile",
		Usage: "write the resolved tool-access policy of a Kokua config.toml",
		// The usage lines of the root, then each subcommand's own.
		UsageText: strings.Join(append([]string{
			"kokua-compile [--manifest FILE] [--format " + lintFormats.Synopsis() + "] [-o FILE] CONFIG",
			"kokua-compile --check -o FILE [--manifest FILE] [--only-kokua] CONFIG|DIR",
		}, usageTexts(subs)...), "\n"),
		Flags: append([]urfave.Flag{
			&urfave.StringFlag{Name: "output", Aliases: []string{"o"}, Local: true, Destination: &o.output, Usage: "write the policy to `FILE` (a regular file or none; through a symlink to its target; atomically, keeping its mode, owner and group) instead of stdout"},
			&urfave.BoolFlag{Name: "check", Local: true, Destination: &o.check, Usage: "write nothing; exit 1 when the policy in -o FILE is missing or stale against CONFIG and the manifest"},
			cli.Bind(cli.InPlaceFlag(), &o.inPlace),
			cli.Bind(cli.OnlyKokuaFlag(), &o.onlyKokua),
			&urfave.StringFlag{Name: "sign", Local: true, Destination: &o.sign, Usage: "sign the policy with the Ed25519 private key in `KEY` (PEM, from kokua-compile keygen); kokua-run --verify-key checks it"},
		}, lintFlags("format of diagnostics (on stderr)", lintFormats, &o.lintOptions)...),
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return oneConfig
			}
			o.config = c.Args().First()
			if cli.IsFolder(o.config) {
				return checkFolder(o, stdin, stdout, stderr)
			}
			return compileConfig(o, stdin, stdout, stderr)
		},
		Commands: subs,
	}
}

// usageTexts are the usage lines of subs, in their order.
func usageTexts(subs []*urfave.Command) []string {
	out := make([]string, len(subs))
	for i, sub := range subs {
		out[i] = sub.UsageText
	}
	return out
}

// checkFolder is --check of every Kokua config below a folder
// (cli.Folders), each against the policy -o names relative to the
// config's own folder (-o kokua-policy.json: the kokua-policy.json beside
// each config). Only --check takes a folder: a policy is written for one
// config.
func checkFolder(o compileOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	switch {
	case !o.check:
		return usage("%s is a folder: name one config to compile (--check and test take a folder)", o.config)
	case o.output == "":
		return usage("--check needs -o FILE, the committed policy to compare with (with a folder, the file of that name beside each config)")
	case filepath.IsAbs(o.output):
		return usage("with a folder, -o names the policy beside each config, relative to its folder, not %s", o.output)
	}
	configs, problems := cli.Folders([]string{o.config})
	if len(problems) > 0 {
		return usage("%v", problems[0])
	}
	return cli.Each(stderr, configs, func(cfg string) error {
		each := o
		each.config, each.output = cfg, filepath.Join(filepath.Dir(cfg), o.output)
		return compileConfig(each, stdin, stdout, stderr)
	})
}

// oneConfig is the usage error of a command line with no config or more
// than one.
var oneConfig = cli.Fail(cli.ExitUsage, "kokua-compile: name exactly one config file, or - for standard input")

// lintFormats are the formats of the findings (lint.Formats).
var lintFormats = cli.LintFormats()

// lintFlags are the flags of the lint that comes first, in every
// subcommand that compiles; what says what --format formats, in one of
// formats. The
// root command's flags write to o (cli.Bind); a subcommand passes nil and
// reads them with lintOptionsOf, which finds a flag written before the
// subcommand's name too.
func lintFlags(what string, formats format.List, o *lintOptions) []urfave.Flag {
	manifest, format := cli.ManifestFlag(), cli.FormatFlag(what, formats)
	color, stdinName := cli.ColorFlag("colour of diagnostics: auto, always or never"), cli.StdinFilenameFlag()
	if o != nil {
		cli.Bind(manifest, &o.manifest)
		cli.Bind(format, &o.format)
		cli.Bind(color, &o.color)
		cli.Bind(stdinName, &o.stdinName)
	}
	return []urfave.Flag{manifest, format, color, stdinName}
}

// lintOptions are the flags of the lint and the config it checks.
type lintOptions struct {
	config   string
	manifest string
	// format is the format of diagnostics: human, json, sarif or github.
	format string
	color  string
	// stdinName names the config when config is "-".
	stdinName string
}

func lintOptionsOf(c *urfave.Command) lintOptions {
	return lintOptions{config: c.Args().First(), manifest: cli.String(c, "manifest"), format: cli.String(c, "format"),
		color: cli.String(c, "color"), stdinName: c.String("stdin-filename")}
}

// usage is a usage error of kokua-compile.
func usage(format string, args ...any) error {
	return cli.Fail(cli.ExitUsage, "kokua-compile: "+format, args...)
}

// linted is a config that linted without errors, with the inputs it was
// read from.
type linted struct {
	res *engine.Linted
	// cfg and manifest are the inputs as the policy records them: by
	// base name, so that the document does not depend on how the path
	// was spelled or where the command ran.
	cfg, manifest engine.Source
}

// readInputs reads the manifest and the config the options name.
func readInputs(o lintOptions, stdin io.Reader) (lint.Source, *lint.Manifest, error) {
	if err := lintFormats.Check(o.format); err != nil {
		return lint.Source{}, nil, usage("%v", err)
	}
	if err := cli.CheckStdin([]string{o.config}, o.stdinName); err != nil {
		return lint.Source{}, nil, usage("%v", err)
	}
	m, err := cli.Manifest(o.manifest)
	if err != nil {
		return lint.Source{}, nil, usage("%v", err)
	}
	src, err := cli.ReadInput(o.config, stdin, o.stdinName)
	if err != nil {
		return lint.Source{}, nil, usage("%v", err)
	}
	return src, m, nil
}

// lintConfig lints the config first, as kokua-lint does. Unless quiet, it
// writes the findings on stderr in o.format, then, for a config with
// errors in the human format, a line that says so and nothing, what the
// command did not do ("nothing was written"); quiet, a config with errors
// gets one line instead (kokua-lint, or its hook, lists them). It returns
// what the lint found, or the error that ends the command: ExitFindings
// when the config has an error and nothing can be compiled.
func lintConfig(o lintOptions, src lint.Source, m *lint.Manifest, stderr io.Writer, quiet bool, nothing string) (*linted, error) {
	res := engine.Run(src, m)
	if len(res.Diagnostics) > 0 && !quiet {
		// The diagnostics go to stderr, so stderr is what may be coloured.
		color, err := cli.UseColor(o.color, stderr)
		if err != nil {
			return nil, usage("%v", err)
		}
		opts := lint.WriteOptions{Sources: map[string][]byte{src.Name: src.Data, m.Source.Name: m.Source.Data}, Style: cli.Style(color)}
		if err := lint.Write(stderr, o.format, res.Diagnostics, opts); err != nil {
			return nil, cli.WriteFailed("kokua-compile", fmt.Errorf("cannot write the findings to standard error: %w", err))
		}
	}
	if res.HasErrors() || res.World == nil {
		if quiet {
			fmt.Fprintln(stderr, errorsLine(src.Name, res.Diagnostics, "its policy was not checked"))
		} else if o.format == "human" {
			fmt.Fprintf(stderr, "kokua-compile: %s has errors; %s\n", printable.String(src.Name), nothing)
		}
		return nil, cli.Code(cli.ExitFindings)
	}
	manifestName := m.Source.Name
	if !m.Embedded {
		manifestName = filepath.Base(manifestName)
	}
	return &linted{
		res:      res,
		cfg:      engine.Source{Name: filepath.Base(src.Name), Data: src.Data},
		manifest: engine.Source{Name: manifestName, Data: m.Source.Data},
	}, nil
}

// errorsLine is the one line a quiet run (--check, test --claims-only)
// gives a config with errors in place of its findings: how many, the
// first, what was not done, and that kokua-lint (its hook) lists them.
func errorsLine(name string, ds []diag.Diagnostic, notDone string) string {
	n, first := 0, ""
	for _, d := range ds {
		if d.Severity == diag.Error {
			if n == 0 {
				first = d.Rule + " at " + d.Span.String()
			}
			n++
		}
	}
	return fmt.Sprintf("kokua-compile: %s has %d error(s), the first %s, so %s; kokua-lint reports them", printable.String(name), n, printable.String(first), notDone)
}
