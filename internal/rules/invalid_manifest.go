package rules

import (
	"slices"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/jsonpos"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// invalid-manifest: the registry manifest does not follow the format of
// rules.md section 7, or registers none of Kokua's own toolsets. Every
// check that needs the registry is skipped until it does.
var invalidManifestRule = &Rule{
	ID:       "invalid-manifest",
	Severity: diag.Error,
	Phase:    diag.PhaseInput,
	Refs:     []string{"R161", "R162", "R163", "R164"},
	Summary:  "the registry manifest does not follow the manifest format",
	Needs:    NeedsInput,
	Check: func(p *Pass) {
		for _, mp := range p.ManifestProblems {
			p.Reportf(mp.Span, "", "manifest: %s", mp.Message)
		}
	},
}

// NoOwnToolsets returns the problem of a manifest that follows the format
// but registers no toolset of kind "kokua": every install registers
// Kokua's own (R23, R196), so such a manifest describes no install, and a
// config checked against it would have every toolset it names called
// unknown, one finding each. The caller reports the problem instead of
// checking the config against it. It is at the manifest's toolsets, or at
// its start when that cannot be found.
func NoOwnToolsets(m *manifest.Manifest) (manifest.Problem, bool) {
	if m == nil || slices.ContainsFunc(m.Toolsets, func(t *manifest.Toolset) bool { return t.Kind == kokua.KindKokua }) {
		return manifest.Problem{}, false
	}
	lines := lineindex.New(m.File, m.Source)
	span := lines.Span(0, 0)
	if v, err := jsonpos.Parse(m.Source); err == nil {
		if t := v.Get("toolsets"); t != nil {
			span = lines.Span(t.From, t.To)
		}
	}
	msg := `it registers none of Kokua's own toolsets (kind "kokua"), so it describes no Kokua install and the config was not checked against it`
	return manifest.Problem{Span: span, Message: msg}, true
}
