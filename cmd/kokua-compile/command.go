package main

import (
	"context"
	"fmt"
	"io"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/lint"
)

// Main runs kokua-compile on args, args[0] being the program as in
// os.Args, and returns its exit code, the same codes as kokua-lint's. It
// reads and writes only the streams it is given, and the files the
// command line names.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := &urfave.Command{
		Name:      "kokua-compile",
		Usage:     "write the resolved tool-access policy of a Kokua config.toml",
		UsageText: "kokua-compile [--manifest FILE] [-o FILE] CONFIG\nkokua-compile --check -o FILE [--manifest FILE] CONFIG\nkokua-compile agents [--manifest FILE] CONFIG",
		Flags: append([]urfave.Flag{
			&urfave.StringFlag{Name: "output", Aliases: []string{"o"}, Local: true, Usage: "write the policy to `FILE` (atomically) instead of stdout"},
			&urfave.BoolFlag{Name: "check", Local: true, Usage: "write nothing; exit 1 when the policy in -o FILE is missing or stale against CONFIG"},
		}, lintFlags()...),
		Action: func(_ context.Context, c *urfave.Command) error {
			if c.NArg() != 1 {
				return oneConfig
			}
			return compileConfig(compileOptions{
				lintOptions: lintOptionsOf(c), output: c.String("output"), check: c.Bool("check"),
			}, stdout, stderr)
		},
		Commands: []*urfave.Command{agentsCommand(stdout, stderr)},
	}
	return cli.Run(root, args, stdin, stdout, stderr)
}

// oneConfig is the usage error of a command line with no config or more
// than one.
var oneConfig = cli.Fail(cli.ExitUsage, "kokua-compile: name exactly one config file")

// lintFlags are the flags of the lint that comes first, in both commands.
func lintFlags() []urfave.Flag {
	return []urfave.Flag{
		cli.ManifestFlag(),
		cli.FormatFlag("format of diagnostics: human or json"),
		cli.ColorFlag("colour of diagnostics: auto, always or never"),
	}
}

// lintOptions are the flags of the lint and the config it checks.
type lintOptions struct {
	config   string
	manifest string
	// format is the format of diagnostics: human or json.
	format string
	color  string
}

func lintOptionsOf(c *urfave.Command) lintOptions {
	return lintOptions{config: c.Args().First(), manifest: c.String("manifest"), format: c.String("format"), color: c.String("color")}
}

// usage is a usage error of kokua-compile.
func usage(format string, args ...any) error {
	return cli.Fail(cli.ExitUsage, "kokua-compile: "+format, args...)
}

// lintConfig lints the config first, as kokua-lint does, and writes its
// findings on stderr. It returns what the lint found, with the config
// and the manifest it read, or the error that ends the command: a usage
// error, or ExitFindings when the config has an error and nothing can be
// compiled.
func lintConfig(o lintOptions, stderr io.Writer) (*lint.Result, lint.Source, *lint.Manifest, error) {
	if o.format != "human" && o.format != "json" {
		return nil, lint.Source{}, nil, usage("--format takes human or json, not %q", o.format)
	}
	if o.config == "" {
		return nil, lint.Source{}, nil, usage("name the config file to compile (kokua-compile config.toml)")
	}
	m, err := cli.Manifest(o.manifest)
	if err != nil {
		return nil, lint.Source{}, nil, usage("%v", err)
	}
	src, err := lint.ReadFile(o.config)
	if err != nil {
		return nil, lint.Source{}, nil, usage("%v", err)
	}
	res := lint.Lint(src, m)
	if len(res.Diagnostics) > 0 {
		// The diagnostics go to stderr, so stderr is what may be coloured.
		color, err := cli.UseColor(o.color, stderr)
		if err != nil {
			return nil, lint.Source{}, nil, usage("%v", err)
		}
		opts := lint.WriteOptions{Sources: map[string][]byte{src.Name: src.Data, m.Source.Name: m.Source.Data}, Style: cli.Style(color)}
		if err := lint.Write(stderr, o.format, res.Diagnostics, opts); err != nil {
			return nil, lint.Source{}, nil, usage("%v", err)
		}
	}
	if res.HasErrors() || res.World == nil {
		fmt.Fprintf(stderr, "kokua-compile: %s has errors; nothing was written\n", o.config)
		return nil, lint.Source{}, nil, cli.Code(cli.ExitFindings)
	}
	return res, src, m, nil
}
