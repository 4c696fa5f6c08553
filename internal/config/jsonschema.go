package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kokua-policy/kokua-policy/kokua"
)

// The editor schema, docs/config.schema.json, is written from Schema by
// JSONSchema; internal/lsp/config.schema.json is the same bytes, embedded for the
// language server's hover texts. Run go generate ./internal/config after
// changing Schema or this file; TestJSONSchemaUpToDate fails until then.
//
//go:generate go run ./schemagen ../../docs/config.schema.json ../lsp/config.schema.json

// The rest of the editor schema: what JSON Schema checks that the table
// walk of Schema does not (the facts of rules that need only the file),
// the sections Kokua removed that hold no table Schema lists, and the
// named definitions the keys refer to.

const (
	schemaTitle = "Kokua config.toml: the tool-access tables"
	schemaDoc   = `The tables of Kokua's config.toml that decide tool access (R2 in docs/semantics.md): [assistant], [assistant.tools], [agents.<name>], [agents.<name>.tools], [security], [security.auto_approval], [reviewers.<name>] and [[mcp.server]]. Every other section is accepted as written (R22). This schema checks types, keys, removed keys, the "all" spelling and the grammar of approval entries; whether a toolset or tool exists, entry scope, overlaps and dead entries need the registry, which only kokua-lint sees. docs/editor.md says how to wire it into an editor.`
)

// definitions are the named schemas keys refer to ($ref).
var definitions = sync.OnceValue(func() obj {
	return obj{
		{"entry", obj{
			{"description", "An approval entry (R28): <toolset> or <toolset>.* (every tool of the toolset, now and as it grows), <toolset>.<tool> (exactly that tool), core or core.<tool> (the tools no toolset provides, R36). At most one '.'; '*' only as the whole tool segment; no empty segment (R29). Bare tool names and unknown toolsets are kokua-lint's to find (R30, R31)."},
			{"type", "string"},
			{"pattern", `^[^.*]+(\.(\*|[^.*]+))?$`},
		}},
		{"toolsetName", obj{
			{"description", `A toolset name, from the registry: Kokua's own, a plugin, a skill or an MCP server (R16). "all" is no name: write available = "all" instead of a list (R47).`},
			{"type", "string"},
			{"not", obj{{"pattern", "^[aA][lL][lL]$"}}},
		}},
		{"perAgentOnly", hidden("Not a key of [assistant.tools], which holds only the default approval pair: availability and residency are declared per agent, in [agents.<name>.tools] (R4, R109).")},
		{"agentKeyBelowTools", hidden("A key of [agents.<name>], not of [agents.<name>.tools]: keys written after the [agents.<name>.tools] header belong to that sub-table, so write [agents.<name>]'s keys before it (R3, R108).")},
	}
})

// removedSections are the top-level sections Kokua removed (R20, R104),
// which Schema does not list because the linter checks no keys of theirs.
var removedSections = sync.OnceValue(func() obj {
	return obj{
		{"tools", hidden("Removed (R20, R104): the top-level [tools] section. Each agent declares its toolsets in [agents.<name>.tools].available.")},
		{"subagents", obj{
			{"description", "[subagents], from before agents were declared whole. Its concurrent key and its roles tables were removed (R20, R104); other keys are not checked."},
			{"properties", obj{
				{"concurrent", hidden("Removed (R20, R104): it is now [assistant].concurrent_tools.")},
				{"roles", obj{
					{"description", "Removed (R20, R104): declare each agent whole in its own [agents.<name>] table instead of [subagents.roles.<name>]."},
					{"not", obj{{"type", "object"}, {"minProperties", 1}}}, // an empty [subagents.roles] is harmless
					{"x-taplo", obj{{"hidden", true}}},
				}},
			}},
		}},
	}
})

// tableCheck is what the schema of a table checks beyond its keys' types.
type tableCheck struct {
	head     obj      // after "type": checks of the table's keys as a whole
	required []string // keys it must hold
	tail     obj      // after "properties": checks across keys
}

// tableChecks are the table checks by the table's pattern. They and
// keyChecks are built when JSONSchema first needs them, not at every
// start of kokua-lint (issue 24).
var tableChecks = sync.OnceValue(func() map[string]tableCheck {
	return map[string]tableCheck{
		"": {required: []string{"agents"}}, // R114
		"agents": {head: obj{
			{"minProperties", 1}, // R114
			{"propertyNames", obj{
				{"description", "An agent name may not contain ':' or '[': gate labels use them to tell a declared agent from a composed worker (composed:<label>) and from the default tier (R15, R112)."},
				{"pattern", `^[^:\[]*$`},
			}},
		}},
		"agents.*.tools": {tail: obj{ // R50
			{"if", obj{
				{"properties", obj{{"available", obj{{"const", kokua.All}}}}},
				{"required", []string{"available"}},
			}},
			{"then", obj{{"required", []string{"resident"}}}},
		}},
		"security": {tail: obj{ // R86, R145: the floor is read only while auto-approval is on
			{"if", obj{
				{"properties", obj{{"auto_approval", obj{
					{"type", "object"},
					{"properties", obj{{"enabled", obj{{"const", true}}}}},
					{"required", []string{"enabled"}},
				}}}},
				{"required", []string{"auto_approval"}},
			}},
			{"then", obj{{"properties", obj{{"never_auto_approve", obj{{"items", ref("entry")}}}}}}},
		}},
		"mcp.server": {required: []string{"url", "name"}}, // R113
	}
})

// keyChecks are what the schema of a key checks beyond its type, by
// "<table pattern>.<key>".
var keyChecks = sync.OnceValue(func() map[string]obj {
	return map[string]obj{
		"mcp.server.name": { // R113, R117, R116
			{"minLength", 1},
			{"pattern", "^[^.*]+$"},
			{"not", obj{{"enum", []string{kokua.Core, kokua.All}}}},
		},
	}
})

// JSONSchema returns the editor schema (JSON Schema draft-07) of the
// tool-access tables, as docs/config.schema.json holds it.
func JSONSchema() ([]byte, error) {
	root, err := tableJSON(nil)
	if err != nil {
		return nil, err
	}
	props := root.get("properties").(obj)
	root = root.set("properties", append(props, removedSections()...))
	doc := append(obj{
		{"$schema", "http://json-schema.org/draft-07/schema#"},
		{"title", schemaTitle},
		{"description", schemaDoc},
	}, root...)
	doc = append(doc, member{"definitions", definitions()})
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// tableJSON is the schema of the table at pattern (nil: the file), with
// its description first when it has one.
func tableJSON(pattern []string) (obj, error) {
	name := strings.Join(pattern, ".")
	var ts *TableSchema
	if pattern != nil {
		if ts = schemaAt(pattern); ts == nil {
			return nil, fmt.Errorf("no table %s in Schema", name)
		}
		if ts.Doc == "" {
			return nil, fmt.Errorf("table %s has no Doc", name)
		}
	}
	var o obj
	if ts != nil {
		o = append(o, member{"description", ts.Doc})
	}
	o = append(o, member{"type", "object"})
	checks := tableChecks()[name]
	o = append(o, checks.head...)
	switch {
	case ts == nil || ts.Open:
	case ts.Each != nil:
		each, err := tableJSON(append(slices.Clip(pattern), "*"))
		if err != nil {
			return nil, err
		}
		o = append(o, member{"additionalProperties", each})
	default:
		o = append(o, member{"additionalProperties", false})
	}
	if checks.required != nil {
		o = append(o, member{"required", checks.required})
	}
	var props obj
	if ts == nil { // the file: every top-level table Schema lists
		for _, t := range Schema {
			if len(t.Pattern) == 1 {
				p, err := tableJSON(t.Pattern)
				if err != nil {
					return nil, err
				}
				props = append(props, member{t.Pattern[0], p})
			}
		}
	} else {
		for i := range ts.Keys {
			p, err := keyJSON(pattern, &ts.Keys[i])
			if err != nil {
				return nil, err
			}
			props = append(props, member{ts.Keys[i].Name, p})
		}
		props = append(props, misplacedKeys(pattern)...)
	}
	if props != nil {
		o = append(o, member{"properties", props})
	}
	return append(o, checks.tail...), nil
}

// misplacedKeys are keys a table refuses that belong to another table,
// each pointing at a definition that says where: the keys of
// [agents.<name>] under its tools header (R108), and the per-agent keys
// of [agents.<name>.tools] in [assistant.tools] (R109).
func misplacedKeys(pattern []string) obj {
	var out obj
	switch strings.Join(pattern, ".") {
	case "assistant.tools":
		def := schemaAt([]string{"assistant", "tools"})
		for _, k := range schemaAt([]string{"agents", "*", "tools"}).Accepted() {
			if def.Key(k) == nil {
				out = append(out, member{k, ref("perAgentOnly")})
			}
		}
	case "agents.*.tools":
		for _, k := range schemaAt([]string{"agents", "*"}).Accepted() {
			if k != "tools" {
				out = append(out, member{k, ref("agentKeyBelowTools")})
			}
		}
	}
	return out
}

// keyJSON is the schema of one key of the table at pattern.
func keyJSON(pattern []string, k *KeySchema) (obj, error) {
	path := strings.Join(append(slices.Clip(pattern), k.Name), ".")
	if k.Type == TypeSubtable && !k.Removed {
		return tableJSON(append(slices.Clip(pattern), k.Name))
	}
	if k.Doc == "" {
		return nil, fmt.Errorf("key %s has no Doc", path)
	}
	if k.Removed {
		return hidden(k.Description()), nil
	}
	o := obj{{"description", k.Description()}}
	switch k.Type {
	case TypeString:
		o = append(o, member{"type", "string"})
	case TypeStrings:
		items := obj{{"type", "string"}}
		if k.Entries {
			items = ref("entry")
		}
		o = append(o, member{"type", "array"}, member{"items", items})
	case TypeBool:
		o = append(o, member{"type", "boolean"})
	case TypeInt:
		o = append(o, member{"type", "integer"})
	case TypePosInt:
		o = append(o, member{"type", "integer"}, member{"minimum", 1})
	case TypeNumber:
		o = append(o, member{"type", "number"})
	case TypeTable:
		o = append(o, member{"type", "object"})
	case TypeTables:
		items, err := tableJSON(append(slices.Clip(pattern), k.Name))
		if err != nil {
			return nil, err
		}
		// No minItems: an empty static array (server = []) is a list
		// of no tables to Python's tomllib, and Kokua registers none.
		o = append(o, member{"type", "array"}, member{"items", items})
	case TypeAvailable:
		o = append(o, member{"anyOf", []obj{
			{
				{"description", "Every toolset the install registers, in trust order (R46, R51). Needs a resident list (R50)."},
				{"const", kokua.All},
			},
			{
				{"description", `Toolset names. "all" is a value of its own, never a name in the list (R47).`},
				{"type", "array"},
				{"items", ref("toolsetName")},
			},
		}})
	case TypeThinking:
		enum := []any{true, false}
		for _, l := range ThinkingLevels {
			enum = append(enum, l)
		}
		o = append(o, member{"enum", enum})
	default:
		return nil, fmt.Errorf("key %s: no JSON Schema for its type", path)
	}
	o = append(o, keyChecks()[path]...)
	if k.Default != nil {
		o = append(o, member{"default", k.Default})
	}
	return o, nil
}

// schemaAt returns the table whose pattern is exactly pattern.
func schemaAt(pattern []string) *TableSchema {
	for _, t := range Schema {
		if slices.Equal(t.Pattern, pattern) {
			return t
		}
	}
	return nil
}

// hidden is the schema of a key Kokua refuses: any value fails, the
// description says why, and Taplo leaves it out of completion.
func hidden(doc string) obj {
	return obj{{"description", doc}, {"not", obj{}}, {"x-taplo", obj{{"hidden", true}}}}
}

func ref(def string) obj { return obj{{"$ref", "#/definitions/" + def}} }

// obj is a JSON object whose members are written in the order given, so
// that the generated file is the same on every run.
type obj []member

type member struct {
	key string
	val any
}

func (o obj) get(key string) any {
	for _, m := range o {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

func (o obj) set(key string, val any) obj {
	for i := range o {
		if o[i].key == key {
			o[i].val = val
		}
	}
	return o
}

// MarshalJSON writes the members in order, with no HTML escaping (the
// texts hold <name>).
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(m.key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Encode(m.val); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
