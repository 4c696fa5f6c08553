package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/model"
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
}

// compileConfig lints the config and, when it has no error, writes its
// policy to stdout or, through a temporary file and a rename, to the
// output file. A config with errors is not compiled, and an existing
// output file is then left as it was.
func compileConfig(o compileOptions, stdout, stderr io.Writer) error {
	res, src, m, err := lintConfig(o.lintOptions, stderr)
	if err != nil {
		return err
	}
	cfgIn, manIn := compile.Input{Name: src.Name, Data: src.Data}, compile.Input{Name: m.Source.Name, Data: m.Source.Data}
	if o.check {
		return check(o, cfgIn, manIn, res.World)
	}
	out, err := policy.Marshal(compile.Compile(res.World, cfgIn, manIn))
	if err != nil {
		return cli.Fail(cli.ExitInternal, "kokua-compile: internal error: %v", err)
	}
	if o.output == "" {
		if _, err := stdout.Write(out); err != nil {
			return usage("writing the policy: %v", err)
		}
		return nil
	}
	if err := compile.WriteAtomic(o.output, out); err != nil {
		return usage("%v", err)
	}
	return nil
}

// check compares the policy the config compiles to with the one committed
// at o.output. The file names the committed policy records are kept, so
// that compiling from another folder does not make it look stale.
func check(o compileOptions, cfg, manifest compile.Input, w *model.World) error {
	if o.output == "" {
		return usage("--check needs -o FILE, the committed policy to compare with")
	}
	committed, err := os.ReadFile(o.output)
	if err != nil {
		return cli.Fail(cli.ExitFindings, "kokua-compile: %s is missing (%v): run kokua-compile -o %s %s", o.output, unwrapPath(err), o.output, o.config)
	}
	var recorded struct {
		Inputs policy.Inputs `json:"inputs"`
	}
	if json.Unmarshal(committed, &recorded) == nil {
		if f := recorded.Inputs.Config.File; f != "" {
			cfg.Name = f
		}
		if f := recorded.Inputs.Manifest.File; f != "" {
			manifest.Name = f
		}
	}
	want, err := policy.Marshal(compile.Compile(w, cfg, manifest))
	if err != nil {
		return cli.Fail(cli.ExitInternal, "kokua-compile: internal error: %v", err)
	}
	if !bytes.Equal(want, committed) {
		return cli.Fail(cli.ExitFindings, "kokua-compile: %s is stale against %s: run kokua-compile -o %s %s", o.output, o.config, o.output, o.config)
	}
	return nil
}

// unwrapPath drops the path an *os.PathError repeats, keeping its cause.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
