// Package compile turns a config, seen against a manifest, into the
// compiled policy (docs/semantics.md R189): for every agent what it holds,
// what it can load, and which tools ask whom, and why. A host that builds
// policies itself (a deploy step, a service that receives configs) calls
// Compile with the files' bytes and gets the policy document, with what
// linting them found; Write seals a document as kokua-compile writes it,
// signed when given a key, and WriteFile puts it on disk safely. Package
// policy loads what it wrote and answers from it.
package compile

import (
	"errors"
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Options name the inputs of Compile.
type Options struct {
	// ConfigName names the config in diagnostics and in the document's
	// inputs; empty means "config.toml". (kokua-compile records the
	// base name of the file it read.)
	ConfigName string
	// ManifestName names the manifest the same way; empty means
	// "kokua.manifest.json", or "<default install>" for the embedded
	// one.
	ManifestName string
}

// ErrFindings is the error Compile returns, wrapped, when the config or
// the manifest has an error finding: a policy is only compiled from a
// config that lints without errors, as kokua-compile does.
var ErrFindings = errors.New("the config has errors, so no policy was compiled")

// Compile lints config against manifest, exactly as kokua-lint does, and
// compiles the policy of a config with no error. manifest is the registry
// manifest's bytes, or nil for the embedded default Kokua install.
//
// It returns every finding, sorted, in each case. The document is nil and
// the error wraps ErrFindings (errors.Is) when a finding is an error; the
// error's text names the first one.
func Compile(config, manifest []byte, opts Options) (*policy.Document, []diag.Diagnostic, error) {
	cfgName := opts.ConfigName
	if cfgName == "" {
		cfgName = "config.toml"
	}
	m := manifestOf(manifest, opts.ManifestName)
	cfg := engine.Source{Name: cfgName, Data: config}
	res := engine.Run(cfg, engine.LoadManifest(m))
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Error {
			return nil, res.Diagnostics, fmt.Errorf("%w; the first: %s", ErrFindings, d.Error())
		}
	}
	if res.World == nil {
		// No error finding and no world cannot happen: a config that is
		// not TOML, or a manifest that does not load, is an error finding.
		return nil, res.Diagnostics, fmt.Errorf("%w: the config could not be read", ErrFindings)
	}
	return engine.Compile(res.World, cfg, m), res.Diagnostics, nil
}

// manifestOf is the manifest Compile reads: the bytes given under name,
// or the embedded default install.
func manifestOf(data []byte, name string) engine.Source {
	if data == nil {
		if name == "" {
			name = manifest.DefaultManifestName
		}
		return engine.Source{Name: name, Data: manifest.DefaultManifest()}
	}
	if name == "" {
		name = "kokua.manifest.json"
	}
	return engine.Source{Name: name, Data: data}
}
