// Package manifest reads a registry manifest (rules.md section 7), the JSON
// description of what a Kokua install registers, with a position for every
// toolset and tool.
package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/jsonpos"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// DefaultManifestName is how diagnostics and notes name the embedded
// default install.
const DefaultManifestName = "<default install>"

// DefaultManifest returns the bytes of the embedded manifest of a default
// Kokua install (its 23 own toolsets, rules.md R196): those of
// default.manifest.json, which default_data.go holds (Default).
func DefaultManifest() []byte { return defaultLoaded.Source }

// Default is the embedded manifest of a default install as Load would
// read it under DefaultManifestName, without reading it: default_data.go holds
// what Load returns for those bytes as Go data, which the linker lays out
// in the binary, so that a run against the default install parses no JSON
// and allocates nothing for it. TestDefaultData keeps the two equal (go
// test ./internal/manifest -update rewrites the file from the JSON). The
// manifest is shared by every caller: read it, do not change it.
func Default() *Manifest { return &defaultLoaded }

// MaxNameBytes bounds a toolset's or a tool's name. It protects the
// reader: findings and the compiled policy repeat these names for every
// agent that can reach them, so it bounds how much of the output one name
// can be. It sits far beyond any real name (a few dozen bytes; model
// providers cap tool names at 64 or 128 characters), as tomlpos.MaxKeyBytes
// does for the config, so that no name Kokua registers is refused.
const MaxNameBytes = 4096

// Manifest is a registry manifest (rules.md section 7): what an install
// registers.
type Manifest struct {
	File      string
	Source    []byte
	Version   int
	About     string
	Toolsets  []*Toolset
	CoreTools []*Tool
}

// Toolset is one toolset of the manifest.
type Toolset struct {
	Name           string
	Span           diag.Span // the toolset's name
	Kind           string
	Provider       string
	Description    string
	Guidance       string
	EntryPointOnly bool
	CrossCutting   bool
	Workflow       *Workflow
	Settings       []Setting
	Connected      bool
	// Classes are the capability classes the toolset's entry writes, and
	// ClassesSet whether it writes the key at all (an empty list clears
	// the classes a kind would give).
	Classes    []kokua.Class
	ClassesSet bool
	// Digest is the digest of the toolset's tools (ToolsetDigest), when
	// the entry records one: kokua-compile manifest writes it for an MCP
	// server. The reader checks it against the tools.
	Digest string
	Tools  []*Tool

	// names and builds answer Names and Builds, made once when the
	// manifest is read and shared, read-only, by every config checked
	// against it. builds is made only for a toolset of more than
	// searchedTools tools; a smaller one's names are searched.
	names  []string
	builds map[string]bool
}

// searchedTools is the most tools a toolset has for Builds to search its
// names rather than look them up in a set: as fast at that size, and a
// toolset without a map can be Go data (the default install's, Default).
const searchedTools = 16

// Names are the names of the tools one build of the toolset returns, in
// order, activate_skill left out (R174). The slice is the manifest's own:
// read it, do not change it.
func (t *Toolset) Names() []string { return t.names }

// Builds reports whether a build of the toolset returns a tool of that
// name (activate_skill never: R174).
func (t *Toolset) Builds(tool string) bool {
	if t.builds == nil {
		return slices.Contains(t.names, tool)
	}
	return t.builds[tool]
}

// index makes Names and Builds, once the toolset's tools are read.
func (t *Toolset) index() {
	t.names = make([]string, 0, len(t.Tools))
	for _, tool := range t.Tools {
		if tool.Name != kokua.ActivateSkill {
			t.names = append(t.names, tool.Name)
		}
	}
	if len(t.names) > searchedTools {
		t.builds = make(map[string]bool, len(t.names))
		for _, name := range t.names {
			t.builds[name] = true
		}
	}
}

// Workflow is a slash command a toolset offers the entry agent (R129).
type Workflow struct {
	Name    string
	Command string
	Span    diag.Span
}

// Setting is a key of a toolset's own config section (R22, R139).
type Setting struct {
	Key  string
	Type string
	Hot  bool
}

// Tool is one tool a toolset builds.
type Tool struct {
	Name string
	Span diag.Span
	// Spec is the tool's schema as sent to the model, when given.
	Spec json.RawMessage
	// SpecBytes is the byte size of the spec (R169): spec_bytes when given,
	// else the length of Spec's compact JSON, else -1 for unknown.
	SpecBytes int
	// Classes are the tool's own capability classes; when ClassesSet, they
	// replace its toolset's for this tool.
	Classes    []kokua.Class
	ClassesSet bool
	// Digest is the digest of Spec (SpecDigest), when the entry records
	// one. The reader checks it against the spec.
	Digest string
}

// Problem is a way in which a manifest does not follow the format.
type Problem struct {
	Span    diag.Span
	Message string
}

// Load reads a manifest. A manifest that does not follow the format
// comes back as problems, each at a position in the manifest file, and a nil
// manifest: no check can trust a half-read install. The embedded default
// install under DefaultManifestName is not read again: it is Default,
// shared (read it, do not change it).
func Load(file string, data []byte) (*Manifest, []Problem) {
	if file == DefaultManifestName && bytes.Equal(data, defaultLoaded.Source) {
		return Default(), nil
	}
	return load(file, data)
}

// load reads a manifest's bytes, as Load does for any but the default.
func load(file string, data []byte) (*Manifest, []Problem) {
	l := lineindex.New(file, data)
	if off := lineindex.InvalidUTF8(data); off >= 0 {
		return nil, []Problem{{Span: l.Span(off, off+1), Message: "not valid UTF-8: a manifest is UTF-8 JSON"}}
	}
	root, err := jsonpos.Parse(data)
	if err != nil {
		off, msg := 0, "not valid JSON: "+err.Error()
		var se *jsonpos.SyntaxError
		var le *jsonpos.LimitError
		switch {
		case errors.As(err, &se):
			off, msg = se.Offset, "not valid JSON: "+se.Msg
		case errors.As(err, &le):
			off, msg = le.Offset, "the manifest is beyond kokua-lint's limits: "+le.Msg
		}
		return nil, []Problem{{Span: l.Span(off, off), Message: msg}}
	}
	r := manifestReader{lines: l}
	m := r.manifest(root)
	if len(r.problems) > 0 {
		return nil, r.problems
	}
	m.File, m.Source = file, data
	return m, nil
}

type manifestReader struct {
	lines    *lineindex.Index
	problems []Problem
}

func (r *manifestReader) fail(v *jsonpos.Value, format string, args ...any) {
	r.problems = append(r.problems, Problem{Span: r.lines.Span(v.From, v.To), Message: fmt.Sprintf(format, args...)})
}

// object checks that v is an object whose member names are all in fields,
// and reports the rest.
func (r *manifestReader) object(v *jsonpos.Value, where string, fields ...string) bool {
	if v.Kind != jsonpos.Object {
		r.fail(v, "%s must be an object, not %s", where, v.Kind)
		return false
	}
	// Small objects are searched; large ones go through a set, so that
	// the check stays linear in the number of members.
	var seen map[string]bool
	if len(v.Members) > 8 {
		seen = make(map[string]bool, len(v.Members))
	}
	twice := func(i int) bool {
		if seen == nil {
			return slices.ContainsFunc(v.Members[:i], func(o jsonpos.Member) bool { return o.Name == v.Members[i].Name })
		}
		dup := seen[v.Members[i].Name]
		seen[v.Members[i].Name] = true
		return dup
	}
	// At most len(fields) members are neither unknown nor repeated, so the
	// rest are problems, and their room is made at once.
	if extra := len(v.Members) - len(fields); extra > 0 {
		r.problems = slices.Grow(r.problems, extra)
	}
	accepted := "" // the list of fields, written once for all unknown members
	for i, m := range v.Members {
		switch {
		case twice(i):
			r.problems = append(r.problems, Problem{Span: r.lines.Span(m.From, m.To), Message: fmt.Sprintf("%s has %q twice", where, m.Name)})
		case !slices.Contains(fields, m.Name):
			if accepted == "" {
				accepted = strings.Join(fields, ", ")
			}
			r.problems = append(r.problems, Problem{Span: r.lines.Span(m.From, m.To),
				Message: fmt.Sprintf("%s has unknown field %q (accepted: %s)", where, m.Name, accepted)})
		}
	}
	return true
}

func (r *manifestReader) str(obj *jsonpos.Value, where, field string, required bool) (string, *jsonpos.Value) {
	v := obj.Get(field)
	if v == nil {
		if required {
			r.fail(obj, "%s is missing the required string %q", where, field)
		}
		return "", nil
	}
	if v.Kind != jsonpos.String {
		r.fail(v, "%s.%s must be a string, not %s", where, field, v.Kind)
		return "", nil
	}
	return v.Str, v
}

func (r *manifestReader) boolean(obj *jsonpos.Value, where, field string, def bool) bool {
	v := obj.Get(field)
	if v == nil {
		return def
	}
	if v.Kind != jsonpos.Bool {
		r.fail(v, "%s.%s must be true or false, not %s", where, field, v.Kind)
		return def
	}
	return v.Bool
}

func (r *manifestReader) array(obj *jsonpos.Value, where, field string, required bool) []*jsonpos.Value {
	v := obj.Get(field)
	if v == nil {
		if required {
			r.fail(obj, "%s is missing the required array %q", where, field)
		}
		return nil
	}
	if v.Kind != jsonpos.Array {
		r.fail(v, "%s.%s must be an array, not %s", where, field, v.Kind)
		return nil
	}
	return v.Items
}

func (r *manifestReader) manifest(root *jsonpos.Value) *Manifest {
	m := &Manifest{}
	if !r.object(root, "the manifest", "manifest_version", "source", "toolsets", "core_tools") {
		return m
	}
	switch v := root.Get("manifest_version"); {
	case v == nil:
		r.fail(root, "the manifest is missing \"manifest_version\" (this linter reads version 1)")
	case v.Kind != jsonpos.Number || v.Num().String() != "1":
		r.fail(v, "manifest_version %s is not supported (this linter reads version 1)", strings.TrimSpace(string(r.lines.Data[v.From:v.To])))
	default:
		m.Version = 1
	}
	m.About, _ = r.str(root, "the manifest", "source", false)
	toolsets := r.array(root, "the manifest", "toolsets", true)
	m.Toolsets = slices.Grow(m.Toolsets, len(toolsets))
	for i, tv := range toolsets {
		if ts := r.toolset(tv, "toolsets["+strconv.Itoa(i)+"]"); ts != nil {
			m.Toolsets = append(m.Toolsets, ts)
		}
	}
	cores := r.array(root, "the manifest", "core_tools", false)
	m.CoreTools = slices.Grow(m.CoreTools, len(cores))
	for i, cv := range cores {
		if t := r.tool(cv, fmt.Sprintf("core_tools[%d]", i)); t != nil {
			m.CoreTools = append(m.CoreTools, t)
		}
	}
	return m
}

// toolset reads one toolset. Its name is read as Kokua registers it: any
// non-empty string, spaces and every script included ([[mcp.server]] name
// is a "non-empty string", rules.md section 1.1; R113 refuses only a
// missing or empty one). What registration refuses is reported by the
// rules that know the config too, at the name the config gives when it
// gives one: a reserved name (reserved-toolset-name, R116), '.' or '*'
// (toolset-name-chars, R117), two providers of one name
// (duplicate-toolset, R115). A name holding a control, bidirectional or
// invisible character is read too: Kokua reads it, and every output
// escapes it (printable.String).
func (r *manifestReader) toolset(v *jsonpos.Value, where string) *Toolset {
	if !r.object(v, where, "name", "kind", "provider", "description", "guidance", "entry_point_only",
		"cross_cutting", "workflow", "settings", "connected", "classes", "digest", "tools") {
		return nil
	}
	name, nv := r.str(v, where, "name", true)
	if nv != nil && name == "" {
		r.fail(nv, "%s.name is empty", where)
	}
	if len(name) > MaxNameBytes {
		r.fail(nv, "%s.name is %d bytes long; kokua-lint reads toolset and tool names of at most %d bytes", where, len(name), MaxNameBytes)
		return nil
	}
	if name != "" {
		where = "toolset " + strconv.Quote(name)
	}
	ts := &Toolset{Name: name, Span: r.lines.Span(v.From, v.To), Connected: true}
	if nv != nil {
		ts.Span = r.lines.Span(nv.From, nv.To)
	}
	kind, kv := r.str(v, where, "kind", true)
	switch kind {
	case kokua.KindKokua, kokua.KindPlugin, kokua.KindSkill, kokua.KindMCP:
		ts.Kind = kind
	default:
		if kv != nil {
			r.fail(kv, "%s has kind %q; the kinds are kokua, plugin, skill and mcp", where, kind)
		}
	}
	ts.Provider, _ = r.str(v, where, "provider", false)
	if ts.Provider == "" {
		ts.Provider = kokua.ProviderLabel(kind)
	}
	ts.Description, _ = r.str(v, where, "description", true)
	ts.Guidance, _ = r.str(v, where, "guidance", false)
	ts.EntryPointOnly = r.boolean(v, where, "entry_point_only", false)
	ts.CrossCutting = r.boolean(v, where, "cross_cutting", false)
	ts.Connected = r.boolean(v, where, "connected", true)
	if c := v.Get("connected"); c != nil && kind != kokua.KindMCP && kind != "" {
		r.fail(c, "%s: \"connected\" is only for kind mcp", where)
	}
	if wv := v.Get("workflow"); wv != nil && wv.Kind != jsonpos.Null {
		if r.object(wv, where+".workflow", "name", "command") {
			wn, _ := r.str(wv, where+".workflow", "name", true)
			wc, _ := r.str(wv, where+".workflow", "command", true)
			ts.Workflow = &Workflow{Name: wn, Command: wc, Span: r.lines.Span(wv.From, wv.To)}
		}
	}
	for i, sv := range r.array(v, where, "settings", false) {
		sw := fmt.Sprintf("%s.settings[%d]", where, i)
		if r.object(sv, sw, "key", "type", "default", "hot") {
			key, _ := r.str(sv, sw, "key", true)
			typ, _ := r.str(sv, sw, "type", false)
			ts.Settings = append(ts.Settings, Setting{Key: key, Type: typ, Hot: r.boolean(sv, sw, "hot", false)})
		}
	}
	ts.Classes, ts.ClassesSet = r.classes(v, where)
	tools := r.array(v, where, "tools", true)
	ts.Tools = slices.Grow(ts.Tools, len(tools))
	for i, tv := range tools {
		if t := r.tool(tv, where+".tools["+strconv.Itoa(i)+"]"); t != nil {
			ts.Tools = append(ts.Tools, t)
		}
	}
	ts.index()
	if dv := r.digest(v, where); dv != nil {
		pairs := make([]ToolDigest, len(ts.Tools))
		for i, t := range ts.Tools {
			pairs[i] = ToolDigest{Name: t.Name, Digest: t.Digest}
		}
		if want := ToolsetDigest(pairs); want != dv.Str {
			r.fail(dv, "%s.digest is not the digest of its tools (%s): a tool was added, removed, moved or edited after the digest was taken; run kokua-compile manifest again, or remove the digest", where, want)
		} else {
			ts.Digest = dv.Str
		}
	}
	return ts
}

// digest reads an entry's digest: DigestPrefix and 64 lowercase
// hexadecimal digits. It returns the value when it is one, for the caller
// to check against what it digests.
func (r *manifestReader) digest(obj *jsonpos.Value, where string) *jsonpos.Value {
	s, dv := r.str(obj, where, "digest", false)
	if dv == nil {
		return nil
	}
	if !wellFormedDigest(s) {
		r.fail(dv, "%s.digest %s is not a digest: it is \"sha256:\" and 64 lowercase hexadecimal digits", where, strconv.Quote(clip(s)))
		return nil
	}
	return dv
}

func (r *manifestReader) tool(v *jsonpos.Value, where string) *Tool {
	if !r.object(v, where, "name", "spec", "spec_bytes", "classes", "digest") {
		return nil
	}
	name, nv := r.str(v, where, "name", true)
	if nv == nil {
		return nil
	}
	if name == "" {
		r.fail(nv, "%s.name is empty", where)
	}
	if len(name) > MaxNameBytes {
		r.fail(nv, "%s.name is %d bytes long; kokua-lint reads toolset and tool names of at most %d bytes", where, len(name), MaxNameBytes)
		return nil
	}
	t := &Tool{Name: name, Span: r.lines.Span(nv.From, nv.To), SpecBytes: -1}
	if sv := v.Get("spec"); sv != nil {
		if sv.Kind != jsonpos.Object {
			r.fail(sv, "%s.spec must be an object, not %s", where, sv.Kind)
		} else {
			var buf bytes.Buffer
			if err := json.Compact(&buf, r.lines.Data[sv.From:sv.To]); err == nil {
				t.Spec = json.RawMessage(buf.Bytes())
				t.SpecBytes = buf.Len()
			}
		}
	}
	if bv := v.Get("spec_bytes"); bv != nil {
		if n, ok := r.specBytes(bv, where); ok {
			t.SpecBytes = n
		}
	}
	t.Classes, t.ClassesSet = r.classes(v, where)
	if dv := r.digest(v, where); dv != nil {
		switch want, err := SpecDigest(t.Spec); {
		case t.Spec == nil:
			r.fail(dv, "%s has a digest and no spec: a digest is taken of the spec, which the entry must carry", where)
		case err != nil || want != dv.Str:
			r.fail(dv, "%s.digest is not the digest of its spec (%s): the spec was edited after the digest was taken; run kokua-compile manifest again, or remove the digest", where, want)
		default:
			t.Digest = dv.Str
		}
	}
	return t
}

// classes reads a toolset's or a tool's capability classes: an array of
// the names kokua.Classes lists, each once. It reports whether the key is
// written, so that an empty array can clear what a kind gives.
func (r *manifestReader) classes(obj *jsonpos.Value, where string) ([]kokua.Class, bool) {
	v := obj.Get("classes")
	if v == nil {
		return nil, false
	}
	out := []kokua.Class{}
	for i, cv := range r.array(obj, where, "classes", false) {
		if cv.Kind != jsonpos.String {
			r.fail(cv, "%s.classes[%d] must be a string, not %s", where, i, cv.Kind)
			continue
		}
		c := kokua.Class(cv.Str)
		switch {
		case !c.Valid():
			names := make([]string, len(kokua.Classes()))
			for j, k := range kokua.Classes() {
				names[j] = string(k)
			}
			r.fail(cv, "%s has class %q; the classes are %s", where, cv.Str, strings.Join(names, ", "))
		case slices.Contains(out, c):
			r.fail(cv, "%s has class %q twice", where, cv.Str)
		default:
			out = append(out, c)
		}
	}
	return out, true
}

// specBytes reads a tool's spec_bytes: a whole number of bytes from 0 to
// policy.MaxSpecBytes, the most a compiled policy carries (no install has
// a spec of a gigabyte; a value near 2^63 would only overflow the sums of
// the tool block). Anything else is reported at the value, naming the
// range as policy.Document.Validate's refusal of the same value does.
func (r *manifestReader) specBytes(bv *jsonpos.Value, where string) (int, bool) {
	if bv.Kind != jsonpos.Number {
		r.fail(bv, "%s.spec_bytes must be a whole number of bytes, not %s", where, bv.Kind)
		return 0, false
	}
	lit := bv.Num().String()
	if !wholeNumber(lit) {
		r.fail(bv, "%s.spec_bytes %s is not a whole number of bytes", where, clip(lit))
		return 0, false
	}
	// Atoi fails only on a literal too long for an int: outside the range
	// as well.
	n, err := strconv.Atoi(lit)
	if err != nil || n < 0 || n > policy.MaxSpecBytes {
		r.fail(bv, "%s.spec_bytes %s is not between 0 and %d, the largest spec size a compiled policy carries",
			where, clip(lit), policy.MaxSpecBytes)
		return 0, false
	}
	return n, true
}

// wholeNumber reports whether a JSON number literal is written as an
// integer: an optional minus sign and digits, with no fraction or
// exponent (Python's json, like most readers, reads 1.0 and 1e3 as
// floats).
func wholeNumber(lit string) bool {
	digits := strings.TrimPrefix(lit, "-")
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

// clip shortens a number literal for a message: a manifest may hold one
// of millions of digits, which a message has no use for.
func clip(lit string) string {
	const most = 40
	if len(lit) <= most {
		return lit
	}
	return fmt.Sprintf("%s... (%d characters)", lit[:most-10], len(lit))
}
