package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/install"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/lint"
)

// maxTimeout bounds --timeout: a scheduled job that waits longer for one
// server waits for nothing.
const maxTimeout = 10 * time.Minute

// manifestCommand is kokua-compile manifest: the registry manifest of the
// install a config describes, read from the install, or (--check) the
// install's changes since a pinned manifest.
func manifestCommand(stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:  "manifest",
		Usage: "write the registry manifest of the install CONFIG describes, its MCP servers read live; --check FILE reports every tool added, removed or changed since FILE, and who can call it",
		UsageText: "kokua-compile manifest [--skills DIR] [--plugins FILE] [--timeout 10s] [--allow-missing] [-o FILE] CONFIG\n" +
			"kokua-compile manifest --check FILE [--skills DIR] [--plugins FILE] [--timeout 10s] [--allow-missing] [--format " + lintFormats.Synopsis() + "] CONFIG",
		Flags: []urfave.Flag{
			&urfave.StringFlag{Name: "skills", Local: true, Usage: "read the skills folder `DIR` (one skill per directory with a SKILL.md)"},
			&urfave.StringFlag{Name: "plugins", Local: true, Usage: "carry the plugin toolsets of `FILE`, a manifest or a JSON array of toolsets (default: those of the manifest -o or --check names)"},
			&urfave.StringFlag{Name: "output", Aliases: []string{"o"}, Local: true, Usage: "write the manifest to `FILE` (atomically, keeping its mode, owner and group) instead of stdout"},
			cli.InPlaceFlag(),
			&urfave.StringFlag{Name: "check", Local: true, Usage: "write nothing; report what changed in the install since the manifest `FILE`, and exit 1 when anything did"},
			&urfave.StringFlag{Name: "timeout", Local: true, Value: install.DefaultTimeout.String(), Usage: "how long each MCP server has to list its tools (a Go duration: 10s, 1m)"},
			&urfave.BoolFlag{Name: "allow-missing", Local: true, Usage: "record an MCP server that cannot be read as not connected, and say so, instead of failing"},
			cli.FormatFlag("format of --check's findings", lintFormats),
			cli.ColorFlag("colour of --check's findings: auto, always or never"),
		},
		Action: func(ctx context.Context, c *urfave.Command) error {
			return runManifest(ctx, c, stdout, stderr)
		},
	}
}

func runManifest(ctx context.Context, c *urfave.Command, stdout, stderr io.Writer) error {
	if c.NArg() != 1 {
		return usage("manifest: name exactly one config")
	}
	check, output, format := c.String("check"), c.String("output"), cli.String(c, "format")
	if check != "" && output != "" {
		return usage("manifest: --check reads FILE and writes nothing; leave -o out")
	}
	if err := lintFormats.Check(format); err != nil {
		return usage("manifest: %v", err)
	}
	if c.IsSet("format") && check == "" {
		return usage("manifest: --format is the format of --check's findings; without --check, the manifest is JSON")
	}
	timeout, err := time.ParseDuration(c.String("timeout"))
	if err != nil || timeout <= 0 || timeout > maxTimeout {
		return usage("manifest: --timeout takes a duration above 0 and at most %s, such as 10s or 1m, not %q", maxTimeout, c.String("timeout"))
	}
	cfgPath := c.Args().First()
	if output != "" {
		if err := cli.WritableOutput("kokua-compile", "-o", output, c.Bool("in-place")); err != nil {
			return err
		}
		if err := cli.NotAnInput("kokua-compile", "-o", output, nil, cli.Input{What: "the config", Path: cfgPath},
			cli.Input{What: "the plugins' manifest", Path: c.String("plugins")}); err != nil {
			return err
		}
	}
	cfg, err := lint.ReadFile(cfgPath)
	if err != nil {
		return usage("%v", err)
	}
	o := install.Options{Config: install.Source(cfg), Skills: c.String("skills"), Timeout: timeout, AllowMissing: c.Bool("allow-missing")}
	if p := c.String("plugins"); p != "" {
		src, err := lint.ReadFile(p)
		if err != nil {
			return usage("%v", err)
		}
		o.Plugins = &install.Source{Name: src.Name, Data: src.Data}
	}
	var pinned *install.Source
	switch {
	case check != "":
		src, err := lint.ReadFile(check)
		if err != nil {
			return usage("%v", err)
		}
		pinned = &install.Source{Name: src.Name, Data: src.Data}
		o.Previous = pinned
	case output != "":
		// The manifest being replaced keeps its plugins and its classes;
		// one that is not there yet has none.
		if src, err := lint.ReadFile(output); err == nil {
			o.Previous = &install.Source{Name: src.Name, Data: src.Data}
		} else if _, statErr := os.Stat(output); statErr == nil {
			return usage("%v", err)
		}
	}
	res, err := install.Read(ctx, o)
	if err != nil {
		return failed(stderr, err, output)
	}
	for _, m := range res.Missing {
		fmt.Fprintf(stderr, "kokua-compile: %v; recorded as not connected (--allow-missing)\n", m)
	}
	if pinned != nil {
		return checkManifest(*pinned, res, install.Source(cfg), format, c.String("color"), stdout, stderr)
	}
	if output == "" {
		if _, err := stdout.Write(res.Manifest); err != nil {
			return cli.StdoutFailed("kokua-compile", "the manifest", err)
		}
		return nil
	}
	if err := cli.WriteOutput("kokua-compile", output, res.Manifest, c.Bool("in-place")); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "kokua-compile: wrote %s: %s (%d Kokua's own, %s, %s, %s, %d not connected), %s\n", output,
		count(res.Kokua+res.Plugins+res.Skills+res.Servers, "toolset"), res.Kokua, count(res.Plugins, "plugin toolset"),
		count(res.Skills, "skill"), count(res.Servers, "MCP server"), len(res.Missing), count(res.Tools, "tool"))
	return nil
}

// count writes a number and a noun, with an s unless the number is one.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return printable.Thousands(n) + " " + noun + "s"
}

// failed ends a read that failed: one line per cause (each server that
// could not be read, each skill Kokua would refuse), then what was not
// written, and a usage exit: an input could not be read.
func failed(stderr io.Writer, err error, output string) error {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		for line := range strings.SplitSeq(e.Error(), "\n") {
			fmt.Fprintf(stderr, "kokua-compile: %s\n", printable.String(line))
		}
	}
	var se *install.ServerError
	hint := ""
	if errors.As(err, &se) {
		hint = " (--allow-missing records a server that cannot be read as not connected)"
	}
	what := "no manifest was written"
	if output != "" {
		what = output + " was left as it was"
	}
	return cli.Fail(cli.ExitUsage, "kokua-compile: %s%s", what, hint)
}

// checkManifest reports what changed between the pinned manifest and the
// live install, and exits 1 when anything did.
func checkManifest(pinned install.Source, res *install.Result, cfg install.Source, format, color string, stdout, stderr io.Writer) error {
	ds, err := install.Check(pinned, res.Manifest, cfg)
	if err != nil {
		return usage("manifest --check: %v", err)
	}
	useColor, err := cli.UseColor(color, stdout)
	if err != nil {
		return usage("%v", err)
	}
	if len(ds) > 0 || format != "human" {
		opts := lint.WriteOptions{Sources: map[string][]byte{pinned.Name: pinned.Data}, Style: cli.Style(useColor)}
		if err := lint.Write(stdout, format, ds, opts); err != nil {
			return cli.StdoutFailed("kokua-compile", "the findings", err)
		}
	}
	if len(ds) == 0 {
		if format == "human" {
			fmt.Fprintf(stderr, "kokua-compile: the install matches %s: %s, %s\n", pinned.Name,
				count(res.Kokua+res.Plugins+res.Skills+res.Servers, "toolset"), count(res.Tools, "tool"))
		}
		return nil
	}
	return cli.Code(cli.ExitFindings)
}
