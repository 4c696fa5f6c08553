// Package engine is the linter and the compiler as the module's own
// packages use them: Run lints a config against a manifest and keeps what
// it built (the config model and the world, the config seen against the
// manifest), Compile turns that world into the policy document, and
// WriteAgents prints its human view.
//
// The public packages wrap it. lint.Lint returns only Run's diagnostics
// and facts; compile.Compile takes bytes and returns the document; a host
// outside the module never sees a model type. The commands, the language
// server, migrate and diff read the model itself, so they call this
// package.
package engine

import (
	"errors"
	"slices"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// Source is one input file: its name as diagnostics print it, and its
// bytes. It is an unnamed struct type, so that lint.Source (the same
// fields, the type a host holds) is passed where a Source is asked for
// without a conversion.
type Source = struct {
	Name string
	Data []byte
}

// Manifest is a registry manifest as the engine reads it: the manifest,
// nil when it does not follow the format, and the problems that say why.
type Manifest struct {
	Manifest *manifest.Manifest
	Problems []manifest.Problem
}

// LoadManifest reads a manifest's bytes.
func LoadManifest(src Source) *Manifest {
	m, problems := manifest.Load(src.Name, src.Data)
	return &Manifest{Manifest: m, Problems: problems}
}

// Held carries a Manifest inside lint.Manifest. lint.Manifest embeds it
// as an unexported field, so that a host sees neither the field nor the
// type, and inherits its unexported method, so that *lint.Manifest is a
// Holder: the packages of the module pass the manifest a host would pass,
// and Run reads the engine's form out of it.
type Held struct{ m *Manifest }

// Hold wraps m for lint.Manifest to embed.
func Hold(m *Manifest) Held { return Held{m: m} }

func (h Held) engineManifest() *Manifest { return h.m }

// Holder is what holds a manifest: *lint.Manifest, a Held, or a
// *Manifest itself.
type Holder interface{ engineManifest() *Manifest }

func (m *Manifest) engineManifest() *Manifest { return m }

// ManifestOf returns the manifest h holds, or an empty Manifest (no
// manifest, no problems) when it holds none.
func ManifestOf(h Holder) *Manifest {
	if h != nil {
		if m := h.engineManifest(); m != nil {
			return m
		}
	}
	return &Manifest{}
}

// Linted is what linting one config found, with the model it built so
// that the compiler, the language server, migrate and diff reuse it.
type Linted struct {
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
func (r *Linted) HasErrors() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// Run checks one config against a manifest and returns every finding,
// sorted (R204, R207), with the model it built.
func Run(cfg Source, h Holder) *Linted {
	m := ManifestOf(h)
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
		in.NotKokua = !holdsKokuaTable(c.Root)
		if p, none := rules.NoOwnToolsets(m.Manifest); none {
			in.ManifestProblems = append(slices.Clip(in.ManifestProblems), p)
		} else if m.Manifest != nil {
			in.World = model.Build(c, m.Manifest)
		}
	}
	res := &Linted{Diagnostics: diag.Sort(rules.Run(in)), Config: in.Config, World: in.World}
	if c != nil {
		res.Kokua = holdsKokuaTable(c.Root)
	} else {
		res.Kokua = kokuaHeader(cfg.Data)
	}
	return res
}
