package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/escape"
)

// TestSchemaCopy: the embedded schema, whose descriptions are the hover
// texts of keys, is docs/config.schema.json byte for byte (go generate
// ./internal/lsp refreshes it).
func TestSchemaCopy(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "config.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, schemaJSON) {
		t.Fatal("internal/lsp/config.schema.json differs from docs/config.schema.json: run go generate ./internal/config")
	}
}

// pointer reads a JSON pointer (/properties/agents/...) in a decoded
// document.
func pointer(t *testing.T, doc any, ptr string) any {
	t.Helper()
	for _, seg := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		m, ok := doc.(map[string]any)
		if !ok || m[seg] == nil {
			t.Fatalf("%s: no %q", ptr, seg)
		}
		doc = m[seg]
	}
	return doc
}

// TestKeyDescription: a key's hover text is its description in the
// editor schema, found through tables of tables and arrays of tables; and
// every key the linter's schema knows has one.
func TestKeyDescription(t *testing.T) {
	var raw any
	if err := json.Unmarshal(schemaJSON, &raw); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path []string
		ptr  string
	}{
		{[]string{"assistant", "agent"}, "/properties/assistant/properties/agent/description"},
		{[]string{"assistant", "tools", "review"}, "/properties/assistant/properties/tools/properties/review/description"},
		{[]string{"agents", "coder"}, "/properties/agents/additionalProperties/description"},
		{[]string{"agents", "coder", "tools", "available"}, "/properties/agents/additionalProperties/properties/tools/properties/available/description"},
		{[]string{"security", "auto_approval", "enabled"}, "/properties/security/properties/auto_approval/properties/enabled/description"},
		{[]string{"reviewers", "strict", "model"}, "/properties/reviewers/additionalProperties/properties/model/description"},
		{[]string{"mcp", "server", "url"}, "/properties/mcp/properties/server/items/properties/url/description"},
		{[]string{"security", "confirm_tools"}, "/properties/security/properties/confirm_tools/description"},
	} {
		want := pointer(t, raw, c.ptr).(string)
		if got := keyDescription(c.path); got != want {
			t.Errorf("%v: %q, want %q", c.path, got, want)
		}
	}
	for _, ts := range config.Schema {
		path := make([]string, len(ts.Pattern))
		for i, p := range ts.Pattern {
			path[i] = strings.ReplaceAll(p, "*", "x")
		}
		for _, k := range ts.Keys {
			if keyDescription(append(path, k.Name)) == "" {
				t.Errorf("%s has no description in the editor schema", config.KeyPath(path, k.Name))
			}
		}
	}
	if got := keyDescription([]string{"display", "theme"}); got != "" {
		t.Errorf("a key of a section the schema does not describe has a description: %q", got)
	}
}

// TestPositions: a diagnostic's column counts characters, the protocol's
// UTF-16 code units by default, or UTF-8 or UTF-32 ones when negotiated.
// '🦀' (U+1F980) is one character, two UTF-16 units and four UTF-8 bytes;
// 'é' one character, one UTF-16 unit, two bytes.
func TestPositions(t *testing.T) {
	tx := newText("a = 1\ndescription = \"é🦀 x\"  # 🦀\r\nlast")
	// x is the 19th character of line 2: d(1) ... '"'(15) é(16) 🦀(17) ' '(18) x(19).
	off := strings.Index(tx.s, " x") + 1
	if got := tx.lines.Pos(off); got.Line != 2 || got.Column != 19 {
		t.Fatalf("the diagnostic position of x is %v, want 2:19", got)
	}
	for _, c := range []struct {
		enc  Encoding
		char uint32
	}{{UTF16, 19}, {UTF8, 22}, {UTF32, 18}} {
		p := tx.protocolPos(off, c.enc)
		if p != (Position{Line: 1, Character: c.char}) {
			t.Errorf("%s: %v, want 1:%d", c.enc, p, c.char)
		}
		if back := tx.byteOffset(p, c.enc); back != off {
			t.Errorf("%s: byteOffset(%v) = %d, want %d", c.enc, p, back, off)
		}
	}
	// A UTF-16 column inside the surrogate pair is the character's start;
	// a column past the end of a line is its end, before "\r\n".
	crab := strings.Index(tx.s, "🦀")
	if got := tx.byteOffset(Position{Line: 1, Character: 17}, UTF16); got != crab {
		t.Errorf("a column inside the surrogate pair: offset %d, want %d", got, crab)
	}
	if got := tx.byteOffset(Position{Line: 1, Character: 999}, UTF16); got != strings.Index(tx.s, "\r\n") {
		t.Errorf("a column past the end of the line: offset %d, want the line's end", got)
	}
	if got := tx.byteOffset(Position{Line: 9, Character: 0}, UTF16); got != len(tx.s) {
		t.Errorf("a line past the end: offset %d, want the end", got)
	}
	// An edit in UTF-16 units after the crab lands after it.
	edited := tx.edit(Range{Start: Position{Line: 1, Character: 19}, End: Position{Line: 1, Character: 20}}, "y", UTF16)
	if !strings.Contains(edited.s, "é🦀 y\"") {
		t.Errorf("the edit landed elsewhere: %q", edited.s)
	}
}

// brokenAt puts an unknown toolset on a line that holds a character
// outside the BMP before it, so that its UTF-16 column differs from its
// character column.
func brokenAt(t *testing.T) string {
	return strings.Replace(shipped(t), `available = ["web", "misc"`, `available = ["🦀", "webz", "misc"`, 1)
}

// TestDiagnostics: the findings of kokua-lint, with the same message and
// its notes (the full text), severity, rule and span, the span in UTF-16 units; the rule's page as
// the code's description.
func TestDiagnostics(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	u := fileURI(t, "config.toml")
	text := brokenAt(t)
	got := c.open(u, text)
	want := lintText(nameOf(u), text).Diagnostics
	if len(want) < 2 || len(got) != len(want) {
		t.Fatalf("%d diagnostics, want %d (the CLI's): %+v", len(got), len(want), got)
	}
	tx := newText(text)
	for i, w := range want {
		g := got[i]
		if g.Message != w.Text() || g.Code != w.Rule || g.Source != "kokua-lint" {
			t.Errorf("diagnostic %d: %q [%v], want %q [%s]", i, g.Message, g.Code, w.Text(), w.Rule)
		}
		if g.Range != tx.protocolRange(w.Span, UTF16) {
			t.Errorf("diagnostic %d: range %v, want %v", i, g.Range, tx.protocolRange(w.Span, UTF16))
		}
		if wantSev := map[diag.Severity]DiagnosticSeverity{diag.Error: 1, diag.Warning: 2, diag.Info: 3}[w.Severity]; g.Severity != wantSev {
			t.Errorf("diagnostic %d: severity %v, want %v", i, g.Severity, wantSev)
		}
		href := "https://github.com/kokua-policy/kokua-policy/blob/main/docs/rules/" + w.Rule + ".md"
		if g.CodeDescription == nil || g.CodeDescription.Href != href {
			t.Errorf("diagnostic %d: codeDescription %v, want %s", i, g.CodeDescription, href)
		}
	}
	// On the line of 'webz', after 'available = ["🦀", ', the crab
	// counts two UTF-16 units: the column is the byte column less two.
	line, col := lineOf(t, text, `"webz"`)
	wantRange := Range{Start: Position{Line: line, Character: col - 2}, End: Position{Line: line, Character: col - 2 + 6}}
	found := false
	for _, g := range got {
		if strings.Contains(g.Message, "'webz'") {
			found = true
			if g.Range != wantRange {
				t.Errorf("'webz' at %v, want %v (UTF-16)", g.Range, wantRange)
			}
		}
	}
	if !found {
		t.Errorf("no finding names 'webz': %+v", got)
	}
}

// TestPositionEncodingNegotiated: a client that offers UTF-8 gets UTF-8
// columns, and the initialize result says so; one that offers nothing
// gets UTF-16 and no positionEncoding.
func TestPositionEncodingNegotiated(t *testing.T) {
	c, res := start(t, Options{}, map[string]any{"capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-16", "utf-8"}}}})
	if enc := res["capabilities"].(map[string]any)["positionEncoding"]; enc != "utf-8" {
		t.Fatalf("positionEncoding %v, want utf-8", enc)
	}
	u := fileURI(t, "config.toml")
	text := brokenAt(t)
	line, col := lineOf(t, text, `"webz"`) // col in bytes
	for _, g := range c.open(u, text) {
		if strings.Contains(g.Message, "'webz'") && g.Range.Start != (Position{Line: line, Character: col}) {
			t.Errorf("'webz' at %v, want %d:%d in UTF-8", g.Range.Start, line, col)
		}
	}
	_, res = start(t, Options{}, nil)
	if enc, ok := res["capabilities"].(map[string]any)["positionEncoding"]; ok {
		t.Errorf("positionEncoding %v for a client that offered none", enc)
	}
	if chooseEncoding([]Encoding{UTF16, UTF32}) != UTF32 {
		t.Error("UTF-32 offered without UTF-8 should be chosen")
	}
}

// TestIncrementalEdits: edits arrive as ranges, and each version is
// linted: a clean config, a typo typed into it, the typo fixed.
func TestIncrementalEdits(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	u := fileURI(t, "config.toml")
	text := shipped(t)
	if got := c.open(u, text); len(got) != 0 {
		t.Fatalf("the shipped config has %d diagnostics: %+v", len(got), got)
	}
	at := find(t, text, `"web"`, 4) // just before the closing quote
	got := c.change(u, 2, Range{Start: at, End: at}, "b")
	if len(got) != 1 || got[0].Code != "unknown-toolset" || !strings.Contains(got[0].Message, "'webb'") {
		t.Fatalf("after typing 'webb': %+v", got)
	}
	end := at
	end.Character++
	if got := c.change(u, 3, Range{Start: at, End: end}, ""); len(got) != 0 {
		t.Fatalf("after deleting the b: %+v", got)
	}
}

// TestDebounce: with a debounce, a burst of edits is linted once, for its
// last version.
func TestDebounce(t *testing.T) {
	c, _ := start(t, Options{Debounce: 50 * 1e6}, nil)
	u := fileURI(t, "config.toml")
	text := shipped(t)
	c.open(u, text)
	at := find(t, text, `"web"`, 4)
	for i, ch := range "bbb" {
		c.notify(methodDidChange, map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": 2 + i},
			"contentChanges": []any{map[string]any{"range": Range{Start: at, End: at}, "text": string(ch)}},
		})
	}
	p := c.wait(u)
	if p.Version != 4 || len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, "'webbbb'") {
		t.Fatalf("want one lint of version 4 naming 'webbbb', got version %d: %+v", p.Version, p.Diagnostics)
	}
}

// TestNotKokua: a TOML file with no Kokua table gets no diagnostics, even
// when it is broken; a Kokua config that is broken gets invalid-toml.
func TestNotKokua(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	for _, text := range []string{
		"[build]\ntarget = \n",
		"[package]\nname = \"x\"\n[dependencies]\nserde = \"1\"\n",
		"[security]\nenableInlineShortcodes = false\n",
	} {
		if got := c.open(fileURI(t, "Cargo.toml"), text); len(got) != 0 {
			t.Errorf("%q: %+v", text, got)
		}
	}
	got := c.open(fileURI(t, "config.toml"), "[agents.coder.tools]\navailable = [\n")
	if len(got) != 1 || got[0].Code != "invalid-toml" {
		t.Errorf("a broken Kokua config: %+v", got)
	}
}

// TestSuppression: a warning suppressed with a reason is not published;
// without the reason it is, with suppression-invalid.
func TestSuppression(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	base := shipped(t) + "\n[github_backup]\nrepo = \"me/state\"\n"
	got := c.open(fileURI(t, "config.toml"), base)
	if len(got) != 1 || got[0].Code != "unused-section" {
		t.Fatalf("want the unused-section warning, got %+v", got)
	}
	hidden := strings.Replace(base, "[github_backup]", "# kokua-lint: ignore[unused-section] set up next week\n[github_backup]", 1)
	if got := c.open(fileURI(t, "config.toml"), hidden); len(got) != 0 {
		t.Fatalf("a suppressed warning was published: %+v", got)
	}
}

// TestHover: a key's meaning from the editor schema; a toolset's kind,
// tools and who declares it; an entry's tools, agents and timing; an
// agent's resolved access as kokua-compile agents prints it.
func TestHover(t *testing.T) {
	c, _ := start(t, Options{}, nil)
	u := fileURI(t, "config.toml")
	text := shipped(t)
	c.open(u, text)

	if got, want := c.hover(u, find(t, text, "available", 3)), keyDescription([]string{"agents", "x", "tools", "available"}); !strings.Contains(got, want) || !strings.Contains(got, "[agents.assistant.tools].available") {
		t.Errorf("hover on available: %q, want the schema's %q", got, want)
	}
	got := c.hover(u, find(t, text, `"web"`, 2))
	for _, s := range []string{"**`web`**", "built-in toolset", "Tools (", "`web_search`", "Declared available by `researcher`"} {
		if !strings.Contains(got, s) {
			t.Errorf("hover on 'web' lacks %q:\n%s", s, got)
		}
	}
	got = c.hover(u, find(t, text, `"mcp.add_mcp_server"`, 3))
	for _, s := range []string{"approval entry `mcp.add_mcp_server`", "[assistant.tools].confirm", "Gates 1 tool of `mcp`: `add_mcp_server`", "`assistant`", "Settled at the toolset's build"} {
		if !strings.Contains(got, s) {
			t.Errorf("hover on the entry lacks %q:\n%s", s, got)
		}
	}
	got = c.hover(u, find(t, text, `"compute.run_command"`, 3))
	for _, s := range []string{"`coder`", "Settled at startup"} {
		if !strings.Contains(got, s) {
			t.Errorf("hover on compute.run_command lacks %q:\n%s", s, got)
		}
	}
	res := lintText(nameOf(u), text)
	var want strings.Builder
	if err := engine.WriteAgent(&want, res.World, res.World.Agent("coder")); err != nil {
		t.Fatal(err)
	}
	got = c.hover(u, find(t, text, `"coder"`, 2))
	if !strings.Contains(got, want.String()) || !strings.HasPrefix(want.String(), "coder\n  available: fs, fs_write") {
		t.Errorf("hover on 'coder' in delegates_to:\n%s\nwant kokua-compile agents' block:\n%s", got, want.String())
	}
	if got := c.hover(u, find(t, text, "# Kokua", 3)); got != "" {
		t.Errorf("hover on a comment: %q", got)
	}
}

// TestHoverNamesAreText (issue 40): what a hover quotes from the config
// or the manifest is text in the Markdown: an agent whose name holds a
// fence stays inside its block, and a toolset's description shows its
// link, mention and emphasis as written, none of them live.
func TestHoverNamesAreText(t *testing.T) {
	agent := "a```b"
	text := shipped(t) + `
[[mcp.server]]
name = "evil"
url = "https://example.com/mcp"
description = "[Approved](https://evil.example) by @security-team, **safe**"

[agents."` + agent + `".tools]
available = ["evil"]
`
	w := lintText("config.toml", text).World
	if w.Agent(agent) == nil || w.Toolset("evil") == nil {
		t.Fatal("the config does not declare the agent and the server")
	}
	block := agentText(w, agent)
	if fence := escape.MarkdownFence(agent); !strings.HasPrefix(block, fence+"text\n") || !strings.HasSuffix(block, "\n"+fence+"\n") {
		t.Errorf("the agent's block is not fenced past the backticks of its name:\n%s", block)
	}
	desc := toolsetText(w, "evil")
	for _, live := range []string{"[Approved](", "@security-team", "**safe**"} {
		if strings.Contains(desc, live) {
			t.Errorf("the description's %q is written raw:\n%s", live, desc)
		}
	}
	if want := escape.MarkdownText("[Approved](https://evil.example) by @security-team, **safe**"); !strings.Contains(desc, want) {
		t.Errorf("the hover does not show the description as text %q:\n%s", want, desc)
	}
}

// TestHoverListsAreBounded (issue 40): a hover names at most five tools or
// agents of a list and counts the rest, where it once named them all.
func TestHoverListsAreBounded(t *testing.T) {
	var names []string
	for i := range 200 {
		names = append(names, fmt.Sprintf("tool_%d", i))
	}
	if got, want := codes(names), "`tool_0`, `tool_1`, `tool_2`, `tool_3`, `tool_4` and 195 more"; got != want {
		t.Errorf("codes of 200 names = %q, want %q", got, want)
	}
	if got, want := orCodes(names[:2]), "`tool_0` or `tool_1`"; got != want {
		t.Errorf("orCodes of 2 names = %q, want %q", got, want)
	}
	if got, want := codes(names[:3]), "`tool_0`, `tool_1`, `tool_2`"; got != want {
		t.Errorf("codes of 3 names = %q, want %q", got, want)
	}
}
