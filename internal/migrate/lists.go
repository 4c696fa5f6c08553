package migrate

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/tomledit"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// A list the migration writes afresh (old lists joined into one, an entry
// moved from confirm to review, a name left out) keeps every comment it
// held. A comment goes with the item it sits by: after the item on its
// line, or on lines of its own above it. It stays on the line of that
// item's entry in the new list, or, when the item is left out, goes on a
// line of its own above the new key, and a change says so. A comment on the
// '[' line, or after the last item, stays where it was in the list.

// itemRef is one item of one of a plan's old lists.
type itemRef struct{ list, item int }

// oldList is one old key a new list is written from.
type oldList struct {
	node     *tomlpos.Node // its value: a list, or a string naming one toolset
	key      string        // its key path, for the changes
	trailing string        // what followed the value on its line: "  # comment"
}

// goneItem is an old item the new list leaves out, and why.
type goneItem struct {
	itemRef
	why string
}

// listPlan is a list written afresh from old keys: its names in order,
// the old items each stands for, and the old items it leaves out.
type listPlan struct {
	olds  []oldList
	names []string
	from  [][]itemRef
	gone  []goneItem
	index map[string]int // name -> its place in names
}

// list adds an old key and returns its index.
func (p *listPlan) list(n *tomlpos.Node, key, trailing string) int {
	p.olds = append(p.olds, oldList{node: n, key: key, trailing: trailing})
	return len(p.olds) - 1
}

// add appends a name the list does not hold yet, standing for the old
// items refs; a name it holds gains them.
func (p *listPlan) add(name string, refs ...itemRef) {
	if i, ok := p.index[name]; ok {
		p.from[i] = append(p.from[i], refs...)
		return
	}
	if p.index == nil {
		p.index = map[string]int{}
	}
	p.index[name] = len(p.names)
	p.names = append(p.names, name)
	p.from = append(p.from, refs)
}

// drop leaves an old item out of the new list.
func (p *listPlan) drop(ref itemRef, why string) {
	p.gone = append(p.gone, goneItem{itemRef: ref, why: why})
}

// comment is one comment of an old list: its text, with the white space
// before it when it follows something on its line, and its input line.
type comment struct {
	text string
	line int
}

// bare is the comment's text without the white space before it.
func (c comment) bare() string { return strings.TrimLeft(c.text, " \t") }

// listComments are the comments inside one old list, each tied to what it
// sits by.
type listComments struct {
	head  []comment   // on the '[' line before any item (one at most)
	lead  [][]comment // for each item, the comments on lines of their own above it
	trail []comment   // for each item, the comment after it on its line; text "" for none
	tail  []comment   // on lines of their own after the last item
}

// commentsBetween are the comments that start inside from..to, in file
// order.
func (mg *migration) commentsBetween(from, to int) []tomlpos.Comment {
	cs := mg.cfg.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Span.Start.Offset >= from })
	j := sort.Search(len(cs), func(i int) bool { return cs[i].Span.Start.Offset >= to })
	return cs[i:max(i, j)]
}

// commentsIn finds the comments inside the list n. The comments and the
// items are both in file order, so one pass over each ties them up.
func (mg *migration) commentsIn(n *tomlpos.Node) *listComments {
	lc := &listComments{}
	if n.Kind != tomlpos.KindArray {
		return lc
	}
	lc.lead = make([][]comment, len(n.Items))
	lc.trail = make([]comment, len(n.Items))
	from, to := valueFrom(n), valueTo(n)
	item := 0 // the items before the comment
	for _, c := range mg.commentsBetween(from, to) {
		co := c.Span.Start.Offset
		for item < len(n.Items) && valueFrom(n.Items[item]) < co {
			item++
		}
		line := mg.lineStart(co)
		switch {
		case item > 0 && mg.lineStart(valueTo(n.Items[item-1])) == line:
			lc.trail[item-1] = comment{mg.spaced(co, c.Text), c.Span.Start.Line}
		case item == 0 && mg.lineStart(from) == line:
			lc.head = append(lc.head, comment{mg.spaced(co, c.Text), c.Span.Start.Line})
		case item < len(n.Items):
			lc.lead[item] = append(lc.lead[item], comment{c.Text, c.Span.Start.Line})
		default:
			lc.tail = append(lc.tail, comment{c.Text, c.Span.Start.Line})
		}
	}
	return lc
}

// spaced is a comment with the white space written before it.
func (mg *migration) spaced(co int, text string) string {
	s := co
	for s > 0 && (mg.src.Data[s-1] == ' ' || mg.src.Data[s-1] == '\t') {
		s--
	}
	if s == co {
		return " " + text
	}
	return string(mg.src.Data[s:co]) + text
}

// itemIndent is the white space before the first item of the lists that
// starts a line of its own, or two spaces.
func (mg *migration) itemIndent(p *listPlan) string {
	for _, o := range p.olds {
		if o.node.Kind != tomlpos.KindArray {
			continue
		}
		for _, it := range o.node.Items {
			s := valueFrom(it)
			if in := mg.src.Data[mg.lineStart(s):s]; strings.Trim(string(in), " \t") == "" {
				return string(in)
			}
		}
	}
	return "  "
}

// written is the text of a plan's new list, key's value, and the comment
// lines to go above key: those of the items left out, and those that
// followed an old key other than the first on its line (the first one's
// stays on the key's line, which the caller writes). The list is on one
// line when it keeps no comment, else one entry a line, each with the
// comments of the items it stands for.
func (mg *migration) written(p *listPlan, key string) (string, []string) {
	cs := make([]*listComments, len(p.olds))
	for i, o := range p.olds {
		cs[i] = mg.commentsIn(o.node)
	}
	// The head of a list other than the first goes with its first item.
	for _, c := range cs[1:] {
		if len(c.lead) > 0 {
			c.lead[0] = append(c.head, c.lead[0]...)
		} else {
			c.tail = append(c.head, c.tail...)
		}
		c.head = nil
	}

	// What goes above, in input order.
	var moved []comment
	for _, g := range p.gone {
		c, old := cs[g.list], p.olds[g.list]
		for _, cm := range append(slices.Clone(c.lead[g.item]), c.trail[g.item]) {
			if cm.text == "" {
				continue
			}
			moved = append(moved, comment{cm.bare(), cm.line})
			mg.changes = append(mg.changes, Change{Line: cm.line, Message: fmt.Sprintf(
				"the comment %q by %q in %s is now above %s: %s", cm.bare(), old.node.Items[g.item].Str, old.key, key, g.why)})
		}
	}
	for _, o := range p.olds[1:] {
		if text := strings.TrimLeft(o.trailing, " \t"); text != "" {
			line := mg.lines.Pos(valueTo(o.node)).Line
			moved = append(moved, comment{text, line})
			mg.changes = append(mg.changes, Change{Line: line, Message: fmt.Sprintf(
				"the comment %q after %s is now above %s, which that key joined", text, o.key, key)})
		}
	}
	slices.SortStableFunc(moved, func(a, b comment) int { return a.line - b.line })
	above := make([]string, len(moved))
	for i, cm := range moved {
		above[i] = cm.text
	}

	kept := len(cs[0].head) > 0
	for _, c := range cs {
		kept = kept || len(c.tail) > 0
	}
	for _, refs := range p.from {
		for _, r := range refs {
			kept = kept || cs[r.list].trail[r.item].text != "" || len(cs[r.list].lead[r.item]) > 0
		}
	}
	if !kept {
		return listText(p.names), above
	}

	indent := mg.itemIndent(p)
	var b strings.Builder
	b.WriteString("[")
	for _, cm := range cs[0].head {
		b.WriteString(cm.text)
	}
	b.WriteString("\n")
	for i, name := range p.names {
		trail := ""
		for _, r := range p.from[i] {
			c := cs[r.list]
			for _, cm := range c.lead[r.item] {
				b.WriteString(indent + cm.text + "\n")
			}
			// The comment of a second item of this name goes above the
			// entry: a line holds one comment.
			switch t := c.trail[r.item]; {
			case t.text == "":
			case trail == "":
				trail = t.text
			default:
				b.WriteString(indent + t.bare() + "\n")
			}
		}
		b.WriteString(indent + tomlpos.BasicString(name) + "," + trail + "\n")
	}
	for _, c := range cs {
		for _, cm := range c.tail {
			b.WriteString(indent + cm.text + "\n")
		}
	}
	b.WriteString("]")
	return b.String(), above
}

// allComments are every comment of a plan's old lists and of their keys'
// lines but the first, for a new value that is no list ("all"): each goes
// above key, and a change says so.
func (mg *migration) allComments(p *listPlan, key, why string) []string {
	var above []string
	for i, o := range p.olds {
		if o.node.Kind == tomlpos.KindArray {
			for _, c := range mg.commentsBetween(valueFrom(o.node), valueTo(o.node)) {
				above = append(above, c.Text)
				mg.changes = append(mg.changes, Change{Line: c.Span.Start.Line, Message: fmt.Sprintf(
					"the comment %q in %s is now above %s: %s", c.Text, o.key, key, why)})
			}
		}
		if t := strings.TrimLeft(o.trailing, " \t"); i > 0 && t != "" {
			above = append(above, t)
			mg.changes = append(mg.changes, Change{Line: mg.lines.Pos(valueTo(o.node)).Line, Message: fmt.Sprintf(
				"the comment %q after %s is now above %s: %s", t, o.key, key, why)})
		}
	}
	return above
}

// commentLines writes comment texts as lines indented by indent.
func commentLines(indent string, texts []string) string {
	var b strings.Builder
	for _, t := range texts {
		b.WriteString(indent + t + "\n")
	}
	return b.String()
}

// dropLine deletes the line of a key = value the migration removes, and
// keeps every comment it held on a line of its own in its place, saying so.
func (mg *migration) dropLine(kl tomledit.Line, key string) {
	var texts []string
	for _, c := range mg.commentsBetween(kl.From, kl.To) {
		texts = append(texts, c.Text)
		mg.changes = append(mg.changes, Change{Line: c.Span.Start.Line, Message: fmt.Sprintf(
			"the comment %q of %s stays, on a line of its own, where the key was", c.Text, key)})
	}
	mg.edit(kl.From, kl.To, commentLines(kl.Indent, texts))
}
