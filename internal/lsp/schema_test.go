package lsp

import "testing"

// TestResolve walks resolve through each of its cases on a small schema:
// no reference, a reference that is not local or names no definition (the
// node itself), a chain, a node whose own description the definition
// lacks (kept), and a cycle, which stops after eight steps on the node an
// even number of steps away.
func TestResolve(t *testing.T) {
	root := &schemaNode{Definitions: map[string]*schemaNode{
		"plain":     {Description: "the plain definition"},
		"bare":      {Properties: map[string]*schemaNode{"x": {}}},
		"to-plain":  {Ref: "#/definitions/plain"},
		"cycle-a":   {Ref: "#/definitions/cycle-b", Description: "a"},
		"cycle-b":   {Ref: "#/definitions/cycle-a", Description: "b"},
		"to-bare":   {Ref: "#/definitions/bare"},
		"described": {Ref: "#/definitions/bare", Description: "its own words"},
	}}
	d := root.Definitions
	other := &schemaNode{Ref: "other.json#/definitions/plain"}
	missing := &schemaNode{Ref: "#/definitions/nowhere"}
	none := &schemaNode{Description: "no reference"}
	ownOverPlain := &schemaNode{Ref: "#/definitions/plain", Description: "its own words"}
	for _, c := range []struct {
		name string
		in   *schemaNode
		want *schemaNode
	}{
		{"nil", nil, nil},
		{"no reference", none, none},
		{"not a local definition", other, other},
		{"names no definition", missing, missing},
		{"one step", &schemaNode{Ref: "#/definitions/plain"}, d["plain"]},
		{"a chain", &schemaNode{Ref: "#/definitions/to-plain"}, d["plain"]},
		{"definition without a description", &schemaNode{Ref: "#/definitions/to-bare"}, d["bare"]},
		{"own description kept over a bare definition", d["described"], d["described"]},
		{"a described definition wins over its own", ownOverPlain, d["plain"]},
		{"a cycle stops after eight steps", d["cycle-a"], d["cycle-a"]},
	} {
		if got := c.in.resolve(root); got != c.want {
			t.Errorf("%s: resolve = %+v, want %+v", c.name, got, c.want)
		}
	}
}
