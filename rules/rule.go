// Package rules holds the checks kokua-lint runs, one file per check. Each
// rule has a stable kebab-case ID, a severity, the phase of Kokua's startup
// at which the problem would surface, the rules.md numbers it implements,
// and a doc page docs/rules/<id>.md.
//
// Rules read the positioned model of package config and the derived world
// of package model; they never compute a position themselves.
package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// Needs says which inputs a rule reads. A rule runs only when what it needs
// could be read: a config that is not valid TOML runs only the syntax rule,
// and a manifest that does not follow the format stops every check that
// needs the registry (R204).
type Needs uint8

// What rules need.
const (
	// NeedsInput rules report on the raw inputs: syntax and manifest format.
	NeedsInput Needs = iota
	// NeedsConfig rules read the config alone (phase parse).
	NeedsConfig
	// NeedsWorld rules read the config against the registry.
	NeedsWorld
)

// Rule is one check.
type Rule struct {
	ID       string
	Severity diag.Severity
	Phase    diag.Phase
	// Refs are the rules.md numbers the check implements.
	Refs []string
	// Summary is the one line --list-rules prints.
	Summary string
	Needs   Needs
	// Check runs the rule; nil for the rules about suppression comments,
	// which are applied after every other rule (suppress.go).
	Check func(*Pass)
}

// Input is what a pass looks at. Config is nil when the file is not valid
// TOML; World is nil when the config could not be read or the manifest
// does not follow the format.
type Input struct {
	ConfigFile       string
	Syntax           *tomlpos.SyntaxError
	Config           *config.Config
	ManifestProblems []manifest.Problem
	World            *model.World
}

// Pass is one rule run over one input.
type Pass struct {
	*Input
	Rule *Rule
	out  []diag.Diagnostic
}

// Finding is what a rule reports; the pass adds the rule's ID, severity,
// phase and references.
type Finding struct {
	Span       diag.Span
	Key        string
	Message    string
	Suggestion string
}

// Report records a finding.
func (p *Pass) Report(f Finding) {
	p.out = append(p.out, diag.Diagnostic{
		Rule: p.Rule.ID, Severity: p.Rule.Severity, Phase: p.Rule.Phase,
		Message: f.Message, Span: f.Span, Key: f.Key, Suggestion: f.Suggestion, Refs: p.Rule.Refs,
	})
}

// Reportf records a finding whose message is formatted.
func (p *Pass) Reportf(span diag.Span, key, format string, args ...any) {
	p.Report(Finding{Span: span, Key: key, Message: fmt.Sprintf(format, args...)})
}

var registry = map[string]*Rule{}

func register(r *Rule) *Rule {
	if _, dup := registry[r.ID]; dup {
		panic("rules: two rules with ID " + r.ID)
	}
	registry[r.ID] = r
	return r
}

// All returns every rule, sorted by ID.
func All() []*Rule {
	out := make([]*Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// ByID returns the rule of that ID, or nil.
func ByID(id string) *Rule { return registry[id] }

// Run runs every rule the input allows, applies the config's suppression
// comments, and returns the findings, unsorted.
func Run(in *Input) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, r := range All() {
		switch {
		case r.Check == nil,
			r.Needs == NeedsConfig && in.Config == nil,
			r.Needs == NeedsWorld && in.World == nil:
			continue
		}
		p := &Pass{Input: in, Rule: r}
		r.Check(p)
		out = append(out, p.out...)
	}
	return suppress(in, out)
}

// q quotes a name from the config for a message, escaping anything that
// could disturb a terminal (control characters, bidirectional overrides).
func q(s string) string { return diag.Quote(s) }

// quoteAll quotes names and joins them with ", ".
func quoteAll(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = q(n)
	}
	return strings.Join(out, ", ")
}

// didYouMean writes " (did you mean 'x'?)" for close matches, or nothing.
func didYouMean(matches []string) string {
	switch len(matches) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" (did you mean %s?)", q(matches[0]))
	}
	return fmt.Sprintf(" (did you mean %s or %s?)", q(matches[0]), q(matches[1]))
}

// orList joins quoted names as "'a', 'b' or 'c'".
func orList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = q(n)
	}
	if len(quoted) <= 1 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}
