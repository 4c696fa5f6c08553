package tomledit

import (
	"bytes"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// skip is the offset of the first byte from from that is neither blank, a
// line end, nor in a comment: the next thing written in an array.
func (d *Doc) skip(from int) int {
	comment := false
	for i, c := range d.src[from:] {
		switch {
		case comment:
			comment = c != '\n'
		case c == '#':
			comment = true
		case c != ' ' && c != '\t' && c != '\r' && c != '\n':
			return from + i
		}
	}
	return len(d.src)
}

// comma is the offset of the comma that follows the item ending at end;
// ok is false when the array's closing bracket comes first.
func (d *Doc) comma(end int) (at int, ok bool) {
	at = d.skip(end)
	return at, bytes.HasPrefix(d.src[at:], []byte(","))
}

// sameLine reports whether no line feed lies in src[from:to).
func (d *Doc) sameLine(from, to int) bool {
	return !bytes.Contains(d.src[from:to], []byte("\n"))
}

// Append adds items, each a TOML value as written ("\"fs_write\""), at
// the end of the array arr, in its layout: after the last item on its
// line, before a trailing comma, which stays the last; on lines of their
// own, indented as the last item, in an array written one item a line;
// inside the brackets of an empty one. It reports false for a node that
// is not an array written with brackets, or for no items.
func (e *Edits) Append(arr *tomlpos.Node, items []string) bool {
	d := e.d
	if arr == nil || arr.Kind != tomlpos.KindArray || arr.ArrayOfTables || len(items) == 0 {
		return false
	}
	from, to := arr.Offsets()
	closing := to - 1
	if len(arr.Items) == 0 {
		if d.sameLine(from, closing) {
			e.Replace(from+1, closing, strings.Join(items, ", "))
			return true
		}
		// Over several lines, holding comments: each item on a line of
		// its own above the closing bracket, which only blanks can come
		// before on its line (a comment runs to the line's end).
		indent := d.Indent(closing) + "  "
		var b strings.Builder
		for _, it := range items {
			b.WriteString(indent + it + ",\n")
		}
		at := d.LineStart(closing)
		e.Replace(at, at, b.String())
		return true
	}
	lastItem := arr.Items[len(arr.Items)-1]
	end := valueTo(lastItem)
	comma, hasComma := d.comma(end)
	after := end
	if hasComma {
		after = comma + 1
	}
	if d.sameLine(end, closing) || d.LineEnd(after) > closing {
		// The bracket closes the array on the last item's line: the items
		// go right after the last one, before any trailing comma.
		e.Replace(end, end, ", "+strings.Join(items, ", "))
		return true
	}
	// One item a line, or several on lines of their own: the new items
	// go on lines of their own after the last item's line, its comment
	// included, and the last item gets the comma it lacked.
	if !hasComma {
		e.Replace(end, end, ",")
	}
	indent := d.Indent(valueFrom(lastItem))
	var b strings.Builder
	for _, it := range items {
		b.WriteString(indent + it + ",\n")
	}
	at := d.LineEnd(after)
	e.Replace(at, at, b.String())
	return true
}

// RemoveItem deletes the i-th item of the array arr with the comma that
// joined it to the next (or, for the last item, to the one before it): its
// whole line, comment included, when it is written alone on its line;
// a trailing comma stays after the item that becomes the last. It reports
// false for an index outside the array.
func (e *Edits) RemoveItem(arr *tomlpos.Node, i int) bool {
	d := e.d
	if arr == nil || arr.Kind != tomlpos.KindArray || arr.ArrayOfTables || i < 0 || i >= len(arr.Items) {
		return false
	}
	it := arr.Items[i]
	from, to := valueFrom(it), valueTo(it)
	end := to
	if comma, ok := d.comma(to); ok {
		end = comma + 1
	}
	// Alone on its line(s): blanks before it, and after it (and its
	// comma) only blanks and a comment; the closing bracket is then on a
	// later line.
	lineFrom, lineTo := d.LineStart(from), d.LineEnd(end)
	rest := strings.TrimSpace(string(d.src[end:lineTo]))
	if strings.TrimSpace(string(d.src[lineFrom:from])) == "" && (rest == "" || strings.HasPrefix(rest, "#")) {
		e.Replace(lineFrom, lineTo, "")
		return true
	}
	switch {
	case len(arr.Items) == 1:
		// The only item: its comma goes with it.
		e.Replace(from, end, "")
	case i+1 < len(arr.Items):
		// Up to the next thing written after its comma on its line.
		e.Replace(from, len(d.src)-len(bytes.TrimLeft(d.src[end:], " \t")), "")
	default:
		// The last of several: the comma before it goes, a trailing comma
		// after it stays; a comment between them stays where it is.
		prev := valueTo(arr.Items[i-1])
		if d.sameLine(prev, from) {
			e.Replace(prev, to, "")
		} else {
			before, _ := d.comma(prev)
			e.Replace(before, before+1, "")
			e.Replace(from, to, "")
		}
	}
	return true
}
