package config

import (
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
	TypeThinking:  `true, false, "low", "medium" or "high"`,
}

// Want says in words what a value of type t must be.
func (t Type) Want() string { return typeWants[t] }

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
		return n.Kind == tomlpos.KindArray && n.ArrayOfTables
	case TypeAvailable:
		return n.Kind == tomlpos.KindString || isStrings(n)
	case TypeThinking:
		return n.Kind == tomlpos.KindBool || n.Kind == tomlpos.KindString && (n.Str == "low" || n.Str == "medium" || n.Str == "high")
	}
	return false
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
}

// TableSchema describes a table the linter owns. A "*" in Pattern matches
// any one key (an agent name, a reviewer name).
type TableSchema struct {
	Pattern []string
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
// valid TOML without further checks (R22).
var Schema = []*TableSchema{
	{Pattern: []string{"assistant"}, Open: true, Keys: []KeySchema{
		{Name: "agent", Type: TypeString},
		{Name: "tools", Type: TypeSubtable},
		{Name: "model", Type: TypeString},
		{Name: "thinking", Type: TypeThinking},
		{Name: "system_message", Type: TypeString},
		{Name: "generation", Type: TypeTable},
	}},
	{Pattern: []string{"assistant", "tools"}, Keys: []KeySchema{
		{Name: "confirm", Type: TypeStrings},
		{Name: "review", Type: TypeStrings},
	}},
	{Pattern: []string{"agents"}, Each: &KeySchema{Type: TypeSubtable}},
	{Pattern: []string{"agents", "*"}, Keys: []KeySchema{
		{Name: "description", Type: TypeString},
		{Name: "delegates_to", Type: TypeStrings},
		{Name: "system_message", Type: TypeString},
		{Name: "model", Type: TypeString},
		{Name: "thinking", Type: TypeThinking},
		{Name: "max_iterations", Type: TypePosInt},
		{Name: "generation", Type: TypeTable},
		{Name: "tools", Type: TypeSubtable, OldList: true},
		{Name: "groups", Removed: true},
		{Name: "tool_packs", Removed: true},
		{Name: "mcp_servers", Removed: true},
	}},
	{Pattern: []string{"agents", "*", "tools"}, Keys: []KeySchema{
		{Name: "available", Type: TypeAvailable},
		{Name: "resident", Type: TypeStrings},
		{Name: "confirm", Type: TypeStrings},
		{Name: "review", Type: TypeStrings},
	}},
	{Pattern: []string{"security"}, Keys: []KeySchema{
		{Name: "never_auto_approve", Type: TypeStrings},
		{Name: "locked_config_keys", Type: TypeStrings},
		{Name: "auto_approval", Type: TypeSubtable},
		{Name: "confirm_tools", Removed: true},
	}},
	{Pattern: []string{"security", "auto_approval"}, Keys: []KeySchema{
		{Name: "enabled", Type: TypeBool},
		{Name: "reviewers", Type: TypeStrings},
		{Name: "timeout_seconds", Type: TypeNumber},
		{Name: "max_per_turn", Type: TypeInt},
		{Name: "tools", Removed: true},
	}},
	{Pattern: []string{"reviewers"}, Each: &KeySchema{Type: TypeSubtable}},
	{Pattern: []string{"reviewers", "*"}, Keys: []KeySchema{
		{Name: "model", Type: TypeString},
		{Name: "system_message", Type: TypeString},
		{Name: "thinking", Type: TypeThinking},
		{Name: "generation", Type: TypeTable},
	}},
	{Pattern: []string{"mcp"}, Open: true, Keys: []KeySchema{
		{Name: "server", Type: TypeTables},
		{Name: "oauth_callback_host", Type: TypeString},
		{Name: "oauth_callback_port", Type: TypeInt},
	}},
	{Pattern: []string{"mcp", "server"}, Keys: []KeySchema{
		{Name: "url", Type: TypeString},
		{Name: "name", Type: TypeString},
		{Name: "token_env", Type: TypeString},
		{Name: "description", Type: TypeString},
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
		case v.ArrayOfTables && arrayOfTablesExpected(n.Path(), f.Name):
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
	return "[" + tomlpos.DottedKey(path) + "]"
}

// KeyPath spells a key inside a table: [agents.coder.tools].confirm.
func KeyPath(table []string, key string) string {
	if len(table) == 2 && table[0] == "mcp" && table[1] == "server" {
		return "[[mcp.server]]." + tomlpos.QuoteKey(key)
	}
	return TablePath(table) + "." + tomlpos.QuoteKey(key)
}
