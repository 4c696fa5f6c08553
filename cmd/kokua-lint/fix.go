package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/migrate"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/lint"
)

// writes reports whether the run replaces the configs it fixes.
func (o options) writes() bool { return o.fix && !o.diff }

// checkFixTargets refuses, before anything is read or written, a --fix
// that would replace what it must not: a config that is the manifest, a
// path that is not a regular file, a read-only file, and a file with
// other hard links (without --in-place).
func (o options) checkFixTargets() error {
	if !o.writes() {
		return nil
	}
	for _, c := range o.configs {
		if c == "-" {
			continue
		}
		if err := cli.NotAnInput("kokua-lint", "--fix", c, nil, cli.Input{What: "the manifest", Path: o.manifest}); err != nil {
			return err
		}
		if err := cli.WritableOutput("kokua-lint", "--fix", c, o.inPlace); err != nil {
			return err
		}
	}
	return nil
}

// readConfig reads one config of the command line. A config --fix will
// replace is resolved once, through its symlinks, to the file it names,
// and read from there: the target returned is that file, which the fix
// replaces only if its name still holds it (regular.Target). Otherwise
// the target is nil.
func (o options) readConfig(path string, stdin io.Reader) (*regular.Target, lint.Source, error) {
	if !o.writes() || path == cli.Stdin {
		src, err := cli.ReadInput(path, stdin, o.stdinName)
		return nil, src, err
	}
	t, err := regular.Resolve(path)
	if err != nil {
		return nil, lint.Source{}, err
	}
	src, err := cli.ReadTarget(t, path)
	if err != nil {
		closeTarget(t)
		return nil, lint.Source{}, err
	}
	return t, src, nil
}

// beforeReplace runs between the read of a config --fix fixes or
// migrate --write migrates and its replacement; a test replaces it to
// change the file in between.
var beforeReplace = func(string) {}

// closeTarget releases a target readConfig returned, if any.
func closeTarget(t *regular.Target) {
	if t != nil {
		_ = t.Close()
	}
}

// fixConfig writes the fixes lint.Fix made of one config: it prints them as a
// diff under --diff, writes the fixed config to standard output when it
// was read from standard input, and otherwise replaces the file in place,
// atomically. Each fix made gets one line on standard error, and so does
// each fix withheld, with the error it gave. It returns
// the config as fixed and what remains in it (under --diff, the config as
// --fix would leave it).
func (o options) fixConfig(path string, target *regular.Target, src lint.Source, fixed *lint.Fixed, m *lint.Manifest, stdout, stderr io.Writer) (lint.Source, *lint.Result, error) {
	verb := "fixed"
	if o.diff {
		verb = "would fix"
	}
	changed := !bytes.Equal(fixed.Data, src.Data)
	named := false
	name := func() {
		for _, a := range fixed.Applied {
			fmt.Fprintf(stderr, "%s: %s %s: %s\n", a.Finding.Span, verb, a.Finding.Rule, printable.String(a.Fix.Title))
		}
		for _, w := range fixed.Withheld {
			fmt.Fprintf(stderr, "%s: withheld %s: %s: it gave %s\n", w.Finding.Span, w.Finding.Rule, printable.String(w.Fix.Title), printable.String(w.Why))
		}
		// A moved approval list that replaces Kokua's built-in pair
		// drops its other gates, as migrate's would: each is said.
		if changed {
			for _, l := range migrate.LostGates(src, lint.Source{Name: src.Name, Data: fixed.Data}, m) {
				fmt.Fprintf(stderr, "%s: note: %s\n", printable.String(src.Name), printable.String(l.Message()))
			}
		}
		named = true
	}
	// The fixes are named before what shows them, and a fix written once
	// it is: a write refused says so alone.
	if o.diff || path == "-" {
		name()
	}
	switch {
	case o.diff:
		if _, err := io.WriteString(stdout, migrate.Diff(printable.String(src.Name), src.Data, fixed.Data)); err != nil {
			return src, nil, cli.StdoutFailed("kokua-lint", "the diff", err)
		}
	case path == "-":
		if _, err := stdout.Write(fixed.Data); err != nil {
			return src, nil, cli.StdoutFailed("kokua-lint", "the fixed config", err)
		}
	case changed:
		beforeReplace(path)
		if err := target.Replace(fixed.Data, o.writeOptions()); err != nil {
			return src, nil, cli.ReplaceFailed("kokua-lint: --fix", path, err)
		}
	}
	if !named {
		name()
	}
	return lint.Source{Name: src.Name, Data: fixed.Data}, fixed.Result, nil
}

// fixHint says, after a human report, how many of its findings a fix
// would resolve and which flag makes it: --fix for the safe ones, in a
// run that made none, and --unsafe-fixes for those only it makes, with
// the warning that they can widen an agent's power. A run that already
// made what it was asked to make, and a report with no fix, say nothing.
func (o options) fixHint(w io.Writer, all []diag.Diagnostic) {
	safe, unsafe := 0, 0
	for _, d := range all {
		switch {
		case engine.Fixable(d, false):
			safe++
		case engine.Fixable(d, true):
			unsafe++
		}
	}
	findings := func(n int) string {
		if n == 1 {
			return "1 finding"
		}
		return fmt.Sprintf("%d findings", n)
	}
	const widen = "which can widen what an agent may do"
	switch {
	case o.fix || o.diff:
		if unsafe > 0 && !o.unsafeFixes {
			fmt.Fprintf(w, "kokua-lint: --unsafe-fixes would fix %s more, %s (--diff --unsafe-fixes shows them without writing)\n", findings(unsafe), widen)
		}
	case safe > 0 && unsafe > 0:
		fmt.Fprintf(w, "kokua-lint: --fix fixes %s, and --fix --unsafe-fixes %d more, %s (--diff shows them without writing)\n", findings(safe), unsafe, widen)
	case safe > 0:
		fmt.Fprintf(w, "kokua-lint: --fix fixes %s (--diff shows them without writing)\n", findings(safe))
	case unsafe > 0:
		fmt.Fprintf(w, "kokua-lint: --fix --unsafe-fixes fixes %s, %s (--diff --unsafe-fixes shows them without writing)\n", findings(unsafe), widen)
	}
}
