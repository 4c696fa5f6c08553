package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/migrate"
	"github.com/kokua-policy/kokua-policy/lint"
)

// checkFixTargets refuses, before anything is read or written, a --fix
// that would replace what it must not: a config that is the manifest, or
// a path that is not a regular file.
func (o options) checkFixTargets() error {
	if !o.fix || o.diff {
		return nil
	}
	for _, c := range o.configs {
		if c == "-" {
			continue
		}
		if err := cli.NotAnInput("kokua-lint", "--fix", c, nil, cli.Input{What: "the manifest", Path: o.manifest}); err != nil {
			return err
		}
		if _, _, err := regularFile(c); err != nil {
			return usage("--fix: %v", err)
		}
	}
	return nil
}

// fixConfig writes the fixes lint.Fix made of one config: it prints them as a
// diff under --diff, writes the fixed config to standard output when it
// was read from standard input, and otherwise replaces the file in place,
// atomically. Each fix made gets one line on standard error, and so does
// each fix withheld, with the error it gave. It returns
// the config as fixed and what remains in it (under --diff, the config as
// --fix would leave it).
func (o options) fixConfig(path string, src lint.Source, fixed *lint.Fixed, stdout, stderr io.Writer) (lint.Source, *lint.Result, error) {
	verb := "fixed"
	if o.diff {
		verb = "would fix"
	}
	for _, a := range fixed.Applied {
		fmt.Fprintf(stderr, "%s: %s %s: %s\n", a.Finding.Span, verb, a.Finding.Rule, diag.Printable(a.Fix.Title))
	}
	for _, w := range fixed.Withheld {
		fmt.Fprintf(stderr, "%s: withheld %s: %s: it gave %s\n", w.Finding.Span, w.Finding.Rule, diag.Printable(w.Fix.Title), diag.Printable(w.Why))
	}
	changed := !bytes.Equal(fixed.Data, src.Data)
	switch {
	case o.diff:
		if _, err := io.WriteString(stdout, migrate.Diff(diag.Printable(src.Name), src.Data, fixed.Data)); err != nil {
			return src, nil, cli.StdoutFailed("kokua-lint", "the diff", err)
		}
	case path == "-":
		if _, err := stdout.Write(fixed.Data); err != nil {
			return src, nil, cli.StdoutFailed("kokua-lint", "the fixed config", err)
		}
	case changed:
		target, _, err := regularFile(path)
		if err == nil {
			err = compile.WriteFile(target, fixed.Data)
		}
		if err != nil {
			return src, nil, cli.WriteFailed("kokua-lint: --fix", fmt.Errorf("%w; %s was not changed", err, path))
		}
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
		case lint.Fixable(d, false):
			safe++
		case lint.Fixable(d, true):
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
