package policy

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/kokua"
)

// MaxSpecBytes bounds a tool's spec_bytes. A tool's spec is a few
// kilobytes of JSON; the bound keeps every sum over the tools of a policy
// no larger than MaxBytes far from overflowing an int. The manifest reader
// (internal/manifest) holds a manifest's spec_bytes to the same bound, so
// kokua-lint reports a larger one where it is written.
const MaxSpecBytes = 1 << 30

// Validate checks what the document's types cannot: that every reference
// resolves (the trust order, each agent's available, resident, deferred
// and skill toolsets, its delegates, its tools' toolsets, every entry's
// toolset), that null appears only where docs/policy.md allows it, that
// every name is one Kokua can register, and that every number is in
// range. Parse refuses a document that fails it, and kokua-compile
// refuses to write one; it returns the first problem, naming the member
// by its path in the document.
//
// Validate is what makes a loaded policy safe to query: Decide, sessions,
// loads and preloads of a document it accepts look up only names it has
// checked.
func (d *Document) Validate() error {
	v := validator{d: d}
	v.document()
	return v.err
}

// validator walks a document and keeps the first problem it finds.
type validator struct {
	d   *Document
	err error
}

func (v *validator) fail(path, format string, args ...any) {
	if v.err == nil {
		v.err = errors.New(path + ": " + fmt.Sprintf(format, args...))
	}
}

// key is a member of an object in a path: bare when it is a plain name,
// quoted otherwise.
func key(parent, name string) string {
	plain := name != ""
	for _, r := range name {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return parent + "." + name
	}
	return fmt.Sprintf("%s[%q]", parent, name)
}

func index1(parent string, i int) string { return fmt.Sprintf("%s[%d]", parent, i) }

func (v *validator) document() {
	d := v.d
	if d.PolicyVersion != Version {
		v.fail("policy_version", "%d is not %d", d.PolicyVersion, Version)
	}
	v.sha256("inputs.config.sha256", d.Inputs.Config.SHA256)
	v.sha256("inputs.manifest.sha256", d.Inputs.Manifest.SHA256)
	if d.Toolsets == nil {
		v.fail("toolsets", "is null; want an object")
	}
	if d.Agents == nil {
		v.fail("agents", "is null; want an object")
	}
	for _, name := range slices.Sorted(maps.Keys(d.Toolsets)) {
		v.toolset(key("toolsets", name), name, d.Toolsets[name])
	}
	v.names("trust_order", d.TrustOrder, v.isToolset)
	if len(d.TrustOrder) != len(d.Toolsets) && v.err == nil {
		v.fail("trust_order", "lists %d toolsets, but toolsets has %d: want every toolset once", len(d.TrustOrder), len(d.Toolsets))
	}
	v.names("core_tools", d.CoreTools, func(name string) string {
		for _, c := range kokua.CoreTools() {
			if c == name {
				return ""
			}
		}
		return "is not a core tool"
	})
	if t := d.AutoApproval.TimeoutSeconds; math.IsInf(t, 0) || math.IsNaN(t) {
		v.fail("auto_approval.timeout_seconds", "is %v, which JSON cannot write: want a finite number", t)
	}
	if d.AutoApproval.Reviewers == nil {
		v.fail("auto_approval.reviewers", "is null; want an array")
	}
	for _, name := range slices.Sorted(maps.Keys(d.Reviewers)) {
		r := d.Reviewers[name]
		if r == nil {
			v.fail(key("reviewers", name), "is null; want an object")
			continue
		}
		for _, f := range []struct {
			member, value string
			from          kokua.Origin
		}{{"model", r.Model, r.ModelSource}, {"thinking", r.Thinking, r.ThinkingSource}} {
			switch f.from {
			case kokua.Declared, kokua.Inherited:
			case kokua.Builtin:
				if f.value != "" {
					v.fail(key("reviewers", name)+"."+f.member, "is %q, but %s_source is \"builtin\": neither the reviewer nor [assistant] writes it", f.value, f.member)
				}
			default:
				v.fail(key("reviewers", name)+"."+f.member+"_source", "is %q; want \"declared\", \"inherited\" or \"builtin\"", f.from)
			}
		}
	}
	if d.Floor.Active != d.AutoApproval.Enabled {
		v.fail("floor.active", "is %t, but auto_approval.enabled is %t: the floor is read exactly when auto-approval is on", d.Floor.Active, d.AutoApproval.Enabled)
	}
	v.list("floor.list", &d.Floor.List, true)
	if d.DefaultTier.Label != kokua.DefaultTierLabel {
		v.fail("default_tier.label", "is %q; want %q", d.DefaultTier.Label, kokua.DefaultTierLabel)
	}
	if d.DefaultTier.Source != kokua.Declared && d.DefaultTier.Source != kokua.Builtin {
		v.fail("default_tier.source", "is %q; want \"declared\" or \"builtin\"", d.DefaultTier.Source)
	}
	v.list("default_tier.confirm", &d.DefaultTier.Confirm, false)
	v.list("default_tier.review", &d.DefaultTier.Review, false)
	if d.Composed.LabelPrefix != kokua.ComposedPrefix {
		v.fail("composed.label_prefix", "is %q; want %q", d.Composed.LabelPrefix, kokua.ComposedPrefix)
	}
	if d.Composed.Tier != "default_tier" {
		v.fail("composed.tier", "is %q; want \"default_tier\"", d.Composed.Tier)
	}
	if _, ok := d.Agents[d.EntryAgent]; !ok {
		v.fail("entry_agent", "%q is not a member of agents", d.EntryAgent)
	}
	for _, name := range slices.Sorted(maps.Keys(d.Agents)) {
		v.agent(key("agents", name), name, d.Agents[name])
	}
}

func (v *validator) sha256(path, s string) {
	ok := len(s) == 64
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			ok = false
		}
	}
	if !ok {
		v.fail(path, "%q is not 64 lowercase hex digits", s)
	}
}

// isToolset says why a name is not a member of toolsets, or "".
func (v *validator) isToolset(name string) string {
	if v.d.Toolsets[name] == nil {
		return "is not a member of toolsets"
	}
	return ""
}

// names checks a list of names: not null, no name twice, and each one
// acceptable to check (which says why not, or "").
func (v *validator) names(path string, list []string, check func(string) string) {
	if list == nil {
		v.fail(path, "is null; want an array")
		return
	}
	seen := make(map[string]bool, len(list))
	for i, name := range list {
		if seen[name] {
			v.fail(index1(path, i), "%q is listed twice", name)
		}
		seen[name] = true
		if why := check(name); why != "" {
			v.fail(index1(path, i), "%q %s", name, why)
		}
	}
}

func (v *validator) toolset(path, name string, ts *Toolset) {
	why, reserved := kokua.Reserved(name)
	switch {
	case name == "":
		v.fail(path, "a toolset has no name")
	case reserved:
		v.fail(path, "%q cannot name a toolset: %s", name, why)
	case strings.ContainsAny(name, ".*"):
		v.fail(path, "%q cannot name a toolset: it holds '.' or '*'", name)
	}
	if ts == nil {
		v.fail(path, "is null; want an object")
		return
	}
	switch ts.Kind {
	case kokua.KindKokua, kokua.KindPlugin, kokua.KindSkill, kokua.KindMCP:
	default:
		v.fail(path+".kind", "is %q; want kokua, plugin, skill or mcp", ts.Kind)
	}
	v.tools(path+".tools", ts.Tools, false)
}

// tools checks a list of tools; held says it is an agent's, whose tools
// name their toolset, which a toolset's own tools leave out.
func (v *validator) tools(path string, tools []Tool, held bool) {
	if tools == nil {
		v.fail(path, "is null; want an array")
		return
	}
	for i, t := range tools {
		at := func() string { return index1(path, i) }
		if t.Name == "" {
			v.fail(at()+".name", "is empty")
		}
		switch {
		case !held && t.Toolset != "":
			v.fail(at()+".toolset", "is written inside a toolset, where the toolset is the enclosing member")
		case held && t.Toolset != kokua.Core && v.d.Toolsets[t.Toolset] == nil:
			v.fail(at()+".toolset", "%q is neither core nor a member of toolsets", t.Toolset)
		}
		if held && t.Classes != nil {
			v.fail(at()+".classes", "is written in an agent's tools; a tool's classes are written under toolsets")
		}
		for j, c := range t.Classes {
			if !c.Valid() || slices.Contains(t.Classes[:j], c) {
				v.fail(fmt.Sprintf("%s.classes[%d]", at(), j), "%q is not a capability class, or is written twice", c)
			}
		}
		if t.SpecBytes != nil && (*t.SpecBytes < 0 || *t.SpecBytes > MaxSpecBytes) {
			v.fail(at()+".spec_bytes", "%d is not between 0 and %d", *t.SpecBytes, MaxSpecBytes)
		}
	}
}

// list checks a list of entries; floor says it is the floor, the one list
// whose entries are inactive exactly when auto-approval is off.
func (v *validator) list(path string, l *List, floor bool) {
	if l.Entries == nil {
		v.fail(path+".entries", "is null; want an array")
	}
	v.names(path+".tools", l.Tools, func(string) string { return "" })
	inactive := floor && !v.d.AutoApproval.Enabled
	for i := range l.Entries {
		e := &l.Entries[i]
		at := func() string { return index1(path+".entries", i) }
		if e.Tools == nil {
			v.fail(at()+".tools", "is null; want an array")
		}
		if e.ToolsWhenBuilt == nil {
			v.fail(at()+".tools_when_built", "is null; want an array")
		}
		if p := e.Position; p != nil && (p.Line < 1 || p.Column < 1 || p.EndLine < p.Line || p.EndLine == p.Line && p.EndColumn < p.Column) {
			v.fail(at()+".position", "is not a range of lines and columns counted from 1")
		}
		switch {
		case inactive && e.Status != StatusInactive:
			v.fail(at()+".status", "is %q; every entry of a floor that is not read is \"inactive\"", e.Status)
		case inactive:
			// Not read, not checked beyond its type (R145).
		case e.Status == StatusResolved:
			if e.Toolset != kokua.Core && v.d.Toolsets[e.Toolset] == nil {
				v.fail(at()+".toolset", "%q is neither core nor a member of toolsets", e.Toolset)
			}
		case e.Status == StatusPending:
			if v.d.Toolsets[e.Toolset] == nil {
				v.fail(at()+".toolset", "%q is not a member of toolsets, so no build can resolve the entry", e.Toolset)
			}
		default:
			v.fail(at()+".status", "is %q; want \"resolved\" or \"pending\"", e.Status)
		}
	}
}

func (v *validator) agent(path, name string, a *Agent) {
	switch {
	case name == "":
		v.fail(path, "an agent has no name")
	case strings.ContainsAny(name, ":["):
		v.fail(path, "%q cannot name an agent: it holds ':' or '['", name)
	}
	if a == nil {
		v.fail(path, "is null; want an object")
		return
	}
	if a.GateLabel != name {
		v.fail(path+".gate_label", "is %q; want the agent's name", a.GateLabel)
	}
	if a.Entry != (name == v.d.EntryAgent) {
		v.fail(path+".entry", "is %t, but entry_agent is %q", a.Entry, v.d.EntryAgent)
	}
	if a.Alerts == nil {
		v.fail(path+".alerts", "is null; want an array")
	}
	if a.Shadowed == nil {
		v.fail(path+".shadowed", "is null; want an array")
	}
	for i, s := range a.Shadowed {
		if v.d.Toolsets[s.Toolset] == nil || v.d.Toolsets[s.By] == nil {
			v.fail(index1(path+".shadowed", i), "names a toolset that is not a member of toolsets")
		}
	}
	// Availability: what every other list of the agent is drawn from.
	av := a.Available
	v.names(path+".available.expanded", av.Expanded, v.isToolset)
	if av.Count != len(av.Expanded) {
		v.fail(path+".available.count", "is %d, but expanded lists %d", av.Count, len(av.Expanded))
	}
	switch {
	case av.All && av.Declared != nil:
		v.fail(path+".available.declared", "is not null, but all is true")
	case !av.All && av.Declared == nil:
		v.fail(path+".available.declared", "is null, but all is false")
	}
	for i, ts := range av.Declared {
		if why := v.isToolset(ts); why != "" {
			v.fail(index1(path+".available.declared", i), "%q %s", ts, why)
		}
	}
	expanded := make(map[string]bool, len(av.Expanded))
	for _, ts := range av.Expanded {
		expanded[ts] = true
	}
	inAvailable := func(ts string) string {
		if why := v.isToolset(ts); why != "" {
			return why
		}
		if !expanded[ts] {
			return "is not in available.expanded"
		}
		return ""
	}
	v.names(path+".resident", a.Resident, inAvailable)
	v.names(path+".deferred", a.Deferred, inAvailable)
	for i, ts := range a.Deferred {
		if has(a.Resident, ts) {
			v.fail(index1(path+".deferred", i), "%q is resident too", ts)
		}
	}
	v.names(path+".skills", a.Skills, v.isToolset)
	v.names(path+".delegates_to", a.DelegatesTo, func(to string) string {
		if _, ok := v.d.Agents[to]; !ok {
			return "is not a member of agents"
		}
		return ""
	})
	v.names(path+".core_tools", a.CoreTools, func(tool string) string {
		if !has(v.d.CoreTools, tool) {
			return "is not in core_tools"
		}
		return ""
	})
	v.tools(path+".tools", a.Tools, true)
	v.builtTools(path+".tools", a)
	if b := a.ToolBlock; b != nil && (b.ResidentBytes < 0 || b.ResidentTools < 0 || b.AllResidentBytes < 0 || b.AllResidentTools < 0) {
		v.fail(path+".tool_block", "has a negative count")
	}
	// The pair: a declared one carries its lists, an inherited one none.
	ap := a.Approval
	switch ap.Source {
	case kokua.Declared:
		if ap.Confirm == nil || ap.Review == nil {
			v.fail(path+".approval", "is declared, but a list is null")
			return
		}
		v.list(path+".approval.confirm", ap.Confirm, false)
		v.list(path+".approval.review", ap.Review, false)
	case kokua.Inherited:
		if ap.Confirm != nil || ap.Review != nil {
			v.fail(path+".approval", "is inherited, but a list is not null")
		}
	default:
		v.fail(path+".approval.source", "is %q; want \"declared\" or \"inherited\"", ap.Source)
	}
}

// builtTools checks that an agent's tools are what its resident toolsets
// build at its first turn, as kokua-compile writes them (presentation):
// the same names from the same toolsets, in the same order. Decide answers
// from the tools written and a session from the ones built, so a document
// where the two differ (a tool of a toolset that builds empty, one left
// out) would answer the same call two ways; it is refused instead.
func (v *validator) builtTools(path string, a *Agent) {
	if v.err != nil {
		return // the toolsets and lists the build reads are not sound
	}
	built, _ := presentation(v.d.Toolsets, a, func(t string) bool { return has(a.Resident, t) }, nil, len(a.Deferred) > 0, nil)
	if len(built) != len(a.Tools) {
		v.fail(path, "lists %d tools, but its resident toolsets build %d at the first turn", len(a.Tools), len(built))
		return
	}
	for i, t := range built {
		if w := a.Tools[i]; w.Name != t.Name || w.Toolset != t.Toolset {
			v.fail(index1(path, i), "is %s.%s, but its resident toolsets build %s.%s there at the first turn", w.Toolset, w.Name, t.Toolset, t.Name)
			return
		}
	}
}
