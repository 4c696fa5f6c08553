// Package lint is what a host calls to check Kokua's config.toml: an
// editor, a CI step or a service that lints the configs it is given, as
// the kokua-lint command does. A host loads a registry manifest once
// (DefaultManifest for a default install, LoadManifest for its own), calls
// Lint on each config and reads the findings as diag.Diagnostic values,
// makes their fixes with Fix, writes them in any of the command's formats
// with Write (human, JSON, SARIF, GitHub annotations), and lists the rules
// with their severities and fixes with Rules.
package lint

import (
	"errors"
	"fmt"
	"os"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/regular"
)

// MaxInputBytes bounds the size of a config or manifest the linter reads.
// Real files are a few kilobytes; a larger one is almost surely the wrong
// file, and reading it whole would only cost memory.
const MaxInputBytes = 16 << 20

// Source is one input file: its name as diagnostics print it, and its bytes.
type Source struct {
	Name string
	Data []byte
}

// Manifest is a loaded registry manifest, ready to lint any number of
// configs against.
type Manifest struct {
	Source Source
	// Embedded reports whether it is the embedded default install
	// (DefaultManifest) rather than a file.
	Embedded bool
	// engineManifest is what the linter read; a host reaches it only
	// through Err and Toolsets.
	engineManifest
}

// engineManifest names the field of Manifest that holds what the linter
// read, unexported.
type engineManifest = engine.Held

// LoadManifest reads a manifest's bytes. A manifest that does not follow
// the format still loads: Err says why, and Lint reports it as the
// invalid-manifest finding of every config checked against it.
func LoadManifest(src Source) *Manifest {
	return &Manifest{Source: src, engineManifest: engine.Hold(engine.LoadManifest(src))}
}

// DefaultManifest is the embedded manifest of a default Kokua install.
func DefaultManifest() *Manifest {
	m := LoadManifest(Source{Name: manifest.DefaultManifestName, Data: manifest.DefaultManifest()})
	m.Embedded = true
	return m
}

// Err is nil when the manifest follows the format (docs/manifest.md),
// and otherwise names each problem at its position in the manifest, one
// a line.
func (m *Manifest) Err() error {
	var errs []error
	for _, p := range engine.ManifestOf(m).Problems {
		errs = append(errs, fmt.Errorf("%s: %s", p.Span, p.Message))
	}
	return errors.Join(errs...)
}

// Toolsets lists the names of the toolsets the manifest registers, in its
// order; none when it does not follow the format.
func (m *Manifest) Toolsets() []string {
	em := engine.ManifestOf(m).Manifest
	if em == nil {
		return nil
	}
	names := make([]string, 0, len(em.Toolsets))
	for _, t := range em.Toolsets {
		names = append(names, t.Name)
	}
	return names
}

// Result is what linting one config found.
type Result struct {
	Diagnostics []diag.Diagnostic
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
// sorted (R204, R207). A nil manifest is the default install's.
func Lint(cfg Source, m *Manifest) *Result {
	if m == nil {
		m = DefaultManifest()
	}
	res := engine.Run(cfg, m)
	return &Result{Diagnostics: res.Diagnostics, Kokua: res.Kokua}
}

// IsKokuaConfig reports whether src is Kokua's config.toml rather than
// another program's file of the same name (Cargo's .cargo/config.toml,
// Hugo's config.toml): it holds at least one of Kokua's tables,
// [assistant], [agents], [reviewers], [mcp] or [tools], or a [security]
// table with one of Kokua's keys. A file that is not valid TOML is Kokua's
// when a line of it starts one of those tables, so that a broken Kokua
// config is still checked. An empty file is no one's.
//
// Lint reports the same in Result.Kokua, from the parse it makes anyway.
func IsKokuaConfig(src Source) bool { return engine.IsKokuaConfig(src) }

// ReadFile reads an input file, refusing directories, named pipes,
// devices and anything else that is not a regular file (without opening
// it, so that a FIFO never blocks: package regular), files over
// MaxInputBytes and unreadable paths with an error that names the file.
func ReadFile(path string) (Source, error) {
	data, err := regular.ReadFile(path, MaxInputBytes)
	switch {
	case errors.Is(err, regular.ErrTooLarge):
		return Source{}, engine.TooLarge(path, MaxInputBytes)
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
