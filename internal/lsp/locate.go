package lsp

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// spot is what a position of the config points at.
type spot struct {
	// node is the value at the position, or the value whose key it is on.
	node *tomlpos.Node
	// onKey is true on the key itself (a key of key = value, or a segment
	// of a table header that names the table).
	onKey bool
	// list is the array holding node when node is one of its strings.
	list *tomlpos.Node
}

// path is the key path of the value: for an element of a list, the list's.
func (s spot) path() []string {
	if s.list != nil {
		return s.list.Path()
	}
	return s.node.Path()
}

// within reports whether p lies in the span, its end included: a cursor
// just after a word is still on it.
func within(s diag.Span, p diag.Position) bool {
	return !s.IsZero() && s.Start.Compare(p) <= 0 && p.Compare(s.End) <= 0
}

// locate finds what the position points at in a parsed config, or
// returns false when it points at nothing: white space, a comment, a
// table's own brackets.
func locate(root *tomlpos.Node, p diag.Position) (spot, bool) {
	return locateIn(root, p)
}

func locateIn(t *tomlpos.Node, p diag.Position) (spot, bool) {
	for _, f := range t.Fields {
		v := f.Value
		if within(v.Key(), p) {
			return spot{node: v, onKey: true}, true
		}
		switch {
		case v.Kind == tomlpos.KindTable:
			if s, ok := locateIn(v, p); ok {
				return s, true
			}
		case v.Kind == tomlpos.KindArray && v.ArrayOfTables:
			for _, it := range v.Items {
				if s, ok := locateIn(it, p); ok {
					return s, true
				}
			}
		case v.Kind == tomlpos.KindArray:
			if !within(v.Span(), p) {
				continue
			}
			for _, it := range v.Items {
				if within(it.Span(), p) {
					if it.Kind == tomlpos.KindTable {
						return locateIn(it, p)
					}
					return spot{node: it, list: v}, true
				}
			}
			return spot{node: v}, true
		case within(v.Span(), p):
			return spot{node: v}, true
		}
	}
	return spot{}, false
}
