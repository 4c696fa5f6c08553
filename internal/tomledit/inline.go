package tomledit

import (
	"bytes"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// inlineEdit is what a change does inside one inline table: the members
// it removes and the key = value pairs it adds. Both are written at once
// (writeInlines), since a member that goes and a key that comes may meet
// at one comma.
type inlineEdit struct {
	gone  []*tomlpos.Node
	added []string
}

// inlineEdit is the edit of the inline table t, made on first use.
func (e *Edits) inlineEdit(t *tomlpos.Node) *inlineEdit {
	if ie, ok := e.inline[t]; ok {
		return ie
	}
	if e.inline == nil {
		e.inline = map[*tomlpos.Node]*inlineEdit{}
	}
	ie := &inlineEdit{}
	e.inlineOrder = append(e.inlineOrder, t)
	e.inline[t] = ie
	return ie
}

// members are the key = value pairs written inside an inline table, in
// file order: its own keys, and those of the tables its dotted keys make.
func members(t *tomlpos.Node) []*tomlpos.Node {
	out := statements(t, nil)
	slices.SortFunc(out, func(a, b *tomlpos.Node) int { return keyFrom(a) - keyFrom(b) })
	return out
}

// memberStart is where the i-th member of an inline table starts: its
// first key segment, after the brace or the comma before it.
func (d *Doc) memberStart(t *tomlpos.Node, ms []*tomlpos.Node, i int) int {
	at := valueFrom(t) + 1
	if i > 0 {
		at = valueTo(ms[i-1])
	}
	return len(d.src) - len(bytes.TrimLeft(d.src[at:], " \t,"))
}

// writeInlines makes the edits of every inline table: each run of members
// that go, up to the next member that stays, or from the last member that
// stays to the last that goes; the keys added after the last member that
// stays. A table left with no member is written { added } or {}.
func (e *Edits) writeInlines() {
	d := e.d
	for _, t := range e.inlineOrder {
		ie := e.inline[t]
		ms := members(t)
		gone := make(map[*tomlpos.Node]bool, len(ie.gone))
		for _, m := range ie.gone {
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
			if len(ie.added) > 0 {
				text = " " + strings.Join(ie.added, ", ") + " "
			}
			e.Replace(valueFrom(t)+1, valueTo(t)-1, text)
			continue
		}
		if len(ie.added) > 0 {
			at := valueTo(kept[len(kept)-1])
			e.Replace(at, at, ", "+strings.Join(ie.added, ", "))
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
			if j < len(ms) {
				e.Replace(d.memberStart(t, ms, i), d.memberStart(t, ms, j), "")
			} else {
				e.Replace(valueTo(ms[i-1]), valueTo(ms[j-1]), "")
			}
			i = j
		}
	}
}
