// Package policy is the compiled tool-access policy: the document
// kokua-compile writes, its verification on load, and the decisions a host
// asks of it (may this agent call this tool, does the call ask first and
// whom, what does loading a toolset add).
//
// It is what a host imports, so it depends on the standard library alone:
// embedding the runtime pulls in no TOML parser and no rule engine. The
// document's fields are described for hosts in other languages in
// docs/policy.md and by the JSON Schema docs/policy.schema.json.
package policy

// Version is the policy_version this package writes and reads.
const Version = 1

// Document is a compiled policy.
type Document struct {
	PolicyVersion int    `json:"policy_version"`
	Compiler      string `json:"compiler"`
	Inputs        Inputs `json:"inputs"`
	// EntryAgent is the agent the user talks to ([assistant].agent).
	EntryAgent string `json:"entry_agent"`
	// TrustOrder is every registered toolset, most trusted first (R51).
	TrustOrder []string `json:"trust_order"`
	// CoreTools are the core tools that exist in this config (R36).
	CoreTools    []string            `json:"core_tools"`
	AutoApproval AutoApproval        `json:"auto_approval"`
	Floor        Floor               `json:"floor"`
	DefaultTier  Tier                `json:"default_tier"`
	Composed     Composed            `json:"composed"`
	Toolsets     map[string]*Toolset `json:"toolsets"`
	Agents       map[string]*Agent   `json:"agents"`
	// Digest is "sha256:" and the hex SHA-256 of the document's canonical
	// form without this member (see Canonical).
	Digest string `json:"digest"`
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
	Reviewers      []string `json:"reviewers"`
	TimeoutSeconds float64  `json:"timeout_seconds"`
	MaxPerTurn     int      `json:"max_per_turn"`
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
	Label string `json:"label"`
	// Source is "declared" when the file writes [assistant.tools], or
	// "builtin" for Kokua's built-in pair (R9).
	Source  string `json:"source"`
	Confirm List   `json:"confirm"`
	Review  List   `json:"review"`
}

// Composed describes composed workers (R13, R91, R96-R97).
type Composed struct {
	// LabelPrefix starts every composed worker's gate label.
	LabelPrefix string `json:"label_prefix"`
	// Tier is the policy composed workers always get: "default_tier".
	Tier string `json:"tier"`
	// Possible is true when some agent holds capabilities, and so
	// compose_subagent.
	Possible bool `json:"possible"`
}

// List is one list of approval entries.
type List struct {
	// Key is the key path as a config spells it.
	Key string `json:"key"`
	// Builtin marks a list the file does not write (Kokua's default).
	Builtin bool    `json:"builtin"`
	Entries []Entry `json:"entries"`
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
	Text    string `json:"text"`
	Toolset string `json:"toolset"`
	// Tool is the tool segment; empty when the entry names a whole toolset.
	Tool string `json:"tool"`
	// Position is where the config writes the entry; nil for a built-in one.
	Position *Position `json:"position"`
	Status   string    `json:"status"`
	// Tools are the tools the entry gates now (resolved entries).
	Tools []string `json:"tools"`
	// ToolsWhenBuilt are the tools a pending entry would gate once its
	// toolset is built, from the manifest. A runtime resolves pending
	// entries from the build itself, since tools can grow (R82, R189).
	ToolsWhenBuilt []string `json:"tools_when_built"`
}

// Position is a place in the config: 1-based lines, columns in characters,
// the end exclusive.
type Position struct {
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndLine   int `json:"end_line"`
	EndColumn int `json:"end_column"`
}

// Toolset is a registered toolset.
type Toolset struct {
	Kind           string `json:"kind"`
	Description    string `json:"description"`
	Guidance       string `json:"guidance"`
	EntryPointOnly bool   `json:"entry_point_only"`
	// LoadRefusal, when not empty, is the error every load of the toolset
	// answers with: an MCP server that is not connected (R149).
	LoadRefusal string `json:"load_refusal"`
	Tools       []Tool `json:"tools"`
}

// Tool is a tool with its spec size, when the manifest gives one.
type Tool struct {
	Name string `json:"name"`
	// Toolset is the toolset the tool comes from, "core" for a core tool.
	Toolset   string `json:"toolset,omitempty"`
	SpecBytes *int   `json:"spec_bytes"`
}

// Agent is one declared agent.
type Agent struct {
	GateLabel   string    `json:"gate_label"`
	Entry       bool      `json:"entry"`
	Reachable   bool      `json:"reachable"`
	DelegatesTo []string  `json:"delegates_to"`
	Available   Available `json:"available"`
	// Resident are the toolsets held from the first turn, in available
	// order; ResidentDeclared is false when every available toolset is.
	Resident         []string `json:"resident"`
	ResidentDeclared bool     `json:"resident_declared"`
	// Deferred are the toolsets the agent can load, in available order.
	Deferred []string `json:"deferred"`
	// Skills are the skills the entry agent holds through SkillAgent (R42).
	Skills []string `json:"skills"`
	// NamesLine is the system prompt's line naming what it can load, or nil.
	NamesLine *string `json:"names_line"`
	// CoreTools are the core tools the agent holds.
	CoreTools []string `json:"core_tools"`
	// Tools is the tool list at turn start, in presentation order (R185).
	Tools []Tool `json:"tools"`
	// Shadowed are the resident tools hidden by an earlier same-named one.
	Shadowed  []Shadowed `json:"shadowed"`
	ToolBlock *ToolBlock `json:"tool_block"`
	Approval  Approval   `json:"approval"`
	// Alerts are the alerts Kokua raises for the agent after startup.
	Alerts []string `json:"alerts"`
}

// Available is an agent's availability as declared and as expanded.
type Available struct {
	// All is true for available = "all"; Declared then is nil.
	All      bool     `json:"all"`
	Declared []string `json:"declared"`
	Expanded []string `json:"expanded"`
	Count    int      `json:"count"`
}

// Shadowed is a resident tool hidden by an earlier resident toolset (R137).
type Shadowed struct {
	Name    string `json:"name"`
	Toolset string `json:"toolset"`
	By      string `json:"by"`
}

// ToolBlock is the size of the tool specs sent on every round (R192-R195).
type ToolBlock struct {
	ResidentBytes    int     `json:"resident_bytes"`
	ResidentTools    int     `json:"resident_tools"`
	AllResidentBytes int     `json:"all_resident_bytes"`
	AllResidentTools int     `json:"all_resident_tools"`
	SavedPercent     float64 `json:"saved_percent"`
}

// Approval is the approval pair that governs an agent.
type Approval struct {
	// Source is "declared" (the agent's own table) or "inherited" (from
	// [assistant.tools]).
	Source string `json:"source"`
	// Table is where the pair is written.
	Table   string `json:"table"`
	Confirm List   `json:"confirm"`
	Review  List   `json:"review"`
}
