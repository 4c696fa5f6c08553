package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/internal/version"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// compileOptions are the flags of kokua-compile itself.
type compileOptions struct {
	lintOptions
	// output is the file to write; empty for stdout.
	output string
	// check compares the policy with the one in output instead of
	// writing it, and fails when that one is missing or stale.
	check bool
	// onlyKokua skips, with one line on stderr, a config that is not
	// Kokua's (the pre-commit hook passes it).
	onlyKokua bool
	// sign is the private key file of --sign, or "".
	sign string
	// inPlace writes -o in place when it has other hard links.
	inPlace bool
}

// compileConfig lints the config and, when it has no error, writes its
// policy to stdout or to the output file (compile.WriteFile: atomically,
// through a symlink, never over anything but a regular file). A config
// with errors is not compiled, and an existing output file is then left
// as it was.
func compileConfig(o compileOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	if !o.check {
		// Under --check, -o is read, never written.
		if err := cli.WritableOutput("kokua-compile", "-o", o.output, o.inPlace); err != nil {
			return err
		}
		if err := cli.NotAnInput("kokua-compile", "-o", o.output, stdin, cli.Input{What: "the config", Path: o.config},
			cli.Input{What: "the manifest", Path: o.manifest}, cli.Input{What: "the signing key", Path: o.sign}); err != nil {
			return err
		}
	}
	src, m, err := readInputs(o.lintOptions, stdin)
	if err != nil {
		return err
	}
	if o.onlyKokua && !lint.IsKokuaConfig(src) {
		cli.SkipNote(stderr, "kokua-compile", src)
		return nil
	}
	if o.check && o.output == "" {
		return usage("--check needs -o FILE, the committed policy to compare with")
	}
	key, err := signingKey(o.sign)
	if err != nil {
		return err
	}
	l, err := lintConfig(o.lintOptions, src, m, stderr, o.check, "nothing was written")
	if err != nil {
		return err
	}
	doc := engine.Compile(l.res.World, l.cfg, l.manifest)
	if o.check {
		return check(o, key, doc)
	}
	out, err := seal(o, key, doc)
	if err != nil {
		return err
	}
	if o.output == "" {
		if _, err := stdout.Write(out); err != nil {
			return cli.StdoutFailed("kokua-compile", "the policy", err)
		}
		return nil
	}
	return cli.WriteOutput("kokua-compile", o.output, out, o.inPlace)
}

// check compares the policy the config compiles to, doc, with the one
// committed at o.output. Which kokua-compile wrote the committed policy,
// and the names it gave the inputs, do not matter: they are kept, so that
// a hook built from another commit, or a policy compiled before names
// were base names, is not called stale for that alone. What does
// matter is said when it differs: the config changed, the manifest did,
// both, or neither (the policy was edited, or compiles differently now).
func check(o compileOptions, key ed25519.PrivateKey, doc *policy.Document) error {
	rerun := "run " + rerunCommand(o)
	// A named pipe or a device at -o is refused without being opened, so
	// that --check never blocks on one.
	committed, err := regular.ReadFile(o.output, policy.MaxBytes)
	switch {
	case errors.Is(err, regular.ErrNotRegular):
		return cli.Fail(cli.ExitUsage, "kokua-compile: cannot read %s: %v", o.output, err)
	case errors.Is(err, regular.ErrTooLarge):
		return cli.Fail(cli.ExitFindings, "kokua-compile: %s is larger than any policy (%d MiB): to replace it, %s", o.output, policy.MaxBytes>>20, rerun)
	case err != nil:
		return cli.Fail(cli.ExitFindings, "kokua-compile: %s is missing (%v): to write it, %s", o.output, unwrapPath(err), rerun)
	}
	var recorded struct {
		Compiler      string           `json:"compiler"`
		Inputs        policy.Inputs    `json:"inputs"`
		PolicyVersion *json.RawMessage `json:"policy_version"`
	}
	if json.Unmarshal(committed, &recorded) != nil {
		return cli.Fail(cli.ExitFindings, "kokua-compile: %s is not a policy kokua-compile wrote (it is not a JSON object): to replace it, %s", o.output, rerun)
	}
	// A JSON object with no policy_version is some other file, not a
	// policy gone stale: saying which input changed would mislead.
	if recorded.PolicyVersion == nil {
		return cli.Fail(cli.ExitFindings, "kokua-compile: %s is not a policy kokua-compile wrote (it has no policy_version): to replace it, %s", o.output, rerun)
	}
	// What the committed policy records of its writer and of its inputs'
	// names is kept: neither is what --check is about.
	for _, keep := range []struct {
		to   *string
		from string
	}{
		{&doc.Compiler, recorded.Compiler},
		{&doc.Inputs.Config.File, recorded.Inputs.Config.File},
		{&doc.Inputs.Manifest.File, recorded.Inputs.Manifest.File},
	} {
		if keep.from != "" {
			*keep.to = keep.from
		}
	}
	want, err := seal(o, key, doc)
	if err != nil {
		return err
	}
	if bytes.Equal(want, committed) {
		return nil
	}
	cfgChanged := recorded.Inputs.Config.SHA256 != doc.Inputs.Config.SHA256
	manChanged := recorded.Inputs.Manifest.SHA256 != doc.Inputs.Manifest.SHA256
	manifest := "the manifest (" + doc.Inputs.Manifest.File + ")"
	var why string
	switch {
	case cfgChanged && manChanged:
		why = fmt.Sprintf("%s and %s have changed since it was compiled", o.config, manifest)
	case cfgChanged:
		why = fmt.Sprintf("%s has changed since it was compiled", o.config)
	case manChanged:
		why = fmt.Sprintf("%s has changed since it was compiled", manifest)
	default:
		why = "neither input has changed, but the policy differs: it was edited by hand, or this kokua-compile compiles the same inputs differently"
	}
	return cli.Fail(cli.ExitFindings, "kokua-compile: %s is stale: %s; to update it, %s", o.output, why, rerun)
}

// rerunCommand is the command that writes the policy --check compared
// with: the same manifest, output and config, quoted for a POSIX shell,
// and, for a released kokua-compile, how to install it (a pre-commit hook
// has it in its own environment, not on the user's PATH).
func rerunCommand(o compileOptions) string {
	args := []string{"kokua-compile"}
	if o.manifest != "" {
		args = append(args, "--manifest", shellQuote(o.manifest))
	}
	args = append(args, "-o", shellQuote(o.output))
	if o.config == cli.Stdin && o.stdinName != "" {
		args = append(args, "--stdin-filename", shellQuote(o.stdinName), "-", "<", shellQuote(o.stdinName))
	} else {
		args = append(args, shellQuote(o.config))
	}
	cmd := strings.Join(args, " ")
	if version.Version != version.Devel {
		cmd += fmt.Sprintf(" (kokua-compile %s installs with: go install github.com/kokua-policy/kokua-policy/cmd/kokua-compile@%s)", version.Version, version.Version)
	}
	return cmd
}

// shellSafe are the bytes of an argument a POSIX shell reads as it is.
const shellSafe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./@%+=:,-"

// shellQuote quotes s for a POSIX shell when it needs quoting: when it is
// empty or holds a byte that is not shellSafe.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, shellSafe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// unwrapPath drops the path an *os.PathError repeats, keeping its cause.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
