package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/expect"
	"github.com/kokua-policy/kokua-policy/internal/expect/reports"
	"github.com/kokua-policy/kokua-policy/internal/printable"
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
		UsageText: "kokua-compile test [--manifest FILE] [--format " + reports.Formats.Synopsis() + "] [--run REGEXP] [--claims-only] [--verify-key PUB] CONFIG|POLICY|DIR [TESTS...]",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			cli.FormatFlag("format of the report", reports.Formats.List),
			&urfave.StringFlag{Name: "run", Local: true, Usage: "check only the claims whose name (or, for a claim without one, its selectors as the report writes them) matches `REGEXP` (Go's syntax, as go test -run); one that matches no claim is a usage error"},
			&urfave.BoolFlag{Name: "claims-only", Local: true, Usage: "report the claims only: a config with errors gets one line, not its findings (the kokua-lint hook, or kokua-lint, lists them)"},
			cli.StdinFilenameFlag(),
			cli.VerifyKeyFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			o := testOptions{manifest: cli.String(c, "manifest"), format: cli.String(c, "format"), stdinName: c.String("stdin-filename"),
				verifyKey: c.String("verify-key"), claimsOnly: c.Bool("claims-only")}
			if c.IsSet("run") {
				re, err := regexp.Compile(c.String("run"))
				if err != nil {
					return usage("test: --run %q is no regular expression: %v", c.String("run"), err)
				}
				o.run = re
			}
			if c.NArg() > 0 && cli.IsFolder(c.Args().First()) {
				return testFolder(c.Args().Slice(), o.format, func(cfg string) error {
					return runTest(o, []string{cfg}, stdin, stdout, stderr)
				}, stderr)
			}
			return runTest(o, c.Args().Slice(), stdin, stdout, stderr)
		},
	}
}

// testOptions are the flags of kokua-compile test.
type testOptions struct {
	manifest, format, stdinName, verifyKey string
	// run, when not nil, selects the claims to check by name.
	run *regexp.Regexp
	// claimsOnly puts one line in place of a broken config's findings.
	claimsOnly bool
}

// selectClaims keeps the claims of files whose name (or title, for a
// claim without a name) run matches, and says how many it kept.
func selectClaims(files []*expect.File, run *regexp.Regexp) int {
	n := 0
	for _, f := range files {
		if run != nil {
			f.Expects = slices.DeleteFunc(f.Expects, func(e *expect.Expect) bool {
				name := e.Name
				if name == "" {
					name = e.Title()
				}
				return !run.MatchString(name)
			})
		}
		n += len(f.Expects)
	}
	return n
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
		return usage("test: no Kokua config below %s has a %s beside it", printable.String(args[0]), expect.DefaultFile)
	}
	return cli.Each(stderr, tested, run)
}

func runTest(o testOptions, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	manifest, format, stdinName, verifyKey := o.manifest, o.format, o.stdinName, o.verifyKey
	if err := reports.Formats.Check(format); err != nil {
		return usage("test: %v", err)
	}
	if len(args) == 0 {
		if o.run != nil && isInput(o.run.String()) {
			// `test --run config.toml`: the flag took the config as its
			// pattern.
			return usage("test: --run took %s as its REGEXP, and no config is named: give the pattern after --run, then the config: kokua-compile test --run 'NAME' %s", printable.String(o.run.String()), printable.String(o.run.String()))
		}
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
			return usage("test: %s is a policy test file, not a config: name the config (or compiled policy) first, then the test files: kokua-compile test CONFIG %s", printable.String(src.Name), printable.String(src.Name))
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
			return usage("test: no test file: %s does not exist; write one, or name the test files after the config", printable.String(def))
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
	// A --run that selects nothing would pass whatever the config says.
	if selectClaims(files, o.run) == 0 {
		return usage("test: --run %q matches the name of no claim of %s", o.run, strings.Join(tests, ", "))
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
	var side *diff.Side
	if o.claimsOnly {
		side, err = quietSide(src, m, key, "its claims were not checked")
	} else {
		side, err = loadSide(src, m, key, stderr, "no claim was checked")
	}
	if err != nil {
		return err
	}
	r := &expect.Report{Config: src.Name, Tests: tests, Results: expect.Run(side, files...)}
	if err := reports.Formats.Write(stdout, format, r); err != nil {
		return cli.StdoutFailed("kokua-compile", "the report", err)
	}
	if r.Failed() > 0 {
		return cli.Code(cli.ExitFindings)
	}
	return nil
}

// isInput reports whether a flag's value names a file or folder that is
// there, as a config or policy forgotten after a flag would.
func isInput(value string) bool {
	_, err := os.Stat(value)
	return value != "" && err == nil
}
