package lsp

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/english"
	"github.com/kokua-policy/kokua-policy/internal/escape"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// The roles a string of the config plays, by the key that holds it.
type role uint8

const (
	roleOther    role = iota
	roleToolset       // an item of available or resident
	roleEntry         // an approval entry: confirm, review, never_auto_approve
	roleAgent         // delegates_to, [assistant].agent
	roleReviewer      // [security.auto_approval].reviewers
)

// roleOf says what the strings of the key at path are.
func roleOf(path []string) role {
	n := len(path)
	switch {
	case n == 4 && path[0] == "agents" && path[2] == "tools" && (path[3] == "available" || path[3] == "resident"):
		return roleToolset
	case n == 4 && path[0] == "agents" && path[2] == "tools" && (path[3] == "confirm" || path[3] == "review"),
		n == 3 && path[0] == "assistant" && path[1] == "tools" && (path[2] == "confirm" || path[2] == "review"),
		n == 2 && path[0] == "security" && path[1] == "never_auto_approve":
		return roleEntry
	case n == 3 && path[0] == "agents" && path[2] == "delegates_to",
		n == 2 && path[0] == "assistant" && path[1] == "agent":
		return roleAgent
	case n == 3 && path[0] == "security" && path[1] == "auto_approval" && path[2] == "reviewers":
		return roleReviewer
	}
	return roleOther
}

// at finds what a protocol position of the document points at, in the
// lint of its current text; false when the text is not valid TOML or the
// position is on nothing.
func (s *server) at(d *document, p Position) (spot, bool) {
	if d == nil || d.linted == nil || d.linted.Config == nil {
		return spot{}, false
	}
	return locate(d.linted.Config.Root, d.text.byteOffset(p, s.enc))
}

func (s *server) hover(p *HoverParams) *Hover {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.current(p.TextDocument.URI)
	sp, ok := s.at(d, p.Position)
	if !ok {
		return nil
	}
	text, span := describe(d.linted, sp)
	if text == "" {
		return nil
	}
	r := d.text.protocolRange(span, s.enc)
	return &Hover{Contents: MarkupContent{Kind: markdown, Value: text}, Range: &r}
}

// describe writes the hover text of a spot in Markdown, and the span it
// is about.
func describe(res *engine.Linted, sp spot) (string, diag.Span) {
	w := res.World
	path := sp.path()
	if sp.onKey {
		var b strings.Builder
		if len(path) == 2 && path[0] == "agents" && w != nil && w.Agent(path[1]) != nil {
			b.WriteString(agentText(w, path[1]))
			b.WriteString("\n")
		}
		if desc := keyDescription(path); desc != "" {
			fmt.Fprintf(&b, "**%s**\n\n%s", code(keyTitle(path)), desc)
		}
		return b.String(), sp.node.Key()
	}
	if sp.node.Kind == tomlpos.KindString && w != nil {
		switch roleOf(path) {
		case roleToolset:
			return toolsetText(w, sp.node.Str), sp.node.Span()
		case roleEntry:
			return entryText(w, path, sp.node.Str), sp.node.Span()
		case roleAgent:
			if w.Agent(sp.node.Str) != nil {
				return agentText(w, sp.node.Str), sp.node.Span()
			}
		}
	}
	if desc := keyDescription(path); desc != "" {
		return fmt.Sprintf("**%s**\n\n%s", code(keyTitle(path)), desc), sp.node.Span()
	}
	return "", diag.Span{}
}

// keyTitle spells a key path as a config writes it: [agents.coder.tools].available.
func keyTitle(path []string) string {
	if len(path) == 1 {
		return config.TablePath(path)
	}
	return config.KeyPath(path[:len(path)-1], path[len(path)-1])
}

// code writes s as Markdown inline code.
func code(s string) string { return escape.MarkdownCode(s) }

// codes writes names as code, joined by ", " and bounded as
// english.Names is: a toolset's hundred tools are five and a count.
func codes(names []string) string { return english.Names(names, "", code) }

// agentText is the agent's resolved access, as kokua-compile agents
// prints it.
func agentText(w *model.World, name string) string {
	var b bytes.Buffer
	_ = engine.WriteAgent(&b, w, w.Agent(name))
	// No name in it closes the block.
	return escape.MarkdownBlock("text", b.String())
}

// toolsetText says what a toolset is: its kind, its tools, who registers
// it and which agents declare it.
func toolsetText(w *model.World, name string) string {
	t := w.Toolset(name)
	if t == nil {
		if config.IsAllWord(name) {
			return `**"all"** is not a toolset name: write available = "all", a string, not inside a list (R47).`
		}
		return fmt.Sprintf("%s is not a toolset this install registers (R118).", code(name))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: %s (kind %s)", code(t.Name), kokua.ProviderLabel(t.Kind), code(t.Kind))
	if t.Provider != "" {
		fmt.Fprintf(&b, ", provided by %s", code(t.Provider))
	}
	b.WriteString("\n\n")
	if t.Description != "" {
		// A description is the config's or the manifest's text, shown
		// as text: no link, mention or emphasis of it is live.
		b.WriteString(escape.MarkdownText(t.Description) + "\n\n")
	}
	switch {
	case !t.Connected:
		b.WriteString("Tools: unknown: the MCP server is not connected, so it builds empty (R132).\n\n")
	case len(t.Tools) == 0:
		b.WriteString("Tools: none.\n\n")
	default:
		fmt.Fprintf(&b, "Tools (%d): %s\n\n", len(t.Tools), codes(t.Tools))
	}
	if t.EntryPointOnly {
		b.WriteString("Only the entry agent can hold it.\n\n")
	}
	fmt.Fprintf(&b, "Registered by %s.\n\n", definedAt(w, t.Span))
	var holders []string
	for _, a := range w.Loaders(t.Name) {
		holders = append(holders, a.Name)
	}
	if len(holders) == 0 {
		b.WriteString("No agent declares it available.")
	} else {
		fmt.Fprintf(&b, "Declared available by %s.", codes(holders))
	}
	return b.String()
}

// definedAt names where a toolset is defined: the manifest, or a
// [[mcp.server]] table of the config.
func definedAt(w *model.World, at diag.Span) string {
	switch {
	case at.IsZero():
		return "the manifest"
	case w.Config != nil && at.File == w.Config.File:
		return fmt.Sprintf("the [[mcp.server]] table at line %d", at.Start.Line)
	}
	return fmt.Sprintf("the manifest, %s", code(at.String()))
}

// entryText says what an approval entry gates, for which agents, and
// when Kokua settles it.
func entryText(w *model.World, path []string, text string) string {
	r := w.Resolve(text)
	var b strings.Builder
	fmt.Fprintf(&b, "**approval entry %s** in %s\n\n", code(text), code(keyTitle(path)))
	switch r.Status {
	case model.Matched:
		what := "(core)"
		if r.Toolset != nil {
			what = "of " + code(r.Toolset.Name)
		}
		fmt.Fprintf(&b, "Gates %s %s: %s.\n\n", count(len(r.Tools), "tool"), what, codes(r.Tools))
	case model.Disconnected:
		fmt.Fprintf(&b, "Gates what the MCP server %s provides once it connects; it is not connected, so that is unknown (R132).\n\n", code(r.Entry.Toolset))
	case model.BadGrammar:
		b.WriteString("Gates nothing: it is not an entry Kokua can read (R29): write <toolset>, <toolset>.*, <toolset>.<tool>, core or core.<tool>.\n\n")
	case model.BareTool:
		fmt.Fprintf(&b, "Gates nothing: %s is a tool's name, not a toolset's; write %s (R30).\n\n", code(text), orCodes(r.Homes))
	case model.UnknownToolset:
		fmt.Fprintf(&b, "Gates nothing: %s is not a toolset this install registers (R31).\n\n", code(r.Entry.Toolset))
	case model.NoSuchTool:
		if len(r.Homes) > 0 {
			fmt.Fprintf(&b, "Gates nothing: the tool is filed under the wrong toolset; write %s (R32).\n\n", orCodes(r.Homes))
		} else {
			fmt.Fprintf(&b, "Gates nothing: no tool of that name is in %s (R32).\n\n", code(r.Entry.Toolset))
		}
	case model.NoTools:
		b.WriteString("Gates nothing: the toolset provides no tools (R33).\n\n")
	}
	b.WriteString(entryAgents(w, path, r) + "\n\n")
	if r.Status == model.Matched || r.Status == model.NoSuchTool || r.Status == model.NoTools {
		switch {
		case r.Toolset == nil:
			b.WriteString("Settled at startup: the core tools exist from the start (R78).")
		case r.Resolved() == model.AtStartup:
			fmt.Fprintf(&b, "Settled at startup: Kokua builds %s when it starts (R78).", code(r.Toolset.Name))
		default:
			fmt.Fprintf(&b, "Settled at the toolset's build: no agent holds %s from startup, so Kokua checks the entry when the toolset is first loaded, and refuses that build if the entry matches nothing (R79, R81).", code(r.Toolset.Name))
		}
	}
	return b.String()
}

// count writes "1 tool" or "3 tools".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func orCodes(names []string) string { return english.Names(names, "or", code) }

// entryAgents says which agents a list's entry applies to.
func entryAgents(w *model.World, path []string, r model.Resolution) string {
	holds := func(a *model.Agent) bool {
		return r.Toolset == nil || a.Holds(r.Toolset.Name)
	}
	if path[0] == "security" {
		s := "The floor: no reviewer may answer for these tools, whichever agent calls them (R86)."
		if !w.Config.Auto.Enabled {
			s += " Auto-approval is off, so Kokua does not read the floor (R145)."
		}
		return s
	}
	if path[0] == "agents" {
		a := w.Agent(path[1])
		switch {
		case a == nil:
			return ""
		case !holds(a):
			return fmt.Sprintf("For agent %s (its own pair), which does not hold %s.", code(a.Name), code(r.Toolset.Name))
		}
		return fmt.Sprintf("For agent %s (its own pair).", code(a.Name))
	}
	var names []string
	for _, a := range w.Agents {
		if a.Policy == w.Default && holds(a) {
			names = append(names, a.Name)
		}
	}
	s := "For the agents that inherit [assistant.tools]"
	if r.Toolset != nil {
		s += " and hold " + code(r.Toolset.Name)
	}
	if len(names) == 0 {
		s += ": none"
	} else {
		s += ": " + codes(names)
	}
	if w.Composes {
		s += ", and composed workers"
	}
	return s + "."
}
