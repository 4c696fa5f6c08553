package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONSchemaUpToDate: the committed editor schemas are what
// config.Schema generates, byte for byte.
func TestJSONSchemaUpToDate(t *testing.T) {
	want, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		filepath.Join("..", "..", "docs", "config.schema.json"),
		filepath.Join("..", "lsp", "config.schema.json"),
	} {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what config.Schema generates (first difference at line %d): run go generate ./internal/config",
				filepath.ToSlash(path), firstDiffLine(got, want))
		}
	}
}

func firstDiffLine(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// TestJSONSchemaNeedsDocs: a table or key the editor schema describes
// without a text is refused, so that every key has a hover text.
func TestJSONSchemaNeedsDocs(t *testing.T) {
	saved := Schema
	defer func() { Schema = saved }()
	for _, c := range []struct {
		name string
		edit func(ts *TableSchema)
		want string
	}{
		{"key", func(ts *TableSchema) { ts.Keys[0].Doc = "" }, "key agents.*.description has no Doc"},
		{"removed key", func(ts *TableSchema) { ts.Keys[len(ts.Keys)-1].Doc = "" }, "key agents.*.mcp_servers has no Doc"},
		{"table", func(ts *TableSchema) { ts.Doc = "" }, "table agents.* has no Doc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			Schema = make([]*TableSchema, len(saved))
			for i, ts := range saved {
				cp := *ts
				cp.Keys = append([]KeySchema(nil), ts.Keys...)
				Schema[i] = &cp
			}
			c.edit(schemaAt([]string{"agents", "*"}))
			if _, err := JSONSchema(); err == nil || err.Error() != c.want {
				t.Errorf("JSONSchema() error = %v, want %q", err, c.want)
			}
		})
	}
}

// TestKeyDescription: {want} and {default} are written in, as a config
// file spells the value.
func TestKeyDescription(t *testing.T) {
	for _, c := range []struct {
		k    KeySchema
		want string
	}{
		{KeySchema{Type: TypePosInt, Doc: "n: {want}."}, "n: an integer of at least 1."},
		{KeySchema{Type: TypeThinking, Doc: "{want}"}, `true, false, "low", "medium" or "high"`},
		{KeySchema{Type: TypeString, Doc: "Default {default}.", Default: ""}, `Default "".`},
		{KeySchema{Type: TypeStrings, Doc: "Default {default}.", Default: []string{}}, "Default []."},
		{KeySchema{Type: TypeStrings, Doc: "Default {default}.", Default: []string{"a.b", "c"}}, `Default ["a.b", "c"].`},
		{KeySchema{Type: TypeBool, Doc: "Default {default}.", Default: false}, "Default false."},
		{KeySchema{Type: TypeNumber, Doc: "Default {default}.", Default: 10}, "Default 10."},
	} {
		if got := c.k.Description(); got != c.want {
			t.Errorf("%q: got %q, want %q", c.k.Doc, got, c.want)
		}
	}
}
