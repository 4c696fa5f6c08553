// Package policy is the compiled tool-access policy: the document
// kokua-compile writes, its verification on load, and the decisions a host
// asks of it (may this agent call this tool, does the call ask first and
// whom, what does loading a toolset add).
//
// It is what a host imports, so it depends on the standard library and
// Kokua's vocabulary (package kokua) alone: embedding the runtime pulls in
// no TOML parser and no rule engine. The document's fields are described
// for hosts in other languages in docs/policy.md and by the JSON Schema
// docs/policy.schema.json.
package policy

import "github.com/kokua-policy/kokua-policy/kokua"

// Version is the policy_version this package writes and reads.
const Version = 1

// Document is a compiled policy. Marshal writes it and Parse reads it
// with encoding/json; the order of the fields below matters to neither,
// since the digest is taken over the canonical form (see Canonical).
type Document struct {
	Agents       map[string]*Agent `json:"agents"`
	AutoApproval AutoApproval      `json:"auto_approval"`
	Compiler     string            `json:"compiler"`
	Composed     Composed          `json:"composed"`
	// CoreTools are the core tools that exist in this config (R36).
	CoreTools   []string `json:"core_tools"`
	DefaultTier Tier     `json:"default_tier"`
	// Digest is "sha256:" and the hex SHA-256 of the document's canonical
	// form, which leaves this member out (see Canonical). Marshal sets it
	// and writes it last.
	Digest string `json:"digest"`
	// EntryAgent is the agent the user talks to ([assistant].agent).
	EntryAgent    string `json:"entry_agent"`
	Floor         Floor  `json:"floor"`
	Inputs        Inputs `json:"inputs"`
	PolicyVersion int    `json:"policy_version"`
	// Reviewers are the [reviewers.<name>] tables auto-approval names,
	// with what decides how each answers; absent when it names none. A
	// change to one changes what every review tool it may approve can do
	// (kokua-compile diff).
	Reviewers map[string]*Reviewer `json:"reviewers,omitempty"`
	Toolsets  map[string]*Toolset  `json:"toolsets"`
	// TrustOrder is every registered toolset, most trusted first (R51).
	TrustOrder []string `json:"trust_order"`
	// Signature is the Ed25519 signature of the digest, for a policy
	// kokua-compile --sign wrote; nil for an unsigned one. Like the
	// digest, it is left out of the canonical form (see Sign).
	Signature *Signature `json:"signature,omitempty"`
}

// Inputs names the files the policy was compiled from, with their digests.
type Inputs struct {
	Config   Input `json:"config"`
	Manifest Input `json:"manifest"`
}

// Input is one input file.
type Input struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// AutoApproval is [security.auto_approval].
type AutoApproval struct {
	Enabled        bool     `json:"enabled"`
	MaxPerTurn     int      `json:"max_per_turn"`
	Reviewers      []string `json:"reviewers"`
	TimeoutSeconds float64  `json:"timeout_seconds"`
}

// Reviewer is one [reviewers.<name>] table: the model that answers review
// calls, what it is told, and the settings it runs with.
type Reviewer struct {
	// Model is the model the reviewer runs on: its own, else
	// [assistant].model, which a reviewer that sets none inherits (R144);
	// "" when neither writes one (the runtime's default model).
	Model string `json:"model"`
	// ModelSource says where Model comes from: kokua.Declared (the
	// reviewer's table), kokua.Inherited ([assistant].model) or
	// kokua.Builtin (neither; Model is "").
	ModelSource kokua.Origin `json:"model_source"`
	// SystemMessage is the reviewer's instructions, "" when unset.
	SystemMessage string `json:"system_message"`
	// Thinking is the thinking value the reviewer runs with, its own or
	// [assistant].thinking's (R143), as a TOML value in one form
	// ("high" with its quotes, false); "" when neither writes one.
	Thinking string `json:"thinking"`
	// ThinkingSource says where Thinking comes from, as ModelSource does.
	ThinkingSource kokua.Origin `json:"thinking_source"`
	// Generation is the generation table's values as one TOML inline
	// table, keys sorted ({temperature = 0.0}), whatever form the config
	// writes it in; "" when unset.
	Generation string `json:"generation"`
	// Position is where the table's name is written.
	Position Position `json:"position"`
}

// Floor is [security].never_auto_approve. It is read only when
// auto-approval is enabled (R86); when it is not, Active is false and its
// entries are listed unresolved.
type Floor struct {
	Active bool `json:"active"`
	List   List `json:"list"`
}

// Tier is the default approval pair, [assistant.tools], which every agent
// without a pair of its own inherits and composed workers always get.
type Tier struct {
	Confirm List   `json:"confirm"`
	Label   string `json:"label"`
	Review  List   `json:"review"`
	// Source is "declared" when the file writes [assistant.tools], or
	// "builtin" for Kokua's built-in pair (R9).
	Source kokua.Origin `json:"source"`
}

// Composed describes composed workers (R13, R91, R96-R97).
type Composed struct {
	// LabelPrefix starts every composed worker's gate label.
	LabelPrefix string `json:"label_prefix"`
	// Possible is true when some agent Kokua builds (the entry agent or a
	// worker it reaches) holds capabilities, and so compose_subagent
	// (R43, R77). When it is false, a composed label is an unknown agent.
	Possible bool `json:"possible"`
	// Tier is the policy composed workers always get: "default_tier".
	Tier string `json:"tier"`
}

// List is one list of approval entries.
type List struct {
	// Builtin marks a list the file does not write (Kokua's default).
	Builtin bool    `json:"builtin"`
	Entries []Entry `json:"entries"`
	// Key is the key path as a config spells it.
	Key string `json:"key"`
	// Tools are the tool names the list holds at startup: the union of its
	// resolved entries' tools. Pending entries add theirs when their
	// toolset is built.
	Tools []string `json:"tools"`
}

// Entry statuses.
const (
	StatusResolved = "resolved" // resolved at startup
	StatusPending  = "pending"  // resolved by its toolset's first build (R79-R82)
	StatusInactive = "inactive" // a floor entry while auto-approval is off
)

// Entry is one approval entry.
type Entry struct {
	// Position is where the config writes the entry; nil for a built-in one.
	Position *Position `json:"position"`
	Status   string    `json:"status"`
	Text     string    `json:"text"`
	// Tool is the tool segment; empty when the entry names a whole toolset.
	Tool string `json:"tool"`
	// Tools are the tools the entry gates now (resolved entries).
	Tools []string `json:"tools"`
	// ToolsWhenBuilt are the tools a pending entry would gate once its
	// toolset is built, from the manifest. A runtime resolves pending
	// entries from the build itself, since tools can grow (R82, R189).
	ToolsWhenBuilt []string `json:"tools_when_built"`
	Toolset        string   `json:"toolset"`
}

// Position is a place in the config: 1-based lines, columns in characters,
// the end exclusive.
type Position struct {
	Column    int `json:"column"`
	EndColumn int `json:"end_column"`
	EndLine   int `json:"end_line"`
	Line      int `json:"line"`
}

// Toolset is a registered toolset.
type Toolset struct {
	Description    string `json:"description"`
	EntryPointOnly bool   `json:"entry_point_only"`
	Guidance       string `json:"guidance"`
	Kind           string `json:"kind"`
	// LoadRefusal, when not empty, is the error every load of the toolset
	// answers with: an MCP server that is not connected (R149).
	LoadRefusal string `json:"load_refusal"`
	// Tools are what one build returns; for a toolset with a LoadRefusal,
	// what a load returns once it connects, since it builds empty now.
	Tools []Tool `json:"tools"`
}

// Tool is a tool with its spec size, when the manifest gives one.
type Tool struct {
	Name      string `json:"name"`
	SpecBytes *int   `json:"spec_bytes"`
	// Toolset is the toolset the tool comes from, "core" for a core tool.
	Toolset string `json:"toolset,omitempty"`
	// Classes are the tool's capability classes from the manifest, in
	// kokua.Classes order; written only under toolsets, and left out when
	// it has none.
	Classes []kokua.Class `json:"classes,omitempty"`
}

// Agent is one declared agent.
type Agent struct {
	// Alerts are the alerts Kokua raises for the agent after startup.
	Alerts    []string  `json:"alerts"`
	Approval  Approval  `json:"approval"`
	Available Available `json:"available"`
	// CoreTools are the core tools the agent holds.
	CoreTools []string `json:"core_tools"`
	// Deferred are the toolsets the agent can load, in available order.
	Deferred    []string `json:"deferred"`
	DelegatesTo []string `json:"delegates_to"`
	Entry       bool     `json:"entry"`
	GateLabel   string   `json:"gate_label"`
	// NamesLine is the system prompt's line naming what it can load, or nil.
	NamesLine *string `json:"names_line"`
	Reachable bool    `json:"reachable"`
	// Resident are the toolsets held from the first turn, in available
	// order; ResidentDeclared is false when every available toolset is.
	Resident         []string `json:"resident"`
	ResidentDeclared bool     `json:"resident_declared"`
	// Shadowed are the resident tools hidden by an earlier same-named one.
	Shadowed []Shadowed `json:"shadowed"`
	// Skills are the skills the entry agent holds through SkillAgent (R42).
	Skills    []string   `json:"skills"`
	ToolBlock *ToolBlock `json:"tool_block"`
	// Tools is the tool list at turn start, in presentation order (R185).
	Tools []Tool `json:"tools"`
}

// Available is an agent's availability as declared and as expanded.
type Available struct {
	// All is true for available = "all"; Declared then is nil.
	All      bool     `json:"all"`
	Count    int      `json:"count"`
	Declared []string `json:"declared"`
	Expanded []string `json:"expanded"`
}

// Shadowed is a resident tool hidden by an earlier resident toolset (R137).
type Shadowed struct {
	By      string `json:"by"`
	Name    string `json:"name"`
	Toolset string `json:"toolset"`
}

// ToolBlock is the size of the tool specs sent on every round (R192-R195).
type ToolBlock struct {
	AllResidentBytes int     `json:"all_resident_bytes"`
	AllResidentTools int     `json:"all_resident_tools"`
	ResidentBytes    int     `json:"resident_bytes"`
	ResidentTools    int     `json:"resident_tools"`
	SavedPercent     float64 `json:"saved_percent"`
}

// Approval is the approval pair that governs an agent.
type Approval struct {
	// Confirm and Review are a declared pair's lists; nil for an inherited
	// pair, whose lists are the default tier's.
	Confirm *List `json:"confirm"`
	Review  *List `json:"review"`
	// Source is "declared" (the agent's own table) or "inherited" (from
	// [assistant.tools]).
	Source kokua.Origin `json:"source"`
	// Table is where the pair is written.
	Table string `json:"table"`
}
