package install

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/jsonpos"
	"github.com/kokua-policy/kokua-policy/internal/lineindex"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
)

// The rules of kokua-compile manifest --check's findings: what changed
// between the pinned manifest and the live install.
const (
	// RuleToolAdded: a toolset lists a tool the pinned manifest does not.
	RuleToolAdded = "manifest-tool-added"
	// RuleToolRemoved: a tool the pinned manifest lists is gone.
	RuleToolRemoved = "manifest-tool-removed"
	// RuleToolChanged: a tool's description or input schema changed under
	// the same name.
	RuleToolChanged = "manifest-tool-changed"
	// RuleToolsetAdded, RuleToolsetRemoved: a toolset (a skill, a server,
	// a plugin) the pinned manifest does not list, or lists and is gone.
	RuleToolsetAdded   = "manifest-toolset-added"
	RuleToolsetRemoved = "manifest-toolset-removed"
	// RuleToolsetChanged: a toolset's kind, description (a skill's
	// SKILL.md) or connection changed.
	RuleToolsetChanged = "manifest-toolset-changed"
)

// LiveName is how a check names the live install's manifest.
const LiveName = "<live install>"

// Check compares the pinned manifest with the live one (Read's) and
// returns one finding per change, positioned in the pinned manifest:
// every toolset added or removed, every tool added, removed or whose
// description or input schema changed. An added or changed tool says
// which agents can call it and with what answer, and its grade: the
// config is compiled against either manifest and the two compared with
// kokua-compile diff's engine (diff.Compare), so that a tool is graded as
// diff grades it; a changed tool is graded as a tool its callers gain
// (reach.ToolGrade), since what it does for them is new. A pinned
// manifest that does not follow the format is an error; a tool the
// pinned manifest lists without a spec is compared by name alone.
func Check(pinned Source, live []byte, cfg Source) ([]diag.Diagnostic, error) {
	pm, problems := manifest.Load(pinned.Name, pinned.Data)
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s: %s (invalid-manifest; kokua-lint --manifest %s reports every problem)", problems[0].Span, problems[0].Message, pinned.Name)
	}
	lm, problems := manifest.Load(LiveName, live)
	if len(problems) > 0 {
		return nil, fmt.Errorf("the live install's manifest does not follow the format: %s: %s", problems[0].Span, problems[0].Message)
	}
	root, err := jsonpos.Parse(pinned.Data)
	if err != nil {
		return nil, err
	}
	c := &checker{pinned: pm, live: lm, root: root, lines: lineindex.New(pinned.Name, pinned.Data)}
	c.grade(pinned, live, cfg)
	c.compare()
	return diag.Sort(c.out), nil
}

// checker holds what one check compares and what it found.
type checker struct {
	pinned, live *manifest.Manifest
	root         *jsonpos.Value
	lines        *lineindex.Index
	// old and cur are the config compiled against the pinned and the live
	// manifest, and report their comparison; nil when the config has
	// errors against either, and unknown then says why.
	old, cur *diff.Side
	report   *diff.Report
	unknown  string
	out      []diag.Diagnostic
}

// grade compiles the config against both manifests and compares them.
func (c *checker) grade(pinned Source, live []byte, cfg Source) {
	src := lint.Source{Name: cfg.Name, Data: cfg.Data}
	for _, side := range []struct {
		m    *lint.Manifest
		dst  **diff.Side
		what string
	}{
		{lint.LoadManifest(lint.Source{Name: pinned.Name, Data: pinned.Data}), &c.old, "the pinned manifest " + pinned.Name},
		{lint.LoadManifest(lint.Source{Name: LiveName, Data: live}), &c.cur, "the live install"},
	} {
		s, _, err := diff.Load(src, side.m, nil)
		if err != nil || s == nil {
			c.old, c.cur = nil, nil
			c.unknown = fmt.Sprintf("who can call it is not known: %s has errors against %s (kokua-lint lists them)", cfg.Name, side.what)
			return
		}
		*side.dst = s
	}
	c.report = diff.Compare(c.old, c.cur)
}

// compare walks the live toolsets, then the pinned ones that are gone.
func (c *checker) compare() {
	items := c.root.Get("toolsets").Items
	for _, lt := range c.live.Toolsets {
		i := c.pinnedIndex(lt.Name)
		if i < 0 {
			c.toolsetAdded(lt)
			continue
		}
		c.toolset(c.pinned.Toolsets[i], items[i], lt)
	}
	for i, pt := range c.pinned.Toolsets {
		if c.liveIndex(pt.Name) < 0 && c.pinnedIndex(pt.Name) == i {
			c.toolsetRemoved(pt)
		}
	}
}

func (c *checker) pinnedIndex(name string) int { return indexOf(c.pinned.Toolsets, name) }
func (c *checker) liveIndex(name string) int   { return indexOf(c.live.Toolsets, name) }

// indexOf is the index of the first toolset of that name, -1 for none.
func indexOf(ts []*manifest.Toolset, name string) int {
	for i, t := range ts {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// toolset compares one toolset both list.
func (c *checker) toolset(pt *manifest.Toolset, pv *jsonpos.Value, lt *manifest.Toolset) {
	label := toolsetLabel(lt)
	switch {
	case pt.Kind != lt.Kind:
		c.add(RuleToolsetChanged, diag.Warning, pt.Span, toolsetKey(pt.Name), fmt.Sprintf("%s is a toolset of kind %s in the live install; the manifest lists it as kind %s", label, lt.Kind, pt.Kind), nil)
	case pt.Kind == kokua.KindMCP && pt.Connected != lt.Connected:
		how := "is connected in the live install; the manifest records it as not connected"
		if !lt.Connected {
			how = "is not connected in the live install; the manifest records it as connected"
		}
		c.add(RuleToolsetChanged, diag.Warning, pt.Span, toolsetKey(pt.Name), label+" "+how, nil)
	case pt.Kind != kokua.KindMCP && pt.Description != lt.Description:
		at := c.valueSpan(pv.Get("description"), pt.Span)
		c.add(RuleToolsetChanged, diag.Warning, at, toolsetKey(pt.Name)+".description", fmt.Sprintf("the description of %s changed since the manifest was written", label),
			[]string{"was: " + clipQuote(pt.Description), "now: " + clipQuote(lt.Description)})
	}
	tools := pv.Get("tools").Items
	for j, ptool := range pt.Tools {
		if !lt.Builds(ptool.Name) && firstTool(pt, ptool.Name) == j {
			c.toolRemoved(pt, ptool, "")
		}
	}
	for _, ltool := range lt.Tools {
		j := firstTool(pt, ltool.Name)
		if j < 0 {
			c.toolAdded(lt, ltool, pt.Span)
			continue
		}
		c.toolChanged(pt, pt.Tools[j], tools[j], ltool)
	}
}

// firstTool is the index of a toolset's first tool of that name, -1 for
// none.
func firstTool(t *manifest.Toolset, name string) int {
	for i, tool := range t.Tools {
		if tool.Name == name {
			return i
		}
	}
	return -1
}

// toolsetAdded reports a toolset the pinned manifest does not list, and
// each of its tools, at the manifest's toolsets array.
func (c *checker) toolsetAdded(lt *manifest.Toolset) {
	at := c.openingSpan(c.root.Get("toolsets"))
	c.add(RuleToolsetAdded, diag.Warning, at, toolsetKey(lt.Name), fmt.Sprintf("the live install has %s, with %s, which the manifest does not list", toolsetLabel(lt), plural(len(lt.Tools), "tool")), nil)
	for _, tool := range lt.Tools {
		c.toolAdded(lt, tool, at)
	}
}

// toolsetRemoved reports a toolset the live install no longer has, and
// each of its tools.
func (c *checker) toolsetRemoved(pt *manifest.Toolset) {
	c.add(RuleToolsetRemoved, diag.Warning, pt.Span, toolsetKey(pt.Name), fmt.Sprintf("the live install no longer has %s, which the manifest lists", toolsetLabel(pt)), nil)
	for j, tool := range pt.Tools {
		if firstTool(pt, tool.Name) == j {
			c.toolRemoved(pt, tool, " (with its toolset)")
		}
	}
}

// toolAdded reports a tool the live install lists and the manifest does
// not: who can call it, with what answer, and diff's grade.
func (c *checker) toolAdded(lt *manifest.Toolset, tool *manifest.Tool, at diag.Span) {
	who, notes := c.callers(c.cur, lt.Name, tool.Name)
	grade := c.addedGrade(lt.Name, tool.Name)
	msg := fmt.Sprintf("%s lists a new tool %s, which the manifest does not%s", toolsetLabel(lt), printable.Quote(tool.Name), c.summary(who, grade, "can"))
	c.add(RuleToolAdded, c.severity(who), at, toolKey(lt.Name, tool.Name), msg, notes)
}

// toolRemoved reports a tool the manifest lists and the live install no
// longer does, with who could call it.
func (c *checker) toolRemoved(pt *manifest.Toolset, tool *manifest.Tool, with string) {
	who, notes := c.callers(c.old, pt.Name, tool.Name)
	msg := fmt.Sprintf("%s no longer lists the tool %s%s%s", toolsetLabel(pt), printable.Quote(tool.Name), with, c.summary(who, reach.NoGrade, "could"))
	c.add(RuleToolRemoved, diag.Warning, tool.Span, toolKey(pt.Name, tool.Name), msg, notes)
}

// toolChanged compares one tool's specs: its description, its input
// schema, and the rest of the spec, each reported at its value.
func (c *checker) toolChanged(pt *manifest.Toolset, ptool *manifest.Tool, pv *jsonpos.Value, ltool *manifest.Tool) {
	if ptool.Spec == nil || ltool.Spec == nil || ptool.Digest != "" && ptool.Digest == ltool.Digest {
		return
	}
	pspec, lspec := specFields(ptool.Spec), specFields(ltool.Spec)
	specV := pv.Get("spec")
	who, notes := c.callers(c.cur, pt.Name, ltool.Name)
	grade := reach.Info
	if len(who) > 0 {
		grade = reach.ToolGrade(c.cur.Graph.ToolClasses(pt.Name, ltool.Name))
	}
	name := printable.Quote(pt.Name + "." + ltool.Name)
	report := func(field, what string, extra []string) {
		at := c.valueSpan(specV.Get(field), ptool.Span)
		key := toolKey(pt.Name, ltool.Name) + ".spec"
		if specV.Get(field) != nil {
			key += "." + field
		}
		msg := fmt.Sprintf("the %s of %s (%s) changed since the manifest was written%s", what, name, toolsetLabel(pt), c.summary(who, grade, "can"))
		c.add(RuleToolChanged, c.severity(who), at, key, msg, append(extra, notes...))
	}
	changed := false
	if !bytes.Equal(pspec["description"], lspec["description"]) {
		report("description", "description", []string{"was: " + clipQuote(textOf(pspec["description"])), "now: " + clipQuote(textOf(lspec["description"]))})
		changed = true
	}
	if !bytes.Equal(pspec["parameters"], lspec["parameters"]) {
		report("parameters", "input schema", nil)
		changed = true
	}
	if !changed {
		report("", "spec", nil)
	}
}

// specFields are a spec's top-level members, each in canonical form.
func specFields(spec []byte) map[string][]byte {
	root, err := jsonpos.Parse(spec)
	out := map[string][]byte{}
	if err != nil || root.Kind != jsonpos.Object {
		return out
	}
	for _, m := range root.Members {
		if v, err := manifest.Canonical(spec[m.Value.From:m.Value.To]); err == nil {
			out[m.Name] = v
		}
	}
	return out
}

// textOf is a canonical JSON string's text, or the JSON itself when it is
// not a string.
func textOf(v []byte) string {
	if s, err := strconv.Unquote(string(v)); err == nil {
		return s
	}
	root, err := jsonpos.Parse(v)
	if err == nil && root.Kind == jsonpos.String {
		return root.Str
	}
	return string(v)
}

// callers are the agents of a side that can call a tool, each with its
// answer ("assistant: confirm: asks the user"), as notes; nil when no
// agent can, or the side is not known (a note then says why).
func (c *checker) callers(s *diff.Side, toolset, tool string) ([]string, []string) {
	if s == nil {
		return nil, []string{c.unknown}
	}
	var who, notes []string
	for _, a := range s.Graph.Agents {
		if !a.Reachable {
			continue
		}
		for _, ans := range a.Answers {
			if ans.Toolset == toolset && ans.Tool == tool && ans.Level > reach.Unavailable {
				who = append(who, a.Name)
				notes = append(notes, fmt.Sprintf("%s can call it: %s", printable.Quote(a.Name), ans.Describe()))
				break
			}
		}
	}
	return who, notes
}

// addedGrade is the grade diff gives a tool added to the registry: its
// own line when its toolset was there before, its toolset's when the
// toolset came (or connected) with it.
func (c *checker) addedGrade(toolset, tool string) reach.Grade {
	if c.report == nil || c.report.Manifest == nil {
		return reach.NoGrade
	}
	for _, t := range c.report.Manifest.Tools {
		if t.Toolset == toolset && t.Tool == tool && t.Change == "added" {
			return t.Grade
		}
	}
	for _, t := range c.report.Manifest.Toolsets {
		if t.Toolset == toolset && (t.Change == "added" || t.Change == "connected") {
			return t.Grade
		}
	}
	return reach.NoGrade
}

// summary ends a message with who can call the tool and its grade.
func (c *checker) summary(who []string, grade reach.Grade, can string) string {
	var s string
	switch {
	case c.old == nil:
		return ""
	case len(who) == 0:
		s = fmt.Sprintf(": no agent %s call it", can)
	case len(who) == 1:
		s = fmt.Sprintf(": 1 agent %s call it", can)
	default:
		s = fmt.Sprintf(": %d agents %s call it", len(who), can)
	}
	if grade != reach.NoGrade {
		s += " (" + grade.String() + ")"
	}
	return s
}

// severity is an error for a change some agent can call, or that may be
// called when who can is not known; a warning when no agent can.
func (c *checker) severity(who []string) diag.Severity {
	if len(who) > 0 || c.old == nil {
		return diag.Error
	}
	return diag.Warning
}

func (c *checker) add(rule string, sev diag.Severity, at diag.Span, key, msg string, notes []string) {
	c.out = append(c.out, diag.Diagnostic{Rule: rule, Severity: sev, Phase: diag.PhaseRegister, Message: msg, Span: at, Key: key, Notes: notes,
		Suggestion: "if the change is expected, write the manifest again with kokua-compile manifest and review its diff; if not, find out who changed the install"})
}

// valueSpan is the span of a value of the pinned manifest, or else when
// there is none.
func (c *checker) valueSpan(v *jsonpos.Value, or diag.Span) diag.Span {
	if v == nil {
		return or
	}
	return c.lines.Span(v.From, v.To)
}

// openingSpan is the first character of a value: an array's "[".
func (c *checker) openingSpan(v *jsonpos.Value) diag.Span {
	return c.lines.Span(v.From, v.From+1)
}

// toolsetLabel names a toolset with its kind, for a message.
func toolsetLabel(t *manifest.Toolset) string {
	switch t.Kind {
	case kokua.KindMCP:
		return "the MCP server " + printable.Quote(t.Name)
	case kokua.KindSkill:
		return "the skill " + printable.Quote(t.Name)
	case kokua.KindPlugin:
		return "the plugin toolset " + printable.Quote(t.Name)
	}
	return "Kokua's toolset " + printable.Quote(t.Name)
}

// toolsetKey and toolKey are the key paths of a toolset and a tool in a
// manifest, as kokua-compile diff writes them.
func toolsetKey(name string) string { return "toolsets[" + strconv.Quote(name) + "]" }
func toolKey(toolset, tool string) string {
	return toolsetKey(toolset) + ".tools[" + strconv.Quote(tool) + "]"
}

// clipQuote quotes a description for a note, shortened to maxQuoted bytes.
func clipQuote(s string) string { return quoted(s) }

// plural writes a count and a noun, with an s unless the count is one.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return printable.Thousands(n) + " " + noun + "s"
}
