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
// atomically. Each fix made gets one line on standard error. It returns
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
