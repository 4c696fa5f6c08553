package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	urfave "github.com/urfave/cli/v3"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/english"
	"github.com/kokua-policy/kokua-policy/internal/format"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/lint"
)

// diffCommand is kokua-compile diff: what a change to a config or a
// policy does to what each agent can do.
func diffCommand(_ io.Reader, stdout, stderr io.Writer) *urfave.Command {
	return &urfave.Command{
		Name:  "diff",
		Usage: "report the tools, toolsets, delegation edges, risk paths, reviewer and approval changes between two configs or policies, each graded; exit 1 when any reaches --fail-on",
		UsageText: "kokua-compile diff [--manifest FILE] [--base-manifest FILE] [--format " + diff.Formats.Synopsis() + "] [--fail-on critical|high|medium|any] [--allow-widen] [--verify-key PUB] OLD NEW\n" +
			"kokua-compile diff --base REF [--manifest FILE] [--base-manifest FILE] [--format ...] [--fail-on ...] [--allow-widen] [--verify-key PUB] CONFIG",
		Flags: []urfave.Flag{
			cli.ManifestFlag(),
			baseManifestFlag(),
			cli.FormatFlag("format of the report", diff.Formats.List),
			failOnFlag("the least grade that makes the run fail: critical, high, medium, or any (any widening or graded change)"),
			&urfave.BoolFlag{Name: "allow-widen", Local: true, Usage: "exit 0 whatever changed"},
			&urfave.StringFlag{Name: "base", Local: true, Usage: "read the old side from git: `REF`:CONFIG, its symbolic links followed within the repository"},
			cli.VerifyKeyFlag(),
		},
		Action: func(_ context.Context, c *urfave.Command) error {
			return runDiff(cli.String(c, "manifest"), c.String("base-manifest"), cli.String(c, "format"), cli.String(c, "fail-on"), c.String("base"), c.String("verify-key"), c.Bool("allow-widen"), c.Args().Slice(), stdout, stderr)
		},
	}
}

func runDiff(manifest, baseManifest, format, failOn, base, verifyKey string, allowWiden bool, args []string, stdout, stderr io.Writer) error {
	if err := diff.Formats.Check(format); err != nil {
		return usage("%v", err)
	}
	if !slices.Contains(diff.FailOn, failOn) {
		return usage("--fail-on takes critical, high, medium or any, not %q%s", failOn, cli.Mean(failOn, diff.FailOn...))
	}
	var oldSrc, newSrc lint.Source
	var err error
	switch {
	case base != "" && len(args) == 1:
		if oldSrc, err = gitShow(base, args[0]); err != nil {
			return usage("%v", err)
		}
		if newSrc, err = lint.ReadFile(args[0]); err != nil {
			return usage("%v", err)
		}
	case base == "" && len(args) == 2:
		if oldSrc, err = lint.ReadFile(args[0]); err != nil {
			return usage("%v", err)
		}
		if newSrc, err = lint.ReadFile(args[1]); err != nil {
			return usage("%v", err)
		}
	case base != "":
		return usage("with --base, name one config: the new side (the old one is REF:CONFIG)")
	default:
		return usage("name two files, the old side and the new one (configs or compiled policies)")
	}
	key, err := policyKey(verifyKey, oldSrc, newSrc)
	if err != nil {
		return err
	}
	oldM, newM, note, err := sideManifests(manifest, baseManifest, base, oldSrc)
	if err != nil {
		return err
	}
	sides, err := loadSidesWith([]*lint.Manifest{oldM, newM}, key, stderr, "nothing was compared", oldSrc, newSrc)
	if broken := (*sidesWithErrors)(nil); errors.As(err, &broken) && format == "json" {
		if werr := writeNotCompared(stdout, oldSrc.Name, newSrc.Name, broken.which); werr != nil {
			return cli.StdoutFailed("kokua-compile", "the report", werr)
		}
	}
	if err != nil {
		return err
	}
	sides[0].ManifestNote = note
	r := diff.Compare(sides[0], sides[1])
	if err := diff.Write(stdout, format, r); err != nil {
		return cli.StdoutFailed("kokua-compile", "the report", err)
	}
	if r.Fails(failOn) && !allowWiden {
		return cli.Code(cli.ExitFindings)
	}
	return nil
}

// policyKey reads the public key of --verify-key, nil when path is "":
// every compiled policy among srcs must be signed with it. The flag is
// refused when no input is a compiled policy: a config is compiled here,
// unsigned, so the check would pass without checking anything.
func policyKey(path string, srcs ...lint.Source) (ed25519.PublicKey, error) {
	if path == "" {
		return nil, nil
	}
	var configs []string
	for _, src := range srcs {
		if diff.IsPolicy(src.Data) {
			return cli.ReadVerifyKey("kokua-compile", path)
		}
		configs = append(configs, printable.String(src.Name))
	}
	what := "is a config, which carries"
	if len(configs) > 1 {
		what = "are configs, which carry"
	}
	return nil, usage("--verify-key checks the signature of a compiled policy, and %s %s none: name the policy kokua-compile --sign wrote", english.Words(configs, "and", nil), what)
}

// loadSide reads one side; a compiled policy must be signed with key when
// key is not nil (policyKey). A config with errors is reported on stderr
// as kokua-lint reports it, and ends the command with exit 1 and a line
// that says so and nothing, what the command did not do.
func loadSide(src lint.Source, m *lint.Manifest, key ed25519.PublicKey, stderr io.Writer, nothing string) (*diff.Side, error) {
	side, res, err := diff.Load(src, m, key)
	if err != nil {
		return nil, usage("%v", err)
	}
	if side == nil {
		opts := lint.WriteOptions{Sources: map[string][]byte{src.Name: src.Data, m.Source.Name: m.Source.Data}, Style: cli.Style(false)}
		if err := lint.Write(stderr, "human", res.Diagnostics, opts); err != nil {
			return nil, cli.WriteFailed("kokua-compile", fmt.Errorf("cannot write the findings to standard error: %w", err))
		}
		return nil, cli.Fail(cli.ExitFindings, "kokua-compile: %s has errors; %s", src.Name, nothing)
	}
	return side, nil
}

// quietSide is loadSide for a run that reports a config's errors in one
// line (errorsLine), not as findings: the pre-commit hook of policy tests
// runs after the kokua-lint hook, which lists them.
func quietSide(src lint.Source, m *lint.Manifest, key ed25519.PublicKey, notDone string) (*diff.Side, error) {
	side, res, err := diff.Load(src, m, key)
	if err != nil {
		return nil, usage("%v", err)
	}
	if side == nil {
		return nil, cli.Fail(cli.ExitFindings, "%s", errorsLine(src.Name, res.Diagnostics, notDone))
	}
	return side, nil
}

// loadSidesWith loads each of srcs with loadSide and the manifest of the
// same place in ms, in their order, but the compiled policies first: a
// policy refused (for its signature, say) is refused whichever side it
// is, before a config's findings end the command. Every config with
// errors has its findings reported before the command ends, with a
// *sidesWithErrors that names them all.
func loadSidesWith(ms []*lint.Manifest, key ed25519.PublicKey, stderr io.Writer, nothing string, srcs ...lint.Source) ([]*diff.Side, error) {
	sides := make([]*diff.Side, len(srcs))
	var broken []int
	for _, policies := range []bool{true, false} {
		for i, src := range srcs {
			if diff.IsPolicy(src.Data) != policies {
				continue
			}
			side, err := loadSide(src, ms[i], key, stderr, nothing)
			var exit *cli.Exit
			if errors.As(err, &exit) && exit.Code == cli.ExitFindings {
				broken = append(broken, i)
				continue
			}
			if err != nil {
				return nil, err
			}
			sides[i] = side
		}
	}
	if len(broken) > 0 {
		slices.Sort(broken)
		var which, names []string
		for _, i := range broken {
			which, names = append(which, sideName(i, len(srcs))), append(names, srcs[i].Name)
		}
		verb := "has"
		if len(names) > 1 {
			verb = "have"
		}
		return nil, &sidesWithErrors{
			Exit:  cli.Exit{Code: cli.ExitFindings, Message: fmt.Sprintf("kokua-compile: %s %s errors; %s", english.Words(names, "and", nil), verb, nothing)},
			which: which,
		}
	}
	return sides, nil
}

// sidesWithErrors ends a command, exit 1, when a side is a config with
// errors; which names those sides, "old" and "new" for diff's two.
type sidesWithErrors struct {
	cli.Exit
	which []string
}

// sideName names side i of n: old and new for two, its number otherwise.
func sideName(i, n int) string {
	if n == 2 {
		return [2]string{"old", "new"}[i]
	}
	return fmt.Sprint(i)
}

// notCompared is diff's JSON report when a side is a config with errors
// (docs/json-output.md): which sides, so that a program tells "the base
// has errors" from a run that failed for another reason.
type notCompared struct {
	Old             string   `json:"old"`
	New             string   `json:"new"`
	Compared        bool     `json:"compared"`
	SidesWithErrors []string `json:"sides_with_errors"`
}

func writeNotCompared(w io.Writer, oldName, newName string, which []string) error {
	data, err := json.MarshalIndent(notCompared{Old: oldName, New: newName, SidesWithErrors: which}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(printable.JSON(data), '\n'))
	return err
}

// oneSide reads the one config or compiled policy of a command that takes
// one (graph, risks) with its --manifest and --verify-key, after checking
// that --format is one of formats, and loads it; nothing says what a
// config with errors stops.
func oneSide(c *urfave.Command, stderr io.Writer, formats format.List, nothing string) (side *diff.Side, format string, err error) {
	if c.NArg() != 1 {
		return nil, "", usage("name exactly one config or compiled policy")
	}
	format = cli.String(c, "format")
	if err := formats.Check(format); err != nil {
		return nil, "", usage("%v", err)
	}
	src, err := lint.ReadFile(c.Args().First())
	if err != nil {
		return nil, "", usage("%v", err)
	}
	key, err := policyKey(c.String("verify-key"), src)
	if err != nil {
		return nil, "", err
	}
	m, err := cli.Manifest(cli.String(c, "manifest"))
	if err != nil {
		return nil, "", usage("%v", err)
	}
	side, err = loadSide(src, m, key, stderr, nothing)
	return side, format, err
}

// shortRev names a full commit hash by its first 12 hex digits, as a
// pointer in a report shows it; any other revision is kept as written.
func shortRev(ref string) string {
	if (len(ref) == 40 || len(ref) == 64) && strings.Trim(ref, "0123456789abcdef") == "" {
		return ref[:12]
	}
	return ref
}
