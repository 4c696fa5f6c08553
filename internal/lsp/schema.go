package lsp

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"
)

// The meaning of each key, shown on hover and beside completions, is the
// description the editor schema gives it: docs/config.schema.json, the
// schema Taplo-based editors read. config.schema.json here is the same
// bytes, embedded so that the server needs no checkout: go generate
// ./internal/config writes both from config.Schema, and TestSchemaCopy
// fails while the two differ.

//go:embed config.schema.json
var schemaJSON []byte

// schemaNode is the part of a JSON Schema the descriptions are found in.
type schemaNode struct {
	Ref                  string                 `json:"$ref"`
	Description          string                 `json:"description"`
	Properties           map[string]*schemaNode `json:"properties"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
	Items                *schemaNode            `json:"items"`
	Definitions          map[string]*schemaNode `json:"definitions"`

	additional *schemaNode
}

// editorSchema is the embedded schema, decoded on first use.
var editorSchema = sync.OnceValue(func() *schemaNode {
	var root schemaNode
	if err := json.Unmarshal(schemaJSON, &root); err != nil {
		panic("lsp: the embedded config.schema.json is not JSON: " + err.Error())
	}
	root.link()
	return &root
})

// link decodes additionalProperties where it is a schema rather than a
// boolean.
func (n *schemaNode) link() {
	if n == nil {
		return
	}
	if len(n.AdditionalProperties) > 0 && n.AdditionalProperties[0] == '{' {
		n.additional = &schemaNode{}
		if json.Unmarshal(n.AdditionalProperties, n.additional) == nil {
			n.additional.link()
		} else {
			n.additional = nil
		}
	}
	for _, p := range n.Properties {
		p.link()
	}
	n.Items.link()
	for _, d := range n.Definitions {
		d.link()
	}
}

// resolve follows a local $ref (#/definitions/<name>).
func (n *schemaNode) resolve(root *schemaNode) *schemaNode {
	for i := 0; n != nil && n.Ref != "" && i < 8; i++ {
		name, ok := strings.CutPrefix(n.Ref, "#/definitions/")
		if !ok {
			return n
		}
		next := root.Definitions[name]
		if next == nil {
			return n
		}
		if n.Description != "" && next.Description == "" {
			return n
		}
		n = next
	}
	return n
}

// keyDescription returns the schema's description of the key or table at
// a path of config.toml (["agents", "coder", "tools", "available"]), or
// "" when the schema does not describe it. An array of tables is walked
// through its items.
func keyDescription(path []string) string {
	root := editorSchema()
	n := root
	for _, seg := range path {
		if n.Items != nil && n.Properties == nil {
			n = n.Items
		}
		switch {
		case n.Properties[seg] != nil:
			n = n.Properties[seg]
		case n.additional != nil:
			n = n.additional
		default:
			return ""
		}
		n = n.resolve(root)
	}
	if n.Items != nil && n.Description == "" {
		n = n.Items
	}
	return n.Description
}
