package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/expect"
	"github.com/kokua-policy/kokua-policy/internal/expect/junit"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/lint"
)

// testCommand is kokua-compile test: a team's claims about what its
// config lets agents do (docs/policy-tests.md), checked with the runtime's
// own decisions.
func testCommand(stdin io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:      "test",
		Usage:     "check the claims of policy test files (kokua.test.toml beside the config by default) against a config or a compiled policy; exit 1 when one fails",
		UsageText: "kokua-compile test [--manifest FILE] [--format human|json|junit|sarif|github] [--verify-key PUB] CONFIG|POLICY|DIR [TESTS...]",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			cli.FormatFlag("format of the report: human, json, junit, sarif or github"),
			cli.StdinFilenameFlag(),
			cli.VerifyKeyFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			manifest, format, stdinName, verifyKey := cli.String(c, "manifest"), cli.String(c, "format"), c.String("stdin-filename"), c.String("verify-key")
			if c.NArg() > 0 && cli.IsFolder(c.Args().First()) {
				return testFolder(c.Args().Slice(), format, func(cfg string) error {
					return runTest(manifest, format, stdinName, verifyKey, []string{cfg}, stdin, stdout, stderr)
				}, stderr)
			}
			return runTest(manifest, format, stdinName, verifyKey, c.Args().Slice(), stdin, stdout, stderr)
		},
	}
}

// testFolder runs the tests of every Kokua config below a folder
// (cli.Folders) that has a kokua.test.toml beside it, each as `test
// CONFIG` runs them; a config with no test file beside it is passed
// over. The reports follow one another, which the human and github
// formats allow; one JSON, JUnit or SARIF document is for one config.
func testFolder(args []string, format string, run func(config string) error, stderr io.Writer) error {
	switch {
	case len(args) > 1:
		return usage("test: with a folder, the test files are the %s beside each config: name no test files after it", expect.DefaultFile)
	case format != "human" && format != "github":
		return usage("test: a folder's reports follow one another, which --format human and github allow; name one config for --format %s", format)
	}
	configs, problems := cli.Folders(args)
	if len(problems) > 0 {
		return usage("test: %v", problems[0])
	}
	var tested []string
	for _, cfg := range configs {
		if _, err := os.Stat(filepath.Join(filepath.Dir(cfg), expect.DefaultFile)); err == nil {
			tested = append(tested, cfg)
		}
	}
	if len(tested) == 0 {
		return usage("test: no Kokua config below %s has a %s beside it", diag.Printable(args[0]), expect.DefaultFile)
	}
	return cli.Each(stderr, tested, run)
}

func runTest(manifest, format, stdinName, verifyKey string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if !slices.Contains(expect.Formats, format) {
		return usage("test reports in --format %s, not %q", strings.Join(expect.Formats, ", "), format)
	}
	if len(args) == 0 {
		return usage("test: name a config or a compiled policy, then the test files (%s beside the config by default)", expect.DefaultFile)
	}
	if err := cli.CheckStdin(args[:1], stdinName); err != nil {
		return usage("%v", err)
	}
	if args[0] != cli.Stdin {
		// A test file where the config goes is a usage error, before its
		// claims are read as tests or the lint calls it a config that
		// declares no agents.
		if src, err := lint.ReadFile(args[0]); err == nil && rules.IsPolicyTestFile(src.Data) {
			return usage("test: %s is a policy test file, not a config: name the config (or compiled policy) first, then the test files: kokua-compile test CONFIG %s", diag.Printable(src.Name), diag.Printable(src.Name))
		}
	}
	tests := args[1:]
	if slices.Contains(tests, cli.Stdin) {
		return usage("test: a test file cannot be read from - (standard input); only the config can")
	}
	if len(tests) == 0 {
		dir := "."
		if args[0] != cli.Stdin {
			dir = filepath.Dir(args[0])
		}
		def := filepath.Join(dir, expect.DefaultFile)
		if _, err := os.Stat(def); errors.Is(err, fs.ErrNotExist) {
			return usage("test: no test file: %s does not exist; write one, or name the test files after the config", diag.Printable(def))
		}
		tests = []string{def}
	}
	// The test files first: one that cannot be read or holds a mistake
	// is a usage error, whatever the config says.
	var files []*expect.File
	var problems []diag.Diagnostic
	sources := map[string][]byte{}
	for _, name := range tests {
		src, err := lint.ReadFile(name)
		if err != nil {
			return usage("%v", err)
		}
		f, ds := expect.Parse(src.Name, src.Data)
		problems = append(problems, ds...)
		sources[src.Name] = src.Data
		if f != nil {
			files = append(files, f)
		}
	}
	if len(problems) > 0 {
		if err := lint.Write(stderr, "human", problems, lint.WriteOptions{Sources: sources, Style: cli.Style(false)}); err != nil {
			return cli.WriteFailed("kokua-compile", err)
		}
		return cli.Fail(cli.ExitUsage, "kokua-compile: test: the test files have %d error(s); no claim was checked", len(problems))
	}
	m, err := cli.Manifest(manifest)
	if err != nil {
		return usage("%v", err)
	}
	src, err := cli.ReadInput(args[0], stdin, stdinName)
	if err != nil {
		return usage("%v", err)
	}
	key, err := policyKey(verifyKey, src)
	if err != nil {
		return err
	}
	side, err := loadSide(src, m, key, stderr, "no claim was checked")
	if err != nil {
		return err
	}
	r := &expect.Report{Config: src.Name, Tests: tests, Results: expect.Run(side, files...)}
	write := func() error { return expect.Write(stdout, format, r) }
	if format == "junit" {
		write = func() error { return junit.Write(stdout, r) }
	}
	if err := write(); err != nil {
		return cli.StdoutFailed("kokua-compile", "the report", err)
	}
	if r.Failed() > 0 {
		return cli.Code(cli.ExitFindings)
	}
	return nil
}
