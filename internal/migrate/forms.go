package migrate

import (
	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// TOML gives Kokua one key whichever way it is written: in a [header]
// table, as a dotted key at any level, or as a member of an inline table.
// The migration reads every old key by its path, so it finds it in any of
// these forms, and writes the new key in the form of the table it goes
// into, with the one TOML editor (internal/tomledit), which the linter's
// fixes use too:
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

// written says how an old key is written: a statement of its own (line),
// or a member of an inline table (inline).
type written struct {
	line   tomledit.Line
	inline bool
}

// writtenOf finds how an old key is written: a statement of its own, or a
// member of an inline table.
func (mg *migration) writtenOf(n *tomlpos.Node) (written, bool) {
	if mg.doc.InlineOf(n) != nil {
		return written{inline: true}, true
	}
	kl, ok := mg.doc.KeyLine(n)
	return written{line: kl}, ok
}

// remove deletes an old key however it is written.
func (mg *migration) remove(n *tomlpos.Node, _ written) {
	mg.gone[n] = true
	mg.ed.RemoveKey(n)
}

// drop removes a key the migration drops outright: its line, keeping its
// comments (dropLine), or its place inside an inline table, whose own
// line keeps any comment after it.
func (mg *migration) drop(n *tomlpos.Node, w written, key string) {
	mg.gone[n] = true
	if w.inline {
		mg.ed.RemoveKey(n)
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
