package migrate

import (
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// TOML gives Kokua one key whichever way it is written: in a [header]
// table, as a dotted key at any level, or as a member of an inline table.
// The migration reads every old key by its path, so it finds it in any of
// these forms, and writes the new key in the form of the table it goes
// into:
//
//   - a [header] table (or one still to be made) gets a new [header];
//   - a table made by dotted keys gets dotted keys of its own, after its
//     last one: assistant.tools.confirm = [...];
//   - an inline table gets the key inside its braces, as an inline table
//     where the value is one: tools = { available = [...] }.
//
// An old key written as a statement of its own (a line, dotted or not) is
// removed with its line; one written inside an inline table is removed
// from its braces with its comma. A comment can only be on a line of its
// own outside an inline table, so the comments a rewrite moves above a
// key inside one go above the line the inline table is written on.

// inlineTable reports whether t is an inline table: { ... }. A table made
// by a header or by dotted keys (inside an inline table too) spans its
// key alone.
func inlineTable(t *tomlpos.Node) bool {
	if t == nil || t.Kind != tomlpos.KindTable || t.Header || t.ArrayOfTables {
		return false
	}
	from, to := t.Offsets()
	kf, kt := t.KeyOffsets()
	return from != kf || to != kt
}

// dottedTable reports whether t is a table made by dotted keys, or as the
// parent of a header's path: one whose span is its key.
func dottedTable(t *tomlpos.Node) bool {
	return t != nil && t.Kind == tomlpos.KindTable && !t.Header && !t.ArrayOfTables && !inlineTable(t)
}

// inlines are the inline tables a node is written in, outermost first;
// none for a key written as a statement of its own.
func (mg *migration) inlines(n *tomlpos.Node) []*tomlpos.Node {
	path := n.Path()
	var out []*tomlpos.Node
	t := mg.root
	for _, seg := range path[:max(len(path)-1, 0)] {
		if t = t.Get(seg); t == nil {
			return out
		}
		if inlineTable(t) {
			out = append(out, t)
		}
	}
	return out
}

// statementAt is the offset of the line a node's statement starts on: its
// own key's line, or for a key inside an inline table the line of the key
// that table is written under.
func (mg *migration) statementAt(n *tomlpos.Node) int {
	if in := mg.inlines(n); len(in) > 0 && keyFrom(in[0]) > 0 {
		return keyFrom(in[0])
	}
	return keyFrom(n)
}

// members are the key = value pairs written inside an inline table, in
// file order: its own keys, and those of the tables its dotted keys make.
func members(t *tomlpos.Node) []*tomlpos.Node {
	var out []*tomlpos.Node
	var walk func(t *tomlpos.Node)
	walk = func(t *tomlpos.Node) {
		for _, f := range t.Fields {
			if dottedTable(f.Value) {
				walk(f.Value)
				continue
			}
			out = append(out, f.Value)
		}
	}
	walk(t)
	slices.SortFunc(out, func(a, b *tomlpos.Node) int { return keyFrom(a) - keyFrom(b) })
	return out
}

// memberStart is where the i-th member of an inline table starts: its
// first key segment, after the brace or the comma before it.
func (mg *migration) memberStart(t *tomlpos.Node, ms []*tomlpos.Node, i int) int {
	at := valueFrom(t) + 1
	if i > 0 {
		at = valueTo(ms[i-1])
	}
	d := mg.src.Data
	for at < len(d) && (d[at] == ' ' || d[at] == '\t' || d[at] == ',') {
		at++
	}
	return at
}

// inlineEdit is what the migration changes inside one inline table: the
// members it removes and the key = value pairs it adds. Both are written
// at once (inlineEdits), since a member that goes and a key that comes
// may meet at one comma.
type inlineEdit struct {
	gone  []*tomlpos.Node
	added []string
}

// inline is the edit of the inline table t, made on first use.
func (mg *migration) inline(t *tomlpos.Node) *inlineEdit {
	if e, ok := mg.inlineEdits[t]; ok {
		return e
	}
	if mg.inlineEdits == nil {
		mg.inlineEdits = map[*tomlpos.Node]*inlineEdit{}
	}
	e := &inlineEdit{}
	mg.inlineOrder = append(mg.inlineOrder, t)
	mg.inlineEdits[t] = e
	return e
}

// removeMember deletes a key = value from the innermost inline table it is
// written in, with the comma that joined it to the others.
func (mg *migration) removeMember(n *tomlpos.Node) {
	in := mg.inlines(n)
	e := mg.inline(in[len(in)-1])
	e.gone = append(e.gone, n)
}

// writeInlines makes the edits of every inline table: each run of members
// that go, up to the next member that stays, or from the last member that
// stays to the closing brace; the keys added after the last member that
// stays. A table left with no member is written { added } or {}.
func (mg *migration) writeInlines() {
	for _, t := range mg.inlineOrder {
		e := mg.inlineEdits[t]
		ms := members(t)
		gone := make(map[*tomlpos.Node]bool, len(e.gone))
		for _, m := range e.gone {
			gone[m] = true
		}
		var kept []*tomlpos.Node
		for _, m := range ms {
			if !gone[m] {
				kept = append(kept, m)
			}
		}
		if len(kept) == 0 {
			text := ""
			if len(e.added) > 0 {
				text = " " + strings.Join(e.added, ", ") + " "
			}
			mg.edit(valueFrom(t)+1, valueTo(t)-1, text)
			continue
		}
		if len(e.added) > 0 {
			at := valueTo(kept[len(kept)-1])
			mg.edit(at, at, ", "+strings.Join(e.added, ", "))
		}
		for i := 0; i < len(ms); {
			if !gone[ms[i]] {
				i++
				continue
			}
			j := i // the run is ms[i:j]
			for j < len(ms) && gone[ms[j]] {
				j++
			}
			switch {
			case j < len(ms):
				mg.edit(mg.memberStart(t, ms, i), mg.memberStart(t, ms, j), "")
			default:
				mg.edit(valueTo(ms[i-1]), valueTo(ms[j-1]), "")
			}
			i = j
		}
	}
}

// written says how an old key is written: a statement of its own (line),
// or a member of an inline table (inline).
type written struct {
	line   keyLine
	inline bool
}

// writtenOf finds how an old key is written; ok is false when it shares
// its line with something else, which the migration leaves to a person.
func (mg *migration) writtenOf(n *tomlpos.Node) (written, bool) {
	if len(mg.inlines(n)) > 0 {
		return written{inline: true}, true
	}
	kl, ok := mg.keyLine(n)
	return written{line: kl}, ok
}

// remove deletes an old key however it is written.
func (mg *migration) remove(n *tomlpos.Node, w written) {
	mg.gone[n] = true
	if w.inline {
		mg.removeMember(n)
		return
	}
	mg.edit(w.line.from, w.line.to, "")
}

// drop removes a key the migration drops outright: its line, keeping its
// comments (dropLine), or its place inside an inline table, whose own
// line keeps any comment after it.
func (mg *migration) drop(n *tomlpos.Node, w written, key string) {
	mg.gone[n] = true
	if w.inline {
		mg.removeMember(n)
		return
	}
	mg.dropLine(w.line, key)
}

// dottedKey reports whether n's key is the last segment of a dotted key.
func (mg *migration) dottedKey(n *tomlpos.Node) bool {
	d := mg.src.Data
	at := keyFrom(n) - 1
	for at >= 0 && (d[at] == ' ' || d[at] == '\t') {
		at--
	}
	return at >= 0 && d[at] == '.'
}

// newKey is one key a rewrite adds to a table: the comment lines to go
// above it, its key relative to the table, its value's text, and the
// comment that followed the old value on its line.
type newKey struct {
	above    []string
	key      string
	value    string
	trailing string
}

// addKeys writes keys into the existing table t, in t's form: after the
// last line of a [header] table's keys, after the last dotted key of a
// table made by dotted keys, or inside the braces of an inline table. It
// reports false for a table written in no form it can add to (one made
// only as the parent of a header's path).
func (mg *migration) addKeys(t *tomlpos.Node, keys []newKey) bool {
	switch {
	case t.Header:
		var b strings.Builder
		for _, k := range keys {
			b.WriteString(commentLines("", k.above))
			b.WriteString(k.key + " = " + k.value + k.trailing + "\n")
		}
		at := mg.blockEnd(t)
		mg.edit(at, at, b.String())
		return true
	case inlineTable(t):
		var parts []string
		var above []string
		for _, k := range keys {
			above = append(above, k.above...)
			if c := strings.TrimSpace(k.trailing); c != "" {
				above = append(above, c)
			}
			parts = append(parts, k.key+" = "+k.value)
		}
		if len(above) > 0 {
			at := mg.lineStart(mg.statementAt(t))
			mg.edit(at, at, commentLines(mg.indent(at), above))
		}
		mg.inline(t).added = append(mg.inline(t).added, parts...)
		return true
	case mg.lastStatement(t) != nil:
		last := mg.lastStatement(t)
		path := t.Path()
		from := 0 // the segments of path below the table the statement is in
		for i := range path {
			if h := mg.root.Lookup(path[:i+1]...); h != nil && h.Header {
				from = i + 1
			}
		}
		prefix := tomlpos.DottedKey(path[from:]) + "."
		indent := mg.indent(keyFrom(last))
		var b strings.Builder
		for _, k := range keys {
			b.WriteString(commentLines(indent, k.above))
			b.WriteString(indent + prefix + k.key + " = " + k.value + k.trailing + "\n")
		}
		at := mg.lineEnd(valueTo(last))
		mg.edit(at, at, b.String())
		return true
	}
	return false
}

// addable reports whether addKeys can write into t.
func (mg *migration) addable(t *tomlpos.Node) bool {
	return t.Header || inlineTable(t) || mg.lastStatement(t) != nil
}

// lastStatement is the last key = value of a table made by dotted keys
// outside any inline table, nil for any other table: the line after it
// is where a dotted key of its own is added.
func (mg *migration) lastStatement(t *tomlpos.Node) *tomlpos.Node {
	if !dottedTable(t) || len(mg.inlines(t)) > 0 {
		return nil
	}
	var last *tomlpos.Node
	var walk func(t *tomlpos.Node)
	walk = func(t *tomlpos.Node) {
		for _, f := range t.Fields {
			switch v := f.Value; {
			case dottedTable(v):
				walk(v)
			case !v.Header && !v.ArrayOfTables && (last == nil || keyFrom(v) > keyFrom(last)):
				last = v
			}
		}
	}
	walk(t)
	return last
}

// inlineText writes keys as one inline table: { confirm = [...], review = [...] }.
func inlineText(keys []newKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.key + " = " + k.value
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}
