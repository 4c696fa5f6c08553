package lsp

import (
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// place is where completion was asked for, read from the text rather than
// from a parse: a config being typed is often not valid TOML.
type place struct {
	// table is the path of the table the cursor is in, from the last
	// header above it.
	table []string
	// key is the (dotted) key whose value the cursor is in; nil at a key.
	key []string
	// atKey is true where a key is being written: at the start of a line
	// of a table, outside any value.
	atKey bool
	// list is true inside the brackets of the key's array.
	list bool
	// quote is the quote of the string the cursor is in, 0 outside one.
	quote byte
	// start is where the word being completed starts: after the quote in a
	// string, else after the last character that cannot be in a bare key.
	start int
}

// placeAt reads the text up to off.
func placeAt(s string, off int) place {
	var p place
	depth := 0
	lineStart := true
	strStart := 0
	for i := 0; i < off; {
		c := s[i]
		if p.quote != 0 {
			switch {
			case c == '\\' && p.quote == '"':
				i++
			case c == p.quote || c == '\n':
				p.quote = 0
			}
			i++
			continue
		}
		switch {
		case c == '\n':
			lineStart = true
			if depth == 0 {
				p.key = nil
			}
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '#':
			for i < off && s[i] != '\n' {
				i++
			}
			continue
		case lineStart && depth == 0 && c == '[':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			if i+end >= off {
				return place{start: off} // in a header: nothing to offer
			}
			p.table, p.key = headerPath(s[i:i+end]), nil
			i += end
			continue
		case lineStart && depth == 0:
			eq := strings.IndexAny(s[i:], "=\n")
			if eq < 0 || s[i+eq] == '\n' || i+eq >= off {
				p.atKey, p.start = true, i
				return p
			}
			p.key = splitKey(s[i : i+eq])
			i += eq + 1
			lineStart = false
			continue
		case c == '"' || c == '\'':
			p.quote, strStart = c, i+1
		case c == '[':
			depth++
		case c == ']':
			depth = max(depth-1, 0)
		}
		lineStart = false
		i++
	}
	p.list = depth > 0
	if lineStart && depth == 0 {
		p.atKey = true
	}
	switch {
	case p.quote != 0:
		p.start = strStart
	default:
		p.start = off
		for p.start > 0 && bareKeyChar(s[p.start-1]) {
			p.start--
		}
	}
	return p
}

func bareKeyChar(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// headerPath reads the path of a table header line: [agents."x y".tools].
func headerPath(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimLeft(line, "[")
	if i := strings.IndexByte(line, ']'); i >= 0 {
		line = line[:i]
	}
	return splitKey(line)
}

// splitKey reads a dotted key: agents.coder."tools", quotes removed.
func splitKey(k string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c != ' ' && c != '\t':
			cur.WriteByte(c)
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

func (s *server) completion(p *CompletionParams) *CompletionList {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.current(p.TextDocument.URI)
	list := &CompletionList{Items: []CompletionItem{}}
	if d == nil || !d.kokua {
		return list
	}
	off := d.text.byteOffset(p.Position, s.enc)
	at := placeAt(d.text.s, off)
	replace := Range{Start: d.text.protocolPos(at.start, s.enc), End: p.Position}
	if isTestFile(d.name) {
		s.completeTests(d, at, replace, list)
		return list
	}
	if at.atKey {
		ts := config.SchemaFor(at.table)
		if ts == nil {
			return list
		}
		for _, k := range ts.Accepted() {
			list.Items = append(list.Items, CompletionItem{
				Label: k, Kind: KindProperty, Detail: ts.Key(k).Type.Want(),
				Documentation: &MarkupContent{Kind: markdown, Value: keyDescription(append(slices.Clip(at.table), k))},
				TextEdit:      &TextEdit{Range: replace, NewText: k},
			})
		}
		return list
	}
	if at.key == nil {
		return list
	}
	var w *model.World
	switch {
	case d.linted != nil && d.linted.World != nil:
		w = d.linted.World
	case d.good != nil:
		w = d.good.World
	}
	if w == nil {
		return list
	}
	path := append(slices.Clip(at.table), at.key...)
	add := func(name string, kind CompletionItemKind, detail string) {
		text := tomlpos.BasicString(name)
		if at.quote != 0 {
			text = strings.TrimSuffix(strings.TrimPrefix(text, `"`), `"`)
			if at.quote == '\'' && strings.ContainsAny(name, "'\n") || text != name && at.quote == '\'' {
				return // a literal string cannot hold it
			}
		}
		list.Items = append(list.Items, CompletionItem{Label: name, Kind: kind, Detail: detail,
			FilterText: name, TextEdit: &TextEdit{Range: replace, NewText: text}})
	}
	switch roleOf(path) {
	case roleToolset:
		if path[3] == "available" && !at.list && at.quote != '\'' {
			add("all", KindValue, "every toolset the install registers, in trust order (R46); needs resident")
		}
		for _, t := range w.Toolsets {
			add(t.Name, KindModule, toolsetDetail(t))
		}
	case roleEntry:
		for _, t := range w.Toolsets {
			add(t.Name, KindModule, "every tool of "+t.Name+": "+toolsetDetail(t))
			for _, tool := range t.Tools {
				add(t.Name+"."+tool, KindFunction, "a tool of "+t.Name)
			}
		}
		for _, tool := range w.CoreTools {
			add("core."+tool, KindFunction, "a core tool (R36)")
		}
	case roleAgent:
		for _, a := range w.Agents {
			if len(path) == 3 && path[1] == a.Name {
				continue // an agent does not delegate to itself
			}
			add(a.Name, KindClass, a.Description.Value)
		}
	case roleReviewer:
		for _, r := range w.Config.Reviews {
			add(r.Name, KindClass, "[reviewers."+r.Name+"]")
		}
	}
	return list
}

func toolsetDetail(t *model.Toolset) string {
	if t.Description != "" {
		return t.Kind + ": " + t.Description
	}
	return t.Kind
}
