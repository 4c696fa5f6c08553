package policy

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The canonical form written by hand: members in sorted order, no white
// space, strings escaped as encoding/json escapes them with HTML escaping
// off, numbers as encoding/json writes them. It writes exactly what
// encoding/json would for these types (a test compares the two on every
// golden policy and on fuzzed documents), several times faster, which
// keeps writing a policy cheap next to linting its config.

// enc appends the compact JSON, the canonical form, to b and, when pretty
// is set, the indented layout of the same document to p, in one pass.
type enc struct {
	b, p   []byte
	pretty bool
	depth  int
	// inline counts the open containers being written on one line.
	inline int
}

// mirror copies what was written to b since from into the layout.
func (e *enc) mirror(from int) {
	if e.pretty {
		e.p = append(e.p, e.b[from:]...)
	}
}

func (e *enc) null() {
	e.b = append(e.b, "null"...)
	if e.pretty {
		e.p = append(e.p, "null"...)
	}
}

// begin opens an object or an array; a leaf (one that will hold no
// other) stays on one line.
func (e *enc) begin(c byte, leaf bool) {
	e.b = append(e.b, c)
	if !e.pretty {
		return
	}
	e.p = append(e.p, c)
	if leaf || e.inline > 0 {
		e.inline++
		return
	}
	e.depth++
	e.p = appendMargin(e.p, e.depth)
}

// sep separates two members or elements.
func (e *enc) sep() {
	e.b = append(e.b, ',')
	if !e.pretty {
		return
	}
	if e.inline > 0 {
		e.p = append(e.p, ',', ' ')
		return
	}
	e.p = appendMargin(append(e.p, ','), e.depth)
}

// end closes an object or an array; an empty one stays on one line.
func (e *enc) end(c byte) {
	if e.pretty {
		switch last := e.b[len(e.b)-1]; {
		case e.inline > 0:
			e.inline--
		case last == '{' || last == '[':
			e.p = e.p[:len(e.p)-(1+2*e.depth)] // take back begin's new line
			e.depth--
		default:
			e.depth--
			e.p = appendMargin(e.p, e.depth)
		}
		e.p = append(e.p, c)
	}
	e.b = append(e.b, c)
}

func (e *enc) key(k string) {
	if c := e.b[len(e.b)-1]; c != '{' {
		e.sep()
	}
	e.str(k)
	e.b = append(e.b, ':')
	if e.pretty {
		e.p = append(e.p, ':', ' ')
	}
}

func (e *enc) open() { e.begin('{', false) }

// openLeaf opens an object of scalars, written on one line.
func (e *enc) openLeaf() { e.begin('{', true) }

func (e *enc) close() { e.end('}') }

func (e *enc) boolean(v bool) {
	from := len(e.b)
	e.b = strconv.AppendBool(e.b, v)
	e.mirror(from)
}

func (e *enc) integer(v int) {
	from := len(e.b)
	e.b = strconv.AppendInt(e.b, int64(v), 10)
	e.mirror(from)
}

// float writes a float64 the way encoding/json does.
func (e *enc) float(f float64) {
	from := len(e.b)
	defer e.mirror(from)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		e.b = append(e.b, "null"...) // encoding/json refuses these; a policy never holds one
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	e.b = strconv.AppendFloat(e.b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		n := len(e.b)
		if n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
			e.b[n-2] = e.b[n-1]
			e.b = e.b[:n-1]
		}
	}
}

const hexDigits = "0123456789abcdef"

// str writes a string escaped as encoding/json does with SetEscapeHTML(false).
func (e *enc) str(s string) {
	from := len(e.b)
	e.quoted(s)
	e.mirror(from)
}

func (e *enc) quoted(s string) {
	e.b = append(e.b, '"')
	i := 0
	for i < len(s) && plain[s[i]] {
		i++
	}
	if i == len(s) { // nothing to escape: the common case
		e.b = append(e.b, s...)
		e.b = append(e.b, '"')
		return
	}
	e.escaped(s, i)
}

// plain marks the bytes a string can hold as they are: printable ASCII
// other than the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// escaped writes the rest of a string, from the first byte that may need
// an escape, the opening quote already written.
func (e *enc) escaped(s string, i int) {
	start := 0
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			e.b = append(e.b, s[start:i]...)
			switch c {
			case '"', '\\':
				e.b = append(e.b, '\\', c)
			case '\b':
				e.b = append(e.b, '\\', 'b')
			case '\f':
				e.b = append(e.b, '\\', 'f')
			case '\n':
				e.b = append(e.b, '\\', 'n')
			case '\r':
				e.b = append(e.b, '\\', 'r')
			case '\t':
				e.b = append(e.b, '\\', 't')
			default:
				e.b = append(e.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			e.b = append(e.b, s[start:i]...)
			e.b = append(e.b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			e.b = append(e.b, s[start:i]...)
			e.b = append(e.b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	e.b = append(e.b, s[start:]...)
	e.b = append(e.b, '"')
}

func (e *enc) strs(list []string) {
	if list == nil {
		e.null()
		return
	}
	e.begin('[', shortList(list))
	for i, s := range list {
		if i > 0 {
			e.sep()
		}
		e.str(s)
	}
	e.end(']')
}

// sortedKeys returns a map's keys in the order encoding/json writes them.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (e *enc) document(d *Document) {
	e.open()
	e.key("agents")
	if d.Agents == nil {
		e.null()
	} else {
		e.open()
		for _, name := range sortedKeys(d.Agents) {
			e.key(name)
			e.agent(d.Agents[name])
		}
		e.close()
	}
	e.key("auto_approval")
	e.open()
	e.key("enabled")
	e.boolean(d.AutoApproval.Enabled)
	e.key("max_per_turn")
	e.integer(d.AutoApproval.MaxPerTurn)
	e.key("reviewers")
	e.strs(d.AutoApproval.Reviewers)
	e.key("timeout_seconds")
	e.float(d.AutoApproval.TimeoutSeconds)
	e.close()
	e.key("compiler")
	e.str(d.Compiler)
	e.key("composed")
	e.openLeaf()
	e.key("label_prefix")
	e.str(d.Composed.LabelPrefix)
	e.key("possible")
	e.boolean(d.Composed.Possible)
	e.key("tier")
	e.str(d.Composed.Tier)
	e.close()
	e.key("core_tools")
	e.strs(d.CoreTools)
	e.key("default_tier")
	e.open()
	e.key("confirm")
	e.list(&d.DefaultTier.Confirm)
	e.key("label")
	e.str(d.DefaultTier.Label)
	e.key("review")
	e.list(&d.DefaultTier.Review)
	e.key("source")
	e.str(d.DefaultTier.Source)
	e.close()
	e.key("entry_agent")
	e.str(d.EntryAgent)
	e.key("floor")
	e.open()
	e.key("active")
	e.boolean(d.Floor.Active)
	e.key("list")
	e.list(&d.Floor.List)
	e.close()
	e.key("inputs")
	e.open()
	e.key("config")
	e.input(d.Inputs.Config)
	e.key("manifest")
	e.input(d.Inputs.Manifest)
	e.close()
	e.key("policy_version")
	e.integer(d.PolicyVersion)
	e.key("toolsets")
	if d.Toolsets == nil {
		e.null()
	} else {
		e.open()
		for _, name := range sortedKeys(d.Toolsets) {
			e.key(name)
			e.toolset(d.Toolsets[name])
		}
		e.close()
	}
	e.key("trust_order")
	e.strs(d.TrustOrder)
	e.close()
}

func (e *enc) input(in Input) {
	e.openLeaf()
	e.key("file")
	e.str(in.File)
	e.key("sha256")
	e.str(in.SHA256)
	e.close()
}

func (e *enc) list(l *List) {
	if l == nil {
		e.null()
		return
	}
	e.open()
	e.key("builtin")
	e.boolean(l.Builtin)
	e.key("entries")
	if l.Entries == nil {
		e.null()
	} else {
		e.begin('[', false)
		for i := range l.Entries {
			if i > 0 {
				e.sep()
			}
			e.entry(&l.Entries[i])
		}
		e.end(']')
	}
	e.key("key")
	e.str(l.Key)
	e.key("tools")
	e.strs(l.Tools)
	e.close()
}

func (e *enc) entry(x *Entry) {
	e.open()
	e.key("position")
	if p := x.Position; p == nil {
		e.null()
	} else {
		e.openLeaf()
		e.key("column")
		e.integer(p.Column)
		e.key("end_column")
		e.integer(p.EndColumn)
		e.key("end_line")
		e.integer(p.EndLine)
		e.key("line")
		e.integer(p.Line)
		e.close()
	}
	e.key("status")
	e.str(x.Status)
	e.key("text")
	e.str(x.Text)
	e.key("tool")
	e.str(x.Tool)
	e.key("tools")
	e.strs(x.Tools)
	e.key("tools_when_built")
	e.strs(x.ToolsWhenBuilt)
	e.key("toolset")
	e.str(x.Toolset)
	e.close()
}

func (e *enc) toolset(t *Toolset) {
	if t == nil {
		e.null()
		return
	}
	e.open()
	e.key("description")
	e.str(t.Description)
	e.key("entry_point_only")
	e.boolean(t.EntryPointOnly)
	e.key("guidance")
	e.str(t.Guidance)
	e.key("kind")
	e.str(t.Kind)
	e.key("load_refusal")
	e.str(t.LoadRefusal)
	e.key("tools")
	e.tools(t.Tools)
	e.close()
}

func (e *enc) tools(tools []Tool) {
	if tools == nil {
		e.null()
		return
	}
	e.begin('[', false)
	for i, t := range tools {
		if i > 0 {
			e.sep()
		}
		e.openLeaf()
		e.key("name")
		e.str(t.Name)
		e.key("spec_bytes")
		if t.SpecBytes == nil {
			e.null()
		} else {
			e.integer(*t.SpecBytes)
		}
		if t.Toolset != "" {
			e.key("toolset")
			e.str(t.Toolset)
		}
		e.close()
	}
	e.end(']')
}

func (e *enc) agent(a *Agent) {
	if a == nil {
		e.null()
		return
	}
	e.open()
	e.key("alerts")
	e.strs(a.Alerts)
	e.key("approval")
	if a.Approval.Confirm == nil && a.Approval.Review == nil {
		e.openLeaf()
	} else {
		e.open()
	}
	e.key("confirm")
	e.list(a.Approval.Confirm)
	e.key("review")
	e.list(a.Approval.Review)
	e.key("source")
	e.str(a.Approval.Source)
	e.key("table")
	e.str(a.Approval.Table)
	e.close()
	e.key("available")
	e.open()
	e.key("all")
	e.boolean(a.Available.All)
	e.key("count")
	e.integer(a.Available.Count)
	e.key("declared")
	e.strs(a.Available.Declared)
	e.key("expanded")
	e.strs(a.Available.Expanded)
	e.close()
	e.key("core_tools")
	e.strs(a.CoreTools)
	e.key("deferred")
	e.strs(a.Deferred)
	e.key("delegates_to")
	e.strs(a.DelegatesTo)
	e.key("entry")
	e.boolean(a.Entry)
	e.key("gate_label")
	e.str(a.GateLabel)
	e.key("names_line")
	if a.NamesLine == nil {
		e.null()
	} else {
		e.str(*a.NamesLine)
	}
	e.key("reachable")
	e.boolean(a.Reachable)
	e.key("resident")
	e.strs(a.Resident)
	e.key("resident_declared")
	e.boolean(a.ResidentDeclared)
	e.key("shadowed")
	if a.Shadowed == nil {
		e.null()
	} else {
		e.begin('[', false)
		for i, s := range a.Shadowed {
			if i > 0 {
				e.sep()
			}
			e.openLeaf()
			e.key("by")
			e.str(s.By)
			e.key("name")
			e.str(s.Name)
			e.key("toolset")
			e.str(s.Toolset)
			e.close()
		}
		e.end(']')
	}
	e.key("skills")
	e.strs(a.Skills)
	e.key("tool_block")
	if tb := a.ToolBlock; tb == nil {
		e.null()
	} else {
		e.openLeaf()
		e.key("all_resident_bytes")
		e.integer(tb.AllResidentBytes)
		e.key("all_resident_tools")
		e.integer(tb.AllResidentTools)
		e.key("resident_bytes")
		e.integer(tb.ResidentBytes)
		e.key("resident_tools")
		e.integer(tb.ResidentTools)
		e.key("saved_percent")
		e.float(tb.SavedPercent)
		e.close()
	}
	e.key("tools")
	e.tools(a.Tools)
	e.close()
}

// shortList reports a list of strings short enough for one line.
func shortList(list []string) bool {
	n := 0
	for _, s := range list {
		n += len(s) + 4
	}
	return n <= 80
}
