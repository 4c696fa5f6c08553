// Package textdiff is what the module needs of differences between texts:
// the edits that turn one text into another (the language server's "fix
// all"), the application of edits (migrate), and unified diffs (kokua-lint
// --diff, migrate --diff, the text sections of kokua-compile diff).
//
// The longest common subsequences come from go-udiff's lcs package. The
// rest is here rather than in go-udiff's root package because that package
// compiles a regular expression when a program starts (to read diffs, which
// nothing here does): a third of a millisecond of every kokua-lint run
// (docs/benchmarks.md). Its tests hold Edits and Unified to the root
// package's results.
package textdiff

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/kokua-policy/kokua-policy/diag"
)

// Edits returns edits that turn before into after, sorted. For texts that
// are UTF-8, no edit splits a character; others are compared byte by byte.
func Edits(before, after string) []diag.Edit {
	if before == after {
		return nil
	}
	if ascii(before) && ascii(after) || !utf8.ValidString(before) || !utf8.ValidString(after) {
		ds := lcs.DiffBytes([]byte(before), []byte(after))
		edits := make([]diag.Edit, len(ds))
		for i, d := range ds {
			edits[i] = diag.Edit{Start: d.Start, End: d.End, New: after[d.ReplStart:d.ReplEnd]}
		}
		return edits
	}
	b, a := []rune(before), []rune(after)
	ds := lcs.DiffRunes(b, a)
	// The differences count runes; an edit counts bytes.
	bOff, aOff := runeOffsets(before), runeOffsets(after)
	edits := make([]diag.Edit, len(ds))
	for i, d := range ds {
		edits[i] = diag.Edit{Start: bOff[d.Start], End: bOff[d.End], New: after[aOff[d.ReplStart]:aOff[d.ReplEnd]]}
	}
	return edits
}

// runeOffsets is the byte offset of each rune of s, and of its end.
func runeOffsets(s string) []int {
	offs := make([]int, 0, len(s)+1)
	for i := range s {
		offs = append(offs, i)
	}
	return append(offs, len(s))
}

func ascii(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ErrOverlap is what Apply returns for edits that overlap or fall outside
// the text.
var ErrOverlap = errors.New("the edits overlap or fall outside the text")

// Apply returns src with the edits made, in order of their starts; edits
// that start at one offset are made in the order given (two insertions
// there, or an insertion before the range that follows it). Edits that
// overlap, or fall outside src, are refused with ErrOverlap.
func Apply(src []byte, edits []diag.Edit) ([]byte, error) {
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b diag.Edit) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return a.End - b.End
	})
	size, at := len(src), 0
	for _, e := range sorted {
		if e.Start < at || e.End < e.Start || e.End > len(src) {
			return nil, ErrOverlap
		}
		size += len(e.New) - (e.End - e.Start)
		at = e.End
	}
	out := make([]byte, 0, size)
	at = 0
	for _, e := range sorted {
		out = append(out, src[at:e.Start]...)
		out = append(out, e.New...)
		at = e.End
	}
	return append(out, src[at:]...), nil
}

// context is how many unchanged lines a unified diff shows around a change,
// as diff -u does.
const context = 3

// Unified is the unified diff that turns before, the file named from, into
// after, the file named to; empty when they are equal. The lines that
// differ are those of the longest common subsequence of lines; changes
// fewer than 2*context lines apart share a hunk. A last line without a
// line feed is followed by "\ No newline at end of file", as diff writes
// it.
func Unified(from, to, before, after string) string {
	a, b := lines(before), lines(after)
	ds := lcs.DiffLines(a, b)
	if len(ds) == 0 {
		return ""
	}
	var out strings.Builder
	out.WriteString("--- " + from + "\n+++ " + to + "\n")
	for i := 0; i < len(ds); {
		j := i + 1
		for j < len(ds) && ds[j].Start-ds[j-1].End <= 2*context {
			j++
		}
		first, last := ds[i], ds[j-1]
		// The hunk's lines of before, with their context; the lines of
		// after line up with them outside the changes.
		aFrom, aTo := max(first.Start-context, 0), min(last.End+context, len(a))
		bFrom := first.ReplStart - (first.Start - aFrom)
		bTo := last.ReplEnd + (aTo - last.End)
		out.WriteString("@@")
		hunkRange(&out, '-', aFrom, aTo-aFrom)
		hunkRange(&out, '+', bFrom, bTo-bFrom)
		out.WriteString(" @@\n")
		at := aFrom
		for _, d := range ds[i:j] {
			for ; at < d.Start; at++ {
				hunkLine(&out, ' ', a[at])
			}
			for _, l := range a[d.Start:d.End] {
				hunkLine(&out, '-', l)
			}
			for _, l := range b[d.ReplStart:d.ReplEnd] {
				hunkLine(&out, '+', l)
			}
			at = d.End
		}
		for ; at < aTo; at++ {
			hunkLine(&out, ' ', a[at])
		}
		i = j
	}
	return out.String()
}

// lines splits a text after each line feed; a last line without one is a
// line too, and an empty text has none.
func lines(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// hunkRange writes one side of a hunk header: the first line (counted from
// 1) and the number of lines, which is left out when it is 1. An empty
// side at the start of a file is written 0,0, as diff -u does.
func hunkRange(out *strings.Builder, sign byte, start, n int) {
	out.WriteByte(' ')
	out.WriteByte(sign)
	switch {
	case n == 0 && start == 0:
		out.WriteString("0,0")
	case n > 1:
		out.WriteString(strconv.Itoa(start+1) + "," + strconv.Itoa(n))
	default:
		out.WriteString(strconv.Itoa(start + 1))
	}
}

func hunkLine(out *strings.Builder, sign byte, l string) {
	out.WriteByte(sign)
	out.WriteString(l)
	if !strings.HasSuffix(l, "\n") {
		out.WriteString("\n\\ No newline at end of file\n")
	}
}
