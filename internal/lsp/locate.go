package lsp

import (
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

// within reports whether the byte offset off lies in the bytes from..to
// of a node or its key, the end included: a cursor just after a word is
// still on it. A node or key has at least one byte: 0, 0 is none.
func within(from, to, off int) bool {
	return to > 0 && from <= off && off <= to
}

// locate finds what the byte offset points at in a parsed config, or
// returns false when it points at nothing: white space, a comment, a
// table's own brackets.
func locate(root *tomlpos.Node, p int) (spot, bool) {
	return locateIn(root, p)
}

func locateIn(t *tomlpos.Node, p int) (spot, bool) {
	for _, f := range t.Fields {
		v := f.Value
		if from, to := v.KeyOffsets(); within(from, to, p) {
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
			if !inSpan(v, p) {
				continue
			}
			for _, it := range v.Items {
				if inSpan(it, p) {
					if it.Kind == tomlpos.KindTable {
						return locateIn(it, p)
					}
					return spot{node: it, list: v}, true
				}
			}
			return spot{node: v}, true
		case inSpan(v, p):
			return spot{node: v}, true
		}
	}
	return spot{}, false
}

// inSpan reports whether the byte offset p lies in the value of n.
func inSpan(n *tomlpos.Node, p int) bool {
	from, to := n.Offsets()
	return within(from, to, p)
}
