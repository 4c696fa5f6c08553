package compile_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// schemaPath is the schema as shipped in docs/, read from the file itself
// so that the tests check the published schema and not a copy of it.
var schemaPath = filepath.Join("..", "docs", "policy.schema.json")

// schemaLoad compiles docs/policy.schema.json. Compiling also checks the
// schema against the draft 2020-12 meta-schema.
func schemaLoad(t *testing.T) *jsonschema.Schema {
	t.Helper()
	abs, err := filepath.Abs(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	sch, err := jsonschema.NewCompiler().Compile(abs)
	if err != nil {
		t.Fatalf("%s does not compile as a JSON Schema: %v", schemaPath, err)
	}
	return sch
}

// schemaRaw is the schema file decoded as plain JSON, for the tests that
// read the schema itself.
func schemaRaw(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", schemaPath, err)
	}
	return raw
}

// schemaValidate validates one policy document given as bytes.
func schemaValidate(sch *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// schemaCompile lints a config against a manifest (nil for the embedded
// default install) and compiles it as kokua-compile does. ok is false when
// the config has errors, and so is never compiled.
func schemaCompile(t *testing.T, cfgName string, cfg []byte, manifestName string, manifest []byte) (doc []byte, ok bool) {
	t.Helper()
	m := lint.DefaultManifest()
	if manifest != nil {
		m = lint.LoadManifest(lint.Source{Name: manifestName, Data: manifest})
	}
	res := engine.Run(lint.Source{Name: cfgName, Data: cfg}, m)
	if res.HasErrors() || res.World == nil {
		return nil, false
	}
	out, err := policy.Marshal(engine.Compile(res.World,
		engine.Source{Name: cfgName, Data: cfg}, engine.Source{Name: m.Source.Name, Data: m.Source.Data}))
	if err != nil {
		t.Fatalf("%s: %v", cfgName, err)
	}
	return out, true
}

// schemaCompileDir compiles a folder's config.toml with its manifest.json,
// or the embedded default install when it has none.
func schemaCompileDir(t *testing.T, dir string) ([]byte, bool) {
	t.Helper()
	cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return schemaCompile(t, "config.toml", cfg, "manifest.json", manifest)
}

// schemaSizedManifest gives a spec size for every tool, core tools
// included, so that the policy carries a tool_block object (R192-R195).
const schemaSizedManifest = `{
  "manifest_version": 1,
  "source": "written for the schema test: every tool has a size",
  "toolsets": [
    {"name": "time", "kind": "kokua", "description": "Tell and convert the time.",
     "tools": [{"name": "get_current_date_and_time", "spec_bytes": 120}, {"name": "convert_time", "spec_bytes": 180}]},
    {"name": "compute", "kind": "kokua", "description": "Evaluate arithmetic, run Python, and run shell commands.",
     "tools": [{"name": "calculate", "spec_bytes": 90}, {"name": "execute_python", "spec_bytes": 300}, {"name": "run_command", "spec_bytes": 260}]}
  ],
  "core_tools": [{"name": "spawn_subagent", "spec_bytes": 400}, {"name": "available_tools", "spec_bytes": 70},
                 {"name": "load_tools", "spec_bytes": 110}]
}`

const schemaSizedConfig = `# R192-R195: the tool block, measured from the manifest's spec sizes.
[assistant]
agent = "assistant"

[assistant.tools]
confirm = ["compute.run_command"]
review = []

[agents.assistant]
delegates_to = ["coder"]

[agents.assistant.tools]
available = ["time", "compute"]
resident = ["time"]

[agents.coder.tools]
available = ["compute", "time"]
`

// schemaBuiltinPairConfig writes no [assistant.tools], so the built-in
// default pair applies (R9, A2), and enables auto-approval without writing
// never_auto_approve, so the built-in floor is read (R86).
const schemaBuiltinPairConfig = `# R9, R86: the built-in default pair and the built-in floor, read.
[assistant]
agent = "assistant"

[agents.assistant]
delegates_to = ["coder"]

[agents.assistant.tools]
available = ["config", "skills", "mcp", "time"]
resident = ["config", "time"]

[agents.coder.tools]
available = ["compute", "fs", "fs_write"]

[security.auto_approval]
enabled = true
reviewers = ["approval"]

[reviewers.approval]
model = "anthropic:claude-haiku-4-5"
system_message = "Approve routine file writes and commands; refuse anything destructive."
`

// schemaDoc is one policy the schema must accept.
type schemaDoc struct {
	name string
	data []byte
}

// schemaAccepted gathers every policy the schema must accept: the shipped
// config's, every golden want.json of testdata/compile, the policy of
// every lint case that lints without errors, and the inline cases above.
func schemaAccepted(t *testing.T) []schemaDoc {
	t.Helper()
	var docs []schemaDoc

	shipped, ok := schemaCompileDir(t, filepath.Join("..", "testdata", "lint", "shipped"))
	if !ok {
		t.Fatal("testdata/lint/shipped/config.toml does not lint clean")
	}
	docs = append(docs, schemaDoc{"shipped", shipped})

	wants, err := filepath.Glob(filepath.Join("..", "testdata", "compile", "*", "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(wants) == 0 {
		t.Errorf("no testdata/compile/*/want.json: the golden policies are the schema's first inputs")
	}
	for _, path := range wants {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, schemaDoc{"golden/" + filepath.Base(filepath.Dir(path)), data})
	}

	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "lint", "*"))
	if err != nil {
		t.Fatal(err)
	}
	clean := 0
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "config.toml")); err != nil {
			continue
		}
		if data, ok := schemaCompileDir(t, dir); ok {
			clean++
			docs = append(docs, schemaDoc{"lint/" + filepath.Base(dir), data})
		}
	}
	if clean < 10 {
		t.Errorf("only %d lint cases compile; the schema needs more inputs than that", clean)
	}

	for _, c := range []struct{ name, cfg, manifest string }{
		{"inline/sized-tool-block", schemaSizedConfig, schemaSizedManifest},
		{"inline/builtin-pair-and-floor", schemaBuiltinPairConfig, ""},
	} {
		var manifest []byte
		if c.manifest != "" {
			manifest = []byte(c.manifest)
		}
		data, ok := schemaCompile(t, "config.toml", []byte(c.cfg), "manifest.json", manifest)
		if !ok {
			t.Fatalf("%s: the config does not lint clean", c.name)
		}
		docs = append(docs, schemaDoc{c.name, data})
	}
	return docs
}

// TestSchemaAcceptsPolicies validates every policy the compiler writes
// for the test inputs, and checks that together they reach every branch
// of the schema that matters (nullable members, every status and source),
// so that a schema too loose in a corner would still be exercised.
func TestSchemaAcceptsPolicies(t *testing.T) {
	sch := schemaLoad(t)
	seen := map[string]bool{}
	for _, d := range schemaAccepted(t) {
		if err := schemaValidate(sch, d.data); err != nil {
			t.Errorf("%s: the schema refuses the compiled policy:\n%v", d.name, err)
		}
		if _, err := policy.Parse(d.name, d.data); err != nil {
			t.Errorf("%s: the runtime refuses the compiled policy: %v", d.name, err)
		}
		var doc policy.Document
		if err := json.Unmarshal(d.data, &doc); err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		schemaCover(&doc, seen)
	}
	want := []string{
		"status resolved", "status pending", "status inactive", "position null", "position set",
		"default_tier declared", "default_tier builtin", "approval declared", "approval inherited",
		"floor active", "floor inactive", "available all", "available list", "tool_block set",
		"tool_block null", "spec_bytes set", "spec_bytes null", "names_line set", "names_line null",
		"shadowed", "skills", "load_refusal", "kind kokua", "kind plugin", "kind skill", "kind mcp",
		"unreachable agent",
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no test input has %s: the schema's branch for it is never exercised", w)
		}
	}
}

// schemaCover notes which corners of the document one policy reaches.
func schemaCover(d *policy.Document, seen map[string]bool) {
	lists := []policy.List{d.Floor.List, d.DefaultTier.Confirm, d.DefaultTier.Review}
	seen["default_tier "+string(d.DefaultTier.Source)] = true
	seen[map[bool]string{true: "floor active", false: "floor inactive"}[d.Floor.Active]] = true
	for _, ts := range d.Toolsets {
		seen["kind "+ts.Kind] = true
		if ts.LoadRefusal != "" {
			seen["load_refusal"] = true
		}
		for _, tool := range ts.Tools {
			seen[map[bool]string{true: "spec_bytes set", false: "spec_bytes null"}[tool.SpecBytes != nil]] = true
		}
	}
	for _, a := range d.Agents {
		if a.Approval.Confirm != nil && a.Approval.Review != nil {
			lists = append(lists, *a.Approval.Confirm, *a.Approval.Review)
		}
		seen["approval "+string(a.Approval.Source)] = true
		seen[map[bool]string{true: "available all", false: "available list"}[a.Available.All]] = true
		seen[map[bool]string{true: "tool_block set", false: "tool_block null"}[a.ToolBlock != nil]] = true
		seen[map[bool]string{true: "names_line set", false: "names_line null"}[a.NamesLine != nil]] = true
		if len(a.Shadowed) > 0 {
			seen["shadowed"] = true
		}
		if len(a.Skills) > 0 {
			seen["skills"] = true
		}
		if !a.Reachable {
			seen["unreachable agent"] = true
		}
	}
	for _, l := range lists {
		for _, e := range l.Entries {
			seen["status "+e.Status] = true
			seen[map[bool]string{true: "position set", false: "position null"}[e.Position != nil]] = true
		}
	}
}

// TestSchemaRejects makes sure the schema is not vacuous: a policy broken
// in any one of these ways must fail validation.
func TestSchemaRejects(t *testing.T) {
	sch := schemaLoad(t)
	shipped, ok := schemaCompileDir(t, filepath.Join("..", "testdata", "lint", "shipped"))
	if !ok {
		t.Fatal("testdata/lint/shipped/config.toml does not lint clean")
	}
	if err := schemaValidate(sch, shipped); err != nil {
		t.Fatalf("the unbroken shipped policy must pass first: %v", err)
	}
	entry := func(d map[string]any) map[string]any {
		return schemaAt(d, "default_tier", "confirm", "entries", 0).(map[string]any)
	}
	cases := []struct {
		name   string
		mutate func(d map[string]any)
	}{
		{"policy_version 2", func(d map[string]any) { d["policy_version"] = 2 }},
		{"policy_version as a string", func(d map[string]any) { d["policy_version"] = "1" }},
		{"no agents", func(d map[string]any) { delete(d, "agents") }},
		{"no digest", func(d map[string]any) { delete(d, "digest") }},
		{"digest in upper case", func(d map[string]any) { d["digest"] = strings.ToUpper(d["digest"].(string)) }},
		{"entry status bogus", func(d map[string]any) { entry(d)["status"] = "bogus" }},
		{"unknown top-level member", func(d map[string]any) { d["comment"] = "hand-edited" }},
		{"unknown member of an agent", func(d map[string]any) {
			schemaAt(d, "agents", "coder").(map[string]any)["colour"] = "blue"
		}},
		{"unknown member of an entry", func(d map[string]any) { entry(d)["list"] = "confirm" }},
		{"entry without tools_when_built", func(d map[string]any) { delete(entry(d), "tools_when_built") }},
		{"pending entry that gates tools now", func(d map[string]any) {
			entry(d)["tools"] = []any{"add_skill_script"} // the first default confirm entry is pending
		}},
		{"resolved entry with tools_when_built", func(d map[string]any) {
			e := schemaAt(d, "default_tier", "confirm", "entries", 2).(map[string]any)
			e["tools_when_built"] = []any{"update_config"}
		}},
		{"written entry without a position", func(d map[string]any) { entry(d)["position"] = nil }},
		{"position column 0", func(d map[string]any) { entry(d)["position"].(map[string]any)["column"] = 0 }},
		{"unread floor entry resolved", func(d map[string]any) {
			schemaAt(d, "floor", "list", "entries", 0).(map[string]any)["status"] = "resolved"
		}},
		{"approval source builtin", func(d map[string]any) {
			schemaAt(d, "agents", "coder", "approval").(map[string]any)["source"] = "builtin"
		}},
		{"inherited pair naming an agent's table", func(d map[string]any) {
			schemaAt(d, "agents", "coder", "approval").(map[string]any)["table"] = "[agents.coder.tools]"
		}},
		{"default tier with another label", func(d map[string]any) { schemaAt(d, "default_tier").(map[string]any)["label"] = "default" }},
		{"toolset kind builtin", func(d map[string]any) { schemaAt(d, "toolsets", "time").(map[string]any)["kind"] = "builtin" }},
		{"toolset named core", func(d map[string]any) {
			ts := d["toolsets"].(map[string]any)
			ts["core"] = ts["time"]
		}},
		{"agent name with a colon", func(d map[string]any) {
			ag := d["agents"].(map[string]any)
			ag["composed:x"] = ag["coder"]
		}},
		{"toolset tool carrying its toolset", func(d map[string]any) {
			schemaAt(d, "toolsets", "time", "tools", 0).(map[string]any)["toolset"] = "time"
		}},
		{"agent tool without its toolset", func(d map[string]any) {
			delete(schemaAt(d, "agents", "coder", "tools", 0).(map[string]any), "toolset")
		}},
		{"names_line while nothing is deferred", func(d map[string]any) {
			schemaAt(d, "agents", "coder").(map[string]any)["names_line"] = "Also available, load before use: web."
		}},
		{"no names_line while something is deferred", func(d map[string]any) {
			schemaAt(d, "agents", "assistant").(map[string]any)["names_line"] = nil
		}},
		{"negative spec_bytes", func(d map[string]any) {
			schemaAt(d, "agents", "coder", "tools", 0).(map[string]any)["spec_bytes"] = -1
		}},
		{"unknown core tool", func(d map[string]any) { d["core_tools"] = []any{"spawn_subagent", "run_everything"} }},
		{"composed tier elsewhere", func(d map[string]any) { schemaAt(d, "composed").(map[string]any)["tier"] = "agents.coder" }},
		{"declared availability null on a list agent", func(d map[string]any) {
			schemaAt(d, "agents", "coder", "available").(map[string]any)["declared"] = nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d map[string]any
			if err := json.Unmarshal(shipped, &d); err != nil {
				t.Fatal(err)
			}
			c.mutate(d)
			data, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			if err := schemaValidate(sch, data); err == nil {
				t.Errorf("the schema accepts a policy with %s", c.name)
			}
		})
	}
}

// schemaAt walks a decoded document by member names and array indexes.
func schemaAt(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v
}

// TestSchemaMatchesDocumentTypes walks policy.Document and the schema side
// by side: every member the Go encoder writes is a property of the schema
// and the other way round, a member is required exactly when the encoder
// always writes it (no omitempty), every object refuses other members, and
// each member's JSON type is one the schema admits.
func TestSchemaMatchesDocumentTypes(t *testing.T) {
	w := &schemaWalker{t: t, root: schemaRaw(t)}
	w.value(reflect.TypeOf(policy.Document{}), w.root, "$")
}

type schemaWalker struct {
	t    *testing.T
	root map[string]any
}

// deref follows $ref to a $defs member of the root.
func (w *schemaWalker) deref(node map[string]any) map[string]any {
	for i := 0; i < 16; i++ {
		ref, ok := node["$ref"].(string)
		if !ok {
			return node
		}
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok {
			w.t.Fatalf("unexpected $ref %q", ref)
		}
		next, ok := w.root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok {
			w.t.Fatalf("$ref %q names no $defs member", ref)
		}
		node = next
	}
	w.t.Fatal("$ref chain too long")
	return nil
}

// branches is a schema node's alternatives: its oneOf or anyOf members, or
// itself.
func (w *schemaWalker) branches(node map[string]any) []map[string]any {
	node = w.deref(node)
	for _, key := range []string{"oneOf", "anyOf"} {
		if alts, ok := node[key].([]any); ok {
			var out []map[string]any
			for _, a := range alts {
				out = append(out, w.branches(a.(map[string]any))...)
			}
			return out
		}
	}
	return []map[string]any{node}
}

// jsonTypes lists the JSON types a schema node admits.
func (w *schemaWalker) jsonTypes(node map[string]any) map[string]bool {
	types := map[string]bool{}
	for _, b := range w.branches(node) {
		switch ty := b["type"].(type) {
		case string:
			types[ty] = true
		case []any:
			for _, x := range ty {
				types[x.(string)] = true
			}
		}
		var values []any
		if c, ok := b["const"]; ok {
			values = append(values, c)
		}
		if e, ok := b["enum"].([]any); ok {
			values = append(values, e...)
		}
		for _, v := range values {
			switch v.(type) {
			case string:
				types["string"] = true
			case float64:
				types["number"] = true
				types["integer"] = true
			case bool:
				types["boolean"] = true
			}
		}
	}
	return types
}

// only returns the single non-null branch of a node that has the given
// JSON type.
func (w *schemaWalker) only(node map[string]any, jsonType, path string) map[string]any {
	var found map[string]any
	for _, b := range w.branches(node) {
		if b["type"] == jsonType {
			if found != nil {
				w.t.Errorf("%s: two %s branches", path, jsonType)
			}
			found = b
		}
	}
	if found == nil {
		w.t.Errorf("%s: the schema admits no %s here", path, jsonType)
	}
	return found
}

func (w *schemaWalker) value(ty reflect.Type, node map[string]any, path string) {
	nullable := w.jsonTypes(node)["null"]
	if ty.Kind() == reflect.Pointer {
		if !nullable {
			w.t.Errorf("%s: the encoder may write null here but the schema does not admit it", path)
		}
		ty = ty.Elem()
	}
	want := map[reflect.Kind]string{reflect.String: "string", reflect.Bool: "boolean", reflect.Int: "integer",
		reflect.Float64: "number", reflect.Struct: "object", reflect.Map: "object", reflect.Slice: "array"}[ty.Kind()]
	if want == "" {
		w.t.Fatalf("%s: unexpected Go kind %s", path, ty.Kind())
	}
	types := w.jsonTypes(node)
	if !types[want] && !(want == "integer" && types["number"]) {
		w.t.Errorf("%s: Go writes %s, the schema admits %v", path, want, schemaKeys(types))
		return
	}
	switch ty.Kind() {
	case reflect.Slice:
		if arr := w.only(node, "array", path); arr != nil {
			items, _ := arr["items"].(map[string]any)
			if items == nil {
				w.t.Errorf("%s: array without items", path)
				return
			}
			w.value(ty.Elem(), items, path+"[]")
		}
	case reflect.Map:
		if obj := w.only(node, "object", path); obj != nil {
			if _, ok := obj["propertyNames"]; !ok {
				w.t.Errorf("%s: a map's names are not constrained", path)
			}
			elem, _ := obj["additionalProperties"].(map[string]any)
			if elem == nil {
				w.t.Errorf("%s: a map needs an additionalProperties schema", path)
				return
			}
			// The compiler never writes a null toolset or agent, and the
			// runtime refuses one, so the schema need not admit it.
			et := ty.Elem()
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			w.value(et, elem, path+".*")
		}
	case reflect.Struct:
		if obj := w.only(node, "object", path); obj != nil {
			w.object(ty, obj, path)
		}
	}
}

func (w *schemaWalker) object(ty reflect.Type, obj map[string]any, path string) {
	if obj["additionalProperties"] != false {
		w.t.Errorf("%s: additionalProperties must be false", path)
	}
	props, _ := obj["properties"].(map[string]any)
	required := map[string]bool{}
	for _, r := range obj["required"].([]any) {
		required[r.(string)] = true
	}
	fields := map[string]bool{}
	for i := 0; i < ty.NumField(); i++ {
		f := ty.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			w.t.Errorf("%s: field %s has no JSON name", path, f.Name)
			continue
		}
		fields[name] = true
		p := path + "." + name
		prop, ok := props[name].(map[string]any)
		if !ok {
			w.t.Errorf("%s: the schema does not describe this member", p)
			continue
		}
		omitempty := strings.Contains(opts, "omitempty")
		if required[name] == omitempty {
			w.t.Errorf("%s: required is %v but the encoder's omitempty is %v", p, required[name], omitempty)
		}
		ft := f.Type
		if omitempty && ft.Kind() == reflect.Pointer {
			ft = ft.Elem() // a nil pointer is left out, never written null
		}
		w.value(ft, prop, p)
	}
	for name := range props {
		if !fields[name] {
			w.t.Errorf("%s.%s: the schema describes a member the encoder never writes", path, name)
		}
	}
	for name := range required {
		if !fields[name] {
			w.t.Errorf("%s: %q is required but is no member", path, name)
		}
	}
}

func schemaKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestSchemaDescribesEveryProperty checks that every property the schema
// declares, and every $defs member, says what it means, and that it
// declares the draft and the $id the documentation cites.
func TestSchemaDescribesEveryProperty(t *testing.T) {
	raw := schemaRaw(t)
	if raw["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema is %v, want draft 2020-12", raw["$schema"])
	}
	if raw["$id"] != "https://kokua-policy.invalid/policy.schema.json" {
		t.Errorf("$id is %v", raw["$id"])
	}
	for name, def := range raw["$defs"].(map[string]any) {
		if d, _ := def.(map[string]any)["description"].(string); d == "" {
			t.Errorf("$defs/%s has no description", name)
		}
	}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch n := v.(type) {
		case map[string]any:
			for key, child := range n {
				if key == "if" {
					continue // a condition, not a declaration
				}
				if key == "properties" {
					for name, prop := range child.(map[string]any) {
						if d, _ := prop.(map[string]any)["description"].(string); d == "" {
							t.Errorf("%s/properties/%s has no description", path, name)
						}
					}
				}
				walk(child, path+"/"+key)
			}
		case []any:
			for i, child := range n {
				walk(child, path+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(raw, "#")
}

// TestPolicyDocDigestVector keeps the test vector docs/policy.md gives
// for the canonical form true of policy.Canonical and policy.DigestOf.
func TestPolicyDocDigestVector(t *testing.T) {
	in := "{\n  \"policy_version\": 1,\n  \"b\": [1, 2.50, 1e2],\n" +
		"  \"a\": \"caf\\u00e9 \\/ <tab>\\t\\u2028\",\n  \"digest\": \"sha256:0000\"\n}"
	wantCanon := `{"a":"café / <tab>\t\u2028","b":[1,2.50,1e2],"policy_version":1}`
	wantDigest := "sha256:b66d0131668ef60287294e07914b8ad90dfbd0706b1afbe33c977088fbd9d852"
	canon, err := policy.Canonical([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(canon) != wantCanon || len(canon) != 65 {
		t.Errorf("canonical form %q (%d bytes), docs/policy.md says %q (65 bytes)", canon, len(canon), wantCanon)
	}
	if got, _ := policy.DigestOf([]byte(in)); got != wantDigest {
		t.Errorf("digest %s, docs/policy.md says %s", got, wantDigest)
	}
	page, err := os.ReadFile(filepath.Join("..", "docs", "policy.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{wantCanon, wantDigest} {
		if !strings.Contains(string(page), s) {
			t.Errorf("docs/policy.md no longer shows %s", s)
		}
	}
}

// TestPolicyDocExcerpts: every JSON excerpt of policy.md's worked example
// stands, byte for byte, in the shipped config's compiled policy.
func TestPolicyDocExcerpts(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "policy.md"))
	if err != nil {
		t.Fatal(err)
	}
	policyFile, err := os.ReadFile(filepath.Join("..", "testdata", "compile", "shipped", "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, example, ok := strings.Cut(string(doc), "## A worked example: the shipped config")
	example, _, _ = strings.Cut(example, "\n## ")
	if !ok {
		t.Fatal("policy.md has no worked example")
	}
	n := 0
	for _, block := range strings.Split(example, "```json\n")[1:] {
		excerpt, _, _ := strings.Cut(block, "```")
		n++
		if !strings.Contains(string(policyFile), excerpt) {
			t.Errorf("policy.md's excerpt is not in testdata/compile/shipped/want.json:\n%s", excerpt)
		}
	}
	if n < 5 {
		t.Errorf("found only %d excerpts", n)
	}
}
