package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/english"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// Type is the shape a tool-access key's value must have (rules.md R2, R105).
type Type uint8

// The value types of the tool-access keys.
const (
	TypeString    Type = iota
	TypeStrings        // a list of strings
	TypeBool           // true or false
	TypeInt            // an integer (a boolean is not one)
	TypePosInt         // an integer of at least 1
	TypeNumber         // an integer or a float
	TypeTable          // a table whose keys this linter does not check
	TypeSubtable       // a table with a schema of its own
	TypeTables         // an array of tables, [[header]]
	TypeAvailable      // a list of strings or the string "all"
	TypeThinking       // a boolean or one of "low", "medium", "high"
)

var typeWants = [...]string{
	TypeString:    "a string",
	TypeStrings:   "a list of strings",
	TypeBool:      "a boolean (true or false)",
	TypeInt:       "an integer",
	TypePosInt:    "an integer of at least 1",
	TypeNumber:    "a number",
	TypeTable:     "a table",
	TypeSubtable:  "a table",
	TypeTables:    "an array of tables ([[...]])",
	TypeAvailable: `a list of toolset names or the string "all"`,
	// TypeThinking's is written by Want from ThinkingLevels.
}

// quotedOr spells a list of strings as a sentence does: "a", "b" or "c".
func quotedOr(ss []string) string { return english.Words(ss, "or", strconv.Quote) }

// ThinkingLevels are the strings a thinking key takes besides true and
// false (R2).
var ThinkingLevels = []string{"low", "medium", "high"}

// Want says in words what a value of type t must be.
func (t Type) Want() string {
	if t == TypeThinking {
		return "true, false, " + quotedOr(ThinkingLevels)
	}
	return typeWants[t]
}

// Accepts reports whether n has the shape t requires.
func (t Type) Accepts(n *tomlpos.Node) bool {
	switch t {
	case TypeString:
		return n.Kind == tomlpos.KindString
	case TypeStrings:
		return isStrings(n)
	case TypeBool:
		return n.Kind == tomlpos.KindBool
	case TypeInt:
		return n.Kind == tomlpos.KindInteger
	case TypePosInt:
		return n.Kind == tomlpos.KindInteger && n.Int >= 1
	case TypeNumber:
		return n.Kind == tomlpos.KindInteger || n.Kind == tomlpos.KindFloat
	case TypeTable, TypeSubtable:
		return n.Kind == tomlpos.KindTable
	case TypeTables:
		return isTables(n)
	case TypeAvailable:
		return n.Kind == tomlpos.KindString || isStrings(n)
	case TypeThinking:
		return n.Kind == tomlpos.KindBool || n.Kind == tomlpos.KindString && slices.Contains(ThinkingLevels, n.Str)
	}
	return false
}

// isTables reports whether n is an array of tables in either spelling
// TOML 1.0 gives it: [[header]] tables, or a static array of inline
// tables (server = [{ name = "wiki", url = "..." }]). Python's tomllib
// reads both as the same list of dicts, so Kokua cannot tell them apart.
func isTables(n *tomlpos.Node) bool {
	if n.Kind != tomlpos.KindArray {
		return false
	}
	for _, it := range n.Items {
		if it.Kind != tomlpos.KindTable {
			return false
		}
	}
	return true
}

func isStrings(n *tomlpos.Node) bool {
	if n.Kind != tomlpos.KindArray || n.ArrayOfTables {
		return false
	}
	for _, it := range n.Items {
		if it.Kind != tomlpos.KindString {
			return false
		}
	}
	return true
}

// KeySchema describes one key of a tool-access table.
type KeySchema struct {
	Name string
	Type Type
	// Removed marks a key Kokua used before and now refuses with a message
	// naming its replacement (R19, R20); the old-key rules report it.
	Removed bool
	// OldList marks a key whose non-table value is the layout from before the
	// tool-access split (R101), reported by its own rule rather than as a
	// wrong type.
	OldList bool
	// Entries marks a list of approval entries (R28), whose grammar the
	// editor schema checks.
	Entries bool
	// Doc is the key's meaning, the text an editor shows on hover; a key
	// of type TypeSubtable is described by the schema of its table.
	// "{want}" in it stands for Type.Want, "{default}" for Default, and
	// "{DefaultConfirm}" and "{DefaultReview}" for Kokua's built-in
	// approval pair. (The table is Go data, which a program lays out
	// without running code when it starts: Description writes these in
	// when a text is asked for.)
	Doc string
	// Default is the value Kokua uses when the key is left out, when the
	// editor schema gives it (nil: none given).
	Default any
}

// Description is Doc with Type.Want, Default and the built-in pair
// written in.
func (k *KeySchema) Description() string {
	d := strings.ReplaceAll(k.Doc, "{want}", k.Type.Want())
	if k.Default != nil {
		d = strings.ReplaceAll(d, "{default}", tomlValue(k.Default))
	}
	d = strings.ReplaceAll(d, "{DefaultConfirm}", tomlValue(DefaultConfirm))
	return strings.ReplaceAll(d, "{DefaultReview}", tomlValue(DefaultReview))
}

// tomlValue spells a default as a config file writes it.
func tomlValue(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	default:
		return fmt.Sprint(v)
	}
}

// TableSchema describes a table the linter owns. A "*" in Pattern matches
// any one key (an agent name, a reviewer name).
type TableSchema struct {
	Pattern []string
	// Doc is the table's meaning, shown on hover.
	Doc string
	// Open tables accept keys they do not list (the keys that are not about
	// tool access); closed ones refuse them (R21, R108-R110).
	Open bool
	Keys []KeySchema
	// Each is the schema of every key the table does not list, for tables
	// of tables such as [agents] and [reviewers].
	Each *KeySchema
}

// Key returns the schema of one key, or nil if the table does not list it.
func (t *TableSchema) Key(name string) *KeySchema {
	for i := range t.Keys {
		if t.Keys[i].Name == name {
			return &t.Keys[i]
		}
	}
	return t.Each
}

// Accepted lists the keys a table accepts, removed ones left out.
func (t *TableSchema) Accepted() []string {
	var out []string
	for _, k := range t.Keys {
		if !k.Removed {
			out = append(out, k.Name)
		}
	}
	return out
}

// Schema lists every table whose keys the linter checks: the tool-access
// tables of rules.md R2. Every other section of config.toml is accepted as
// valid TOML without further checks (R22). The texts are the editor
// schema's (docs/config.schema.json, written from this table by
// go generate) and the language server's hover.
var Schema = []*TableSchema{
	{Pattern: []string{"assistant"}, Open: true,
		Doc: "[assistant]: the entry point of Kokua (R2). Names the agent the user talks to; [assistant.tools] holds the default approval pair. Keys that are not about tool access (concurrent_tools, ...) are accepted unchecked.",
		Keys: []KeySchema{
			{Name: "agent", Type: TypeString, Default: DefaultEntryAgent,
				Doc: "The entry agent: the agent the user talks to and the root of the delegation graph (R2). It must name a declared [agents.<name>] table (R128). Default {default}."},
			{Name: "model", Type: TypeString,
				Doc: "The assistant's model, provider:model[@base_url][;flags] (R130). Not tool access: accepted and type-checked (R2). A reviewer running on this same model draws a warning (R144)."},
			{Name: "thinking", Type: TypeThinking,
				Doc: "Reasoning effort: {want} (R2). Not tool access. A reviewer may inherit it; it may not set its own (R143)."},
			{Name: "system_message", Type: TypeString,
				Doc: "The assistant's system message. Not tool access: accepted and type-checked (R2)."},
			{Name: "generation", Type: TypeTable,
				Doc: "[assistant.generation]: sampling settings. Not tool access, accepted unchecked (R22). Keys of [assistant] must be written before this header."},
			{Name: "tools", Type: TypeSubtable},
			{Name: "memory", Removed: true,
				Doc: "Removed (R20, R104): declare the memory and documents toolsets in an agent's [agents.<name>.tools].available instead."},
		}},
	{Pattern: []string{"assistant", "tools"},
		Doc: "[assistant.tools]: the default approval pair (R2). Every agent that writes neither confirm nor review inherits it whole, and so does every composed worker (R11, R13). Without this table Kokua's built-in pair applies; with it, a key left out is empty (R9, A2). Availability is never declared here, only per agent (R4).",
		Keys: []KeySchema{
			{Name: "confirm", Type: TypeStrings, Entries: true,
				Doc: "Default pair, first half: calls that ask you first (R2). Each entry is <toolset>, <toolset>.*, <toolset>.<tool>, core or core.<tool> (R28). Kokua's built-in value, used when [assistant.tools] is absent: {DefaultConfirm} (R9)."},
			{Name: "review", Type: TypeStrings, Entries: true,
				Doc: "Default pair, second half: calls that ask a reviewer, then you (R2); review is a gate of its own (R89). Same entry forms as confirm (R28). Kokua's built-in value, used when [assistant.tools] is absent: {DefaultReview} (R9)."},
		}},
	{Pattern: []string{"agents"}, Each: &KeySchema{Type: TypeSubtable},
		Doc: "[agents.<name>]: the declared agents, one table each (R2). Kokua needs at least one (R114); [assistant].agent names the one the user talks to."},
	{Pattern: []string{"agents", "*"},
		Doc: "[agents.<name>]: one declared agent (R2). Its keys must be written before its [agents.<name>.tools] header, or they land in that sub-table (R3).",
		Keys: []KeySchema{
			{Name: "description", Type: TypeString, Default: "",
				Doc: "The agent's label in a delegator's worker menu (R2). Default {default}."},
			{Name: "delegates_to", Type: TypeStrings, Default: []string{},
				Doc: "The agents this one may hand work to (R2). A non-empty list earns it the core tool spawn_subagent (R37). Each name must be a declared agent (R126) and the delegation graph may not cycle (R127). Default {default}."},
			{Name: "system_message", Type: TypeString,
				Doc: "The agent's system message. Not tool access: accepted and type-checked (R2)."},
			{Name: "model", Type: TypeString,
				Doc: "The agent's model, provider:model[@base_url][;flags] (R130). Not tool access: accepted and type-checked (R2)."},
			{Name: "thinking", Type: TypeThinking,
				Doc: "Reasoning effort: {want} (R2). Not tool access."},
			{Name: "max_iterations", Type: TypePosInt,
				Doc: "The most rounds the agent runs for one task: {want} (R2). Not tool access."},
			{Name: "generation", Type: TypeTable,
				Doc: "[agents.<name>.generation]: sampling settings. Not tool access, accepted unchecked (R2)."},
			{Name: "tools", Type: TypeSubtable, OldList: true},
			{Name: "groups", Removed: true,
				Doc: "Removed (R20, R104): list these names in [agents.<name>.tools].available instead."},
			{Name: "tool_packs", Removed: true,
				Doc: "Removed (R20, R104): list these names in [agents.<name>.tools].available instead."},
			{Name: "mcp_servers", Removed: true,
				Doc: "Removed (R20, R104): list the server names in [agents.<name>.tools].available instead."},
		}},
	{Pattern: []string{"agents", "*", "tools"},
		Doc: "[agents.<name>.tools]: what the agent can ever call (available), what it holds from its first turn (resident) and its own approval pair (confirm, review) (R2). A table: a [agents.<name>.tools] header or an inline table (R3); the pre-split list tools = [...] was removed (R19, R101). An agent without it holds no toolsets and inherits the default pair (R8).",
		Keys: []KeySchema{
			{Name: "available", Type: TypeAvailable, Default: []string{},
				Doc: `The toolsets this agent can ever call (R5): a list of toolset names, or exactly the lowercase string "all" for every toolset the install registers (R46), which then needs resident (R50). "all" inside a list or in another casing is refused (R47), and so is any other string (R48). Default {default} (R8, R49).`},
			{Name: "resident", Type: TypeStrings,
				Doc: `The available toolsets held from the first turn; the rest load on demand (R6). Omitted, every available toolset is resident (R58). It must be a subset of available (R59), it is required with available = "all" (R50), and [] defers everything (R62). It takes toolset names, never "all" (R7).`},
			{Name: "confirm", Type: TypeStrings, Entries: true,
				Doc: "This agent's own approval pair, first half: calls that ask you first (R2). Writing confirm or review replaces [assistant.tools]'s pair whole, and the key left out is [] (R10, R11). Entries are <toolset>, <toolset>.*, <toolset>.<tool>, core or core.<tool> (R28), naming toolsets this agent declares or core (R74, R76)."},
			{Name: "review", Type: TypeStrings, Entries: true,
				Doc: "This agent's own approval pair, second half: calls that ask a reviewer, then you (R2). Writing confirm or review replaces [assistant.tools]'s pair whole, and the key left out is [] (R10, R11). Same entry forms and scope as confirm (R28, R74, R76)."},
		}},
	{Pattern: []string{"security"},
		Doc: "[security]: the auto-approval floor and the config keys Kokua's own update_config may not change (R2).",
		Keys: []KeySchema{
			{Name: "never_auto_approve", Type: TypeStrings, Default: DefaultFloor,
				Doc: "The floor: tools no reviewer may ever answer for, the ones that grant rather than act (R86). Read only when [security.auto_approval].enabled is true; its entries then follow the approval-entry grammar (R28, R29) and no review list may reach them (R87, R125). Default {default}."},
			{Name: "locked_config_keys", Type: TypeStrings,
				Doc: "Patterns of config keys that update_config may not change (R2). Not tool access: accepted and type-checked. The approval lists are meant to be locked too, so the list should cover [assistant.tools] (A27)."},
			{Name: "auto_approval", Type: TypeSubtable},
			{Name: "confirm_tools", Removed: true,
				Doc: "Removed (R19, R102): the list was split. The default approval pair is [assistant.tools].confirm (asks you) and review (asks a reviewer, then you); an agent's own pair is [agents.<name>.tools].confirm and review."},
		}},
	{Pattern: []string{"security", "auto_approval"},
		Doc: "[security.auto_approval]: a reviewer model that may answer review-listed calls in your place (R85). While enabled is false the rest of this table and the floor are checked only for type (R145).",
		Keys: []KeySchema{
			{Name: "enabled", Type: TypeBool, Default: false,
				Doc: "Switches the reviewer on (R85). Default {default}."},
			{Name: "reviewers", Type: TypeStrings, Default: []string{},
				Doc: "The reviewers' names, each with a [reviewers.<name>] table (R141). It may not be empty while enabled is true (R140). Default {default}."},
			{Name: "timeout_seconds", Type: TypeNumber, Default: DefaultTimeoutSeconds,
				Doc: "How long a reviewer may take to answer, in seconds: {want} (R2, R105). Default {default}."},
			{Name: "max_per_turn", Type: TypeInt, Default: DefaultMaxPerTurn,
				Doc: "The most calls a reviewer may approve in one turn: {want} (R2, R105). Default {default}."},
			{Name: "tools", Removed: true,
				Doc: "Removed (R19, R103): the review lists replaced it. Move the entries to [assistant.tools].review, or to an agent's [agents.<name>.tools].review."},
		}},
	{Pattern: []string{"reviewers"}, Each: &KeySchema{Type: TypeSubtable},
		Doc: "[reviewers.<name>]: the approval reviewers that [security.auto_approval].reviewers names (R2, R141)."},
	{Pattern: []string{"reviewers", "*"},
		Doc: "[reviewers.<name>]: one approval reviewer (R2).",
		Keys: []KeySchema{
			{Name: "model", Type: TypeString,
				Doc: "The reviewer's model, provider:model[@base_url][;flags] (R130). The same model as [assistant].model draws a warning: a reviewer should not be the model it reviews (R144)."},
			{Name: "system_message", Type: TypeString,
				Doc: "The standard the reviewer judges calls against. While auto-approval is enabled and names this reviewer it must be set and not blank (R142)."},
			{Name: "thinking", Type: TypeThinking,
				Doc: "Leave unset: an approval reviewer answers through a structured call that carries no reasoning, so a truthy value is refused while auto-approval is enabled (R143). Its type is that of [agents.<name>].thinking."},
			{Name: "generation", Type: TypeTable,
				Doc: "[reviewers.<name>.generation]: sampling settings. Not tool access, accepted unchecked (R2)."},
		}},
	{Pattern: []string{"mcp"}, Open: true,
		Doc: "[mcp]: the MCP servers Kokua connects to (R2). Keys other than server and the OAuth callback settings are accepted unchecked.",
		Keys: []KeySchema{
			{Name: "server", Type: TypeTables,
				Doc: "[[mcp.server]]: one table per server, each registering a toolset under its name (R23). Written as [[mcp.server]] headers (R113)."},
			{Name: "oauth_callback_host", Type: TypeString,
				Doc: "The host of the OAuth callback. Not tool access: accepted and type-checked (R2)."},
			{Name: "oauth_callback_port", Type: TypeInt,
				Doc: "The port of the OAuth callback: {want}. Not tool access: accepted and type-checked (R2)."},
		}},
	{Pattern: []string{"mcp", "server"},
		Doc: "[[mcp.server]]: one MCP server (R113).",
		Keys: []KeySchema{
			{Name: "url", Type: TypeString,
				Doc: "The address Kokua connects to. Required (R113)."},
			{Name: "name", Type: TypeString,
				Doc: "The server's toolset name, which agents write in available. Required and not empty (R113); it may contain neither '.' nor '*', which approval entries cannot name (R18, R117), and may not be core or all, which are reserved (R16, R116)."},
			{Name: "token_env", Type: TypeString,
				Doc: "The environment variable holding a bearer token for the server (R2). Optional."},
			{Name: "description", Type: TypeString,
				Doc: `What available_tools says about the server (R93). Default "Tools from the MCP server at <url>." (R2, A21).`},
		}},
}

// SchemaFor returns the schema of the table at path, or nil.
func SchemaFor(path []string) *TableSchema {
	for _, t := range Schema {
		if matches(t.Pattern, path) {
			return t
		}
	}
	return nil
}

func matches(pattern, path []string) bool {
	if len(pattern) != len(path) {
		return false
	}
	for i, p := range pattern {
		if p != "*" && p != path[i] {
			return false
		}
	}
	return true
}

// Visit is one key of a table the schema covers, as Walk hands it over.
type Visit struct {
	Table  *TableSchema
	Node   *tomlpos.Node // the table
	Field  tomlpos.Field
	Schema *KeySchema // nil for a key the table does not list
}

// Walk calls fn for every key of every table the schema covers, in file
// order. Values of the wrong type are still visited, but not descended into.
func Walk(root *tomlpos.Node, fn func(Visit)) {
	walk(root, fn)
}

func walk(n *tomlpos.Node, fn func(Visit)) {
	for _, f := range n.Fields {
		v := f.Value
		switch {
		case v.Kind == tomlpos.KindTable:
			visitTable(v, fn)
		case isTables(v) && arrayOfTablesExpected(n.Path(), f.Name):
			for _, t := range v.Items {
				visitTable(t, fn)
			}
		}
	}
}

// arrayOfTablesExpected reports whether the schema expects [[...]] tables
// under that key; any other array of tables is a wrong type, not a table to
// check key by key.
func arrayOfTablesExpected(parent []string, key string) bool {
	ts := SchemaFor(parent)
	if ts == nil {
		return false
	}
	k := ts.Key(key)
	return k != nil && k.Type == TypeTables
}

func visitTable(t *tomlpos.Node, fn func(Visit)) {
	ts := SchemaFor(t.Path())
	if ts == nil { // a section, or a sub-table, that is not about tool access
		return
	}
	for _, f := range t.Fields {
		fn(Visit{Table: ts, Node: t, Field: f, Schema: ts.Key(f.Name)})
	}
	walk(t, fn)
}

// TablePath spells a table's path the way a config file writes its header:
// [agents.coder.tools], quoting segments that are not bare keys
// ([agents."composed:x"]). An element of an array of tables is written
// [[mcp.server]].
func TablePath(path []string) string {
	var b strings.Builder
	b.Grow(pathBytes(path) + 2)
	b.WriteByte('[')
	tomlpos.WriteDottedKey(&b, path)
	b.WriteByte(']')
	return b.String()
}

// pathBytes is room enough for the dotted key of a path whose segments
// need no escapes, the common case, so that one allocation writes it.
func pathBytes(path []string) int {
	n := 0
	for _, p := range path {
		n += len(p) + 3
	}
	return n
}

// KeyPath spells a key inside a table: [agents.coder.tools].confirm.
func KeyPath(table []string, key string) string {
	if len(table) == 2 && table[0] == "mcp" && table[1] == "server" {
		return "[[mcp.server]]." + tomlpos.QuoteKey(key)
	}
	var b strings.Builder
	b.Grow(pathBytes(table) + len(key) + 5)
	b.WriteByte('[')
	tomlpos.WriteDottedKey(&b, table)
	b.WriteString("].")
	b.WriteString(tomlpos.QuoteKey(key))
	return b.String()
}
