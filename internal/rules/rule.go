// Package rules holds the checks kokua-lint runs, one file per check. Each
// rule has a stable kebab-case ID, a severity, the phase of Kokua's startup
// at which the problem would surface, the rules.md numbers it implements,
// and a doc page docs/rules/<id>.md.
//
// Rules read the positioned model of package config and the derived world
// of package model; they never compute a position themselves.
//
// A helper one check uses stays in that check's file. What several checks
// share has a file of its own: approval.go (the lists of approval entries
// and their dead entries), overlap.go (entries of two lists that hold one
// tool), reviewers.go, suppress.go, and text.go (how findings quote names,
// in messages and as TOML in suggestions).
//
// No host imports this package; it lives under internal/. Its API is the
// linter's model (Input holds config.Config and model.World, themselves
// internal), and it changes with every check added. A host gets the
// findings from lint.Lint, as diag.Diagnostic values, and the list of
// rules with their IDs, severities, summaries and fixes from lint.Rules
// (or `kokua-lint --list-rules --format json`).
package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// Needs says which inputs a rule reads. A rule runs only when what it needs
// could be read: a config that is not valid TOML runs only the syntax rule,
// and a manifest that does not follow the format stops every check that
// needs the registry (R204).
//
// The zero value is no choice: registration refuses a rule that does not
// say what it needs, and a pass would run such a rule only with a world.
type Needs uint8

// What rules need.
const (
	// The zero value names nothing: a rule must choose.
	_ Needs = iota
	// NeedsInput rules report on the raw inputs: syntax and manifest format.
	NeedsInput
	// NeedsConfig rules read the config alone (phase parse).
	NeedsConfig
	// NeedsWorld rules read the config against the registry.
	NeedsWorld
)

// met reports whether the input holds what a rule needs. Anything but
// NeedsInput and NeedsConfig needs the world, the most a rule can read.
func (n Needs) met(in *Input) bool {
	switch n {
	case NeedsInput:
		return true
	case NeedsConfig:
		return in.Config != nil
	}
	return in.World != nil
}

// Fixes is the safety of the fixes a rule attaches: a set of bits.
type Fixes uint8

// The fix kinds.
const (
	// SafeFixes only tighten what an agent may do, or change nothing.
	SafeFixes Fixes = 1 << iota
	// UnsafeFixes could widen it.
	UnsafeFixes
)

// String says which fixes: "safe", "unsafe", "safe and unsafe" or "none".
func (f Fixes) String() string {
	switch f {
	case SafeFixes:
		return "safe"
	case UnsafeFixes:
		return "unsafe"
	case SafeFixes | UnsafeFixes:
		return "safe and unsafe"
	}
	return "none"
}

// Allows reports whether a fix of that safety is one the rule declares.
func (f Fixes) Allows(safe bool) bool {
	if safe {
		return f&SafeFixes != 0
	}
	return f&UnsafeFixes != 0
}

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
	// Fixes says which fixes the rule attaches to its findings: none,
	// safe ones, unsafe ones, or both (diag.Fix; fix.go). The rule's page
	// says the same, and a test holds both to what the rule does.
	Fixes Fixes
	// Check runs the rule; nil for the rules about suppression comments,
	// which are applied after every other rule (suppress.go).
	Check func(*Pass)
}

// Input is what a pass looks at. Config is nil when the file is not valid
// TOML; World is nil when the config could not be read or the manifest
// does not follow the format.
type Input struct {
	ConfigFile string
	Syntax     *tomlpos.SyntaxError
	Config     *config.Config
	// NotKokua marks a Config that holds none of Kokua's tables
	// (engine.IsKokuaConfig): an empty file, another program's
	// config.toml, a policy test file. no-agents names it for what it is,
	// rather than advise overwriting it with Kokua's example.
	NotKokua         bool
	ManifestProblems []manifest.Problem
	World            *model.World
}

// Pass is one rule run over one input.
type Pass struct {
	*Input
	Rule *Rule
	out  []diag.Diagnostic
	// read is what the file's unresolved names could declare, found at
	// the first rule that asks (readings.go).
	read *readings
	// doc is the config as the TOML editor reads it, made at the first
	// fix that edits more than a string (fix.go).
	doc *tomledit.Doc
}

// Finding is what a rule reports; the pass adds the rule's ID, severity,
// phase and references.
type Finding struct {
	Span       diag.Span
	Key        string
	Message    string
	Suggestion string
	// Notes follow the message, one sentence each: the long lists and
	// further consequences it refers to, so that the message, the first
	// line of the human format, says only what is wrong and why
	// (diag.Diagnostic).
	Notes []string
	// Fixes resolve the finding, the one Suggestion names first (fix.go).
	Fixes []diag.Fix
}

// Report records a finding. A message that notes follow is their first
// sentence, so it gets a period when it has none: programs read the message
// and its notes as one text (diag.Diagnostic.Text).
func (p *Pass) Report(f Finding) {
	if len(f.Notes) > 0 && !strings.HasSuffix(f.Message, ".") && !strings.HasSuffix(f.Message, "?") {
		f.Message += "."
	}
	p.out = append(p.out, diag.Diagnostic{
		Rule: p.Rule.ID, Severity: p.Rule.Severity, Phase: p.Rule.Phase,
		Message: f.Message, Span: f.Span, Key: f.Key, Suggestion: f.Suggestion, Notes: f.Notes, Refs: p.Rule.Refs,
		Fixes: touching(f.Fixes, f.Key),
	})
}

// touching gives each fix that names no table the table of the finding's
// key, the one its edit is in (diag.Fix.Touches).
func touching(fixes []diag.Fix, key string) []diag.Fix {
	table := tableOf(key)
	for i := range fixes {
		if len(fixes[i].Touches) == 0 && table != "" {
			fixes[i].Touches = []string{table}
		}
	}
	return fixes
}

// tableOf is the table part of a key path as findings spell it:
// "[agents.coder.tools]" of "[agents.coder.tools].confirm".
func tableOf(key string) string {
	if i := strings.LastIndex(key, "]."); i >= 0 {
		return key[:i+1]
	}
	if strings.HasPrefix(key, "[") && strings.HasSuffix(key, "]") {
		return key
	}
	return ""
}

// Reportf records a finding whose message is formatted.
func (p *Pass) Reportf(span diag.Span, key, format string, args ...any) {
	p.Report(Finding{Span: span, Key: key, Message: fmt.Sprintf(format, args...)})
}

// all is every rule, sorted by ID: Go data, which the linker lays out, so
// that nothing is registered when a program starts. TestRuleList holds it
// to every rule of the package, sorted, each ID once, each saying what it
// needs.
var all = []*Rule{
	allSpellingRule,
	allWithoutResidentRule,
	availableStringRule,
	beyondLimitsRule,
	buildFloorRule,
	buildOverlapRule,
	confirmReviewOverlapRule,
	confusableNameRule,
	deadEntryRule,
	declaredPairDropsGatesRule,
	delegationCycleRule,
	duplicateNameRule,
	duplicateToolsetRule,
	entryAgentMissingRule,
	entryScopeRule,
	entryShapeRule,
	invalidManifestRule,
	invalidTomlRule,
	mcpDisconnectedRule,
	mcpServerShapeRule,
	modelShapeRule,
	noAgentsRule,
	noReviewEntryRule,
	noReviewerRule,
	oldAgentToolsRule,
	pendingDeadEntryRule,
	removedKeyRule,
	reservedAgentNameRule,
	reservedToolsetNameRule,
	residentOutsideAvailableRule,
	reviewReachesFloorRule,
	reviewerMissingTableRule,
	reviewerNoStandardRule,
	reviewerSameModelRule,
	reviewerThinkingRule,
	shadowCheckSkippedRule,
	shadowedToolRule,
	staleManifestServerRule,
	suppressionInvalid,
	suppressionUnused,
	toolsetNameCharsRule,
	unknownDelegateRule,
	unknownKeyRule,
	unknownToolsetRule,
	unprintableNameRule,
	unusedSectionRule,
	workerEntryPointOnlyRule,
	workflowCommandRule,
	wrongTypeRule,
}

// All returns every rule, sorted by ID, in a slice of the caller's own.
func All() []*Rule { return slices.Clone(all) }

// ByID returns the rule of that ID, or nil.
func ByID(id string) *Rule {
	if i, ok := slices.BinarySearchFunc(all, id, func(r *Rule, id string) int { return strings.Compare(r.ID, id) }); ok {
		return all[i]
	}
	return nil
}

// Run runs every rule the input allows, applies the config's suppression
// comments, and returns the findings, unsorted.
func Run(in *Input) []diag.Diagnostic {
	p := &Pass{Input: in} // one pass, its list added to by every rule
	for _, r := range all {
		if r.Check == nil || !r.Needs.met(in) {
			continue
		}
		p.Rule = r
		r.Check(p)
	}
	return suppress(in, p.out)
}
