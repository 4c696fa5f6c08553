package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// unprintable-name: a name the config gives an agent, a reviewer or an MCP
// server, or a name it writes where it refers to one (a toolset in a
// tool-access list, an approval entry, delegates_to, [assistant].agent,
// the reviewers list), that holds a rune printable.Unsafe reports: a control
// character, a bidirectional formatting character, an invisible one.
// Kokua reads any string as a name, so this is the project's own check
// (issue 13), and a warning: Kokua starts. Every output of the project
// escapes such names; the warning is for the reader of the file and for
// whatever else prints the name.
var unprintableNameRule = &Rule{
	ID:       "unprintable-name",
	Severity: diag.Warning,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R2", "R15", "R16"},
	Summary:  "a name holds a control, bidirectional or invisible character, so it does not show as what Kokua reads",
	Needs:    NeedsConfig,
	Check:    checkUnprintableNames,
}

// nameKind is what a name names. A reference is reported at the
// definition when the file defines a name of its kind with that spelling.
type nameKind uint8

const (
	nameAgent nameKind = iota
	nameReviewer
	nameToolset
	// nameEntry is an approval entry: a toolset name, then maybe a tool's.
	nameEntry
)

// nameUse is one place the file writes a name.
type nameUse struct {
	kind nameKind
	// what says what the name is, to open the message: "agent name".
	what string
	name string
	span diag.Span
	key  string
}

func checkUnprintableNames(p *Pass) {
	defined := map[nameKind]map[string]bool{nameAgent: {}, nameReviewer: {}, nameToolset: {}}
	for _, d := range nameDefinitions(p.Config) {
		if defined[d.kind][d.name] {
			continue // an MCP server name given twice: duplicate-toolset reports it
		}
		defined[d.kind][d.name] = true
		if len(unseen(d.name)) > 0 {
			p.Report(unprintableFinding(d, nil))
		}
	}

	// A name only referenced is reported once, at its first reference,
	// with the lines of the others in a note.
	type group struct {
		kind nameKind
		name string
	}
	var order []group
	uses := map[group][]nameUse{}
	refs := unprintableReferences(p.Config)
	slices.SortStableFunc(refs, func(a, b nameUse) int { return a.span.Start.Compare(b.span.Start) })
	for _, r := range refs {
		if definedElsewhere(r, defined) {
			continue
		}
		g := group{r.kind, r.name}
		if uses[g] == nil {
			order = append(order, g)
		}
		uses[g] = append(uses[g], r)
	}
	for _, g := range order {
		p.Report(unprintableFinding(uses[g][0], uses[g][1:]))
	}
}

// definedElsewhere reports whether what is unprintable in a reference is a
// name the file defines, and so is reported at the definition: an agent in
// delegates_to, a reviewer in the reviewers list, an MCP server in a
// tool-access list or as the toolset of an approval entry whose tool part
// is clean.
func definedElsewhere(r nameUse, defined map[nameKind]map[string]bool) bool {
	if r.kind != nameEntry {
		return defined[r.kind][r.name]
	}
	e := kokua.ParseEntry(r.name)
	if e.Fault == kokua.TooManyDots || !defined[nameToolset][e.Toolset] {
		return false
	}
	return len(unseen(r.name[len(e.Toolset):])) == 0
}

// nameDefinitions lists, in file order by kind, the names the config
// defines: [agents.<name>] and [reviewers.<name>] keys, and
// [[mcp.server]] names.
func nameDefinitions(c *config.Config) []nameUse {
	var out []nameUse
	for _, a := range c.Agents {
		out = append(out, nameUse{nameAgent, "agent name", a.Name, a.Span, a.Path})
	}
	for _, r := range c.Reviews {
		out = append(out, nameUse{nameReviewer, "reviewer name", r.Name, r.Span, config.TablePath([]string{"reviewers", r.Name})})
	}
	for _, s := range c.MCPServers {
		out = append(out, nameUse{nameToolset, "MCP server name", s.Name.Value, s.Name.Span, "[[mcp.server]].name"})
	}
	return out
}

// unprintableReferences lists the names the config writes to refer to an
// agent, a reviewer or a toolset that hold a rune printable.Unsafe reports (a
// config of 40,000 clean references costs no list). Kokua's built-in
// lists are left out: the file does not write them.
func unprintableReferences(c *config.Config) []nameUse {
	var out []nameUse
	add := func(u nameUse) {
		if len(unseen(u.name)) > 0 {
			out = append(out, u)
		}
	}
	list := func(kind nameKind, what string, l config.List) {
		if l.Builtin {
			return
		}
		for _, it := range l.Items {
			add(nameUse{kind, what, it.Value, it.Span, l.Path})
		}
	}
	if c.EntryAgent.State == config.Present {
		add(nameUse{nameAgent, "agent name", c.EntryAgent.Value, c.EntryAgent.Span, "[assistant].agent"})
	}
	list(nameEntry, "approval entry", c.DefaultPair.Confirm)
	list(nameEntry, "approval entry", c.DefaultPair.Review)
	for _, a := range c.Agents {
		list(nameAgent, "agent name", a.DelegatesTo)
		t := a.Tools
		if t == nil {
			continue
		}
		list(nameToolset, "toolset name", t.Available.List)
		if s := t.Available.Str; s.State == config.Present && !t.Available.All {
			add(nameUse{nameToolset, "toolset name", s.Value, s.Span, t.Available.Path})
		}
		list(nameToolset, "toolset name", t.Resident)
		list(nameEntry, "approval entry", t.Confirm)
		list(nameEntry, "approval entry", t.Review)
	}
	list(nameEntry, "approval entry", c.Floor)
	list(nameReviewer, "reviewer name", c.Auto.Reviewers)
	return out
}

// unprintableFinding reports a name at u, naming its first unprintable
// rune; why that rune matters, the others, and the further places a
// reference is written go to notes.
func unprintableFinding(u nameUse, more []nameUse) Finding {
	runes := unseen(u.name)
	noun := "name"
	if u.kind == nameEntry {
		noun = "entry"
	}
	class, why := unprintableClass(runes[0], noun)
	f := Finding{Span: u.span, Key: u.key,
		Message: fmt.Sprintf("%s %s holds %U, %s, so it does not show as the %s Kokua reads", u.what, q(u.name), runes[0], class, noun),
		Notes:   []string{why}}
	if len(runes) > 1 {
		others := make([]string, len(runes)-1)
		for i, r := range runes[1:] {
			others[i] = fmt.Sprintf("%U", r)
		}
		f.Notes = append(f.Notes, sentence("it also holds "+listed(others, plain, "and")))
	}
	if lines := otherLines(u, more); lines != "" {
		f.Notes = append(f.Notes, sentence("the same "+u.what+" is also written at "+lines))
	}
	return f
}

// unprintableClass says what kind of character an unprintable rune is,
// and, as a note, how it keeps a reader from seeing the name (or the
// entry: noun) Kokua reads. printable.Unsafe decides which runes are
// unprintable; this only describes them.
func unprintableClass(r rune, noun string) (class, why string) {
	switch {
	case unicode.Is(unicode.Bidi_Control, r):
		return "a bidirectional control", "It reorders the text around it: in an editor, a diff or a terminal, a right-to-left override can make one " + noun + " display as another."
	case unicode.IsControl(r):
		return "a control character", "A terminal printing the " + noun + " may act on it instead of showing it, and an editor may show nothing at all."
	case unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp):
		return "a space or separator other than the ASCII space", "It shows as a blank or a line break, like a character it is not."
	case unicode.Is(unicode.Cf, r):
		return "an invisible character", "It shows as nothing, so two " + noun + "s that look the same can be different to Kokua."
	}
	return "a private-use or unassigned character", "It shows as a box, a font's own glyph or nothing."
}

// otherLines writes the lines of the further places a name is written:
// "line 12", "lines 12 and 20", bounded as listed bounds them.
func otherLines(u nameUse, more []nameUse) string {
	var lines []string
	last := u.span.Start.Line
	for _, m := range more {
		if m.span.Start.Line == last {
			continue
		}
		last = m.span.Start.Line
		lines = append(lines, strconv.Itoa(last))
	}
	switch {
	case len(lines) == 0:
		return ""
	case len(lines) == 1:
		return "line " + lines[0]
	}
	return "lines " + listed(lines, plain, "and")
}

// unseen lists, once each and in order, the runes of a name that
// printable.Unsafe reports, but for a zero-width joiner or non-joiner (U+200D,
// U+200C) inside a word of a script that writes them: Persian, Arabic and
// the Indic scripts use them to spell words, as RFC 5892 allows them in
// domain names. A joiner is kept there when the letters (or marks) on both
// sides are of one script other than Latin, Greek, Cyrillic and Common; in
// a Latin name it only hides a difference.
func unseen(name string) []rune {
	if !strings.ContainsFunc(name, printable.Unsafe) {
		return nil // almost every name: no list of its runes is made
	}
	var out []rune
	runes := []rune(name)
	for i, r := range runes {
		if !printable.Unsafe(r) || slices.Contains(out, r) {
			continue
		}
		if (r == '\u200c' || r == '\u200d') && i > 0 && i+1 < len(runes) && joiningScript(runes[i-1], runes[i+1]) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// joiningScript reports whether two runes are letters or marks of one
// script that spells words with joiners.
func joiningScript(before, after rune) bool {
	wordRune := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }
	if !wordRune(before) || !wordRune(after) {
		return false
	}
	for _, script := range joinerScripts {
		if unicode.Is(script, before) && unicode.Is(script, after) {
			return true
		}
	}
	return false
}

// joinerScripts are the scripts whose words are written with joiners.
var joinerScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi,
	unicode.Gujarati, unicode.Oriya, unicode.Tamil, unicode.Telugu, unicode.Kannada,
	unicode.Malayalam, unicode.Sinhala, unicode.Khmer, unicode.Myanmar, unicode.Tibetan,
}
