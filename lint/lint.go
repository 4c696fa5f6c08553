// Package lint runs the rules over config files and owns the output
// formats. It is the library behind the kokua-lint command: Lint checks
// one config against a manifest, and Write prints the findings in any of
// the formats.
package lint

import (
	"errors"
	"fmt"
	"os"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/regular"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// MaxInputBytes bounds the size of a config or manifest the linter reads.
// Real files are a few kilobytes; a larger one is almost surely the wrong
// file, and reading it whole would only cost memory.
const MaxInputBytes = 16 << 20

// TooLarge is the error for an input named name that is over
// MaxInputBytes: kokua-lint prints it for a file or standard input, and
// the language server shows it as the one diagnostic of a document that
// large, which it does not lint.
func TooLarge(name string) error {
	return fmt.Errorf("cannot read %s: it is larger than %d MiB, which no config or manifest is", name, MaxInputBytes>>20)
}

// Source is one input file: its name as diagnostics print it, and its bytes.
type Source struct {
	Name string
	Data []byte
}

// Manifest is a loaded registry manifest, ready to lint any number of
// configs against.
type Manifest struct {
	Source   Source
	Embedded bool
	Manifest *manifest.Manifest
	Problems []manifest.Problem
}

// LoadManifest reads a manifest's bytes.
func LoadManifest(src Source) *Manifest {
	m, problems := manifest.Load(src.Name, src.Data)
	return &Manifest{Source: src, Manifest: m, Problems: problems}
}

// DefaultManifest is the embedded manifest of a default Kokua install.
func DefaultManifest() *Manifest {
	m := LoadManifest(Source{Name: manifest.DefaultManifestName, Data: manifest.DefaultManifest()})
	m.Embedded = true
	return m
}

// Result is what linting one config found, with the model it built so that
// the compiler can reuse it.
type Result struct {
	Diagnostics []diag.Diagnostic
	// Config is nil when the file is not valid TOML.
	Config *config.Config
	// World is nil when the config or the manifest could not be read.
	World *model.World
	// Kokua reports whether the file is Kokua's config rather than another
	// program's config.toml (IsKokuaConfig), read from the same parse.
	Kokua bool
}

// HasErrors reports whether any finding is an error.
func (r *Result) HasErrors() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// Lint checks one config against a manifest and returns every finding,
// sorted (R204, R207).
func Lint(cfg Source, m *Manifest) *Result {
	in := &rules.Input{ConfigFile: cfg.Name, ManifestProblems: m.Problems}
	c, err := config.Load(cfg.Name, cfg.Data)
	var syntax *tomlpos.SyntaxError
	switch {
	case errors.As(err, &syntax):
		in.Syntax = syntax
	case err != nil:
		in.Syntax = &tomlpos.SyntaxError{Span: diag.Span{File: cfg.Name}, Message: err.Error()}
	default:
		in.Config = c
		if m.Manifest != nil {
			in.World = model.Build(c, m.Manifest)
		}
	}
	res := &Result{Diagnostics: diag.Sort(rules.Run(in)), Config: in.Config, World: in.World}
	if c != nil {
		res.Kokua = holdsKokuaTable(c.Root)
	} else {
		res.Kokua = kokuaHeader().Match(cfg.Data)
	}
	return res
}

// ReadFile reads an input file, refusing directories, named pipes,
// devices and anything else that is not a regular file (without opening
// it, so that a FIFO never blocks: package regular), files over
// MaxInputBytes and unreadable paths with an error that names the file.
func ReadFile(path string) (Source, error) {
	data, err := regular.ReadFile(path, MaxInputBytes)
	switch {
	case errors.Is(err, regular.ErrTooLarge):
		return Source{}, TooLarge(path)
	case err != nil:
		return Source{}, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
	}
	return Source{Name: path, Data: data}, nil
}

// unwrapPath drops the path an *os.PathError repeats, keeping its cause.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
