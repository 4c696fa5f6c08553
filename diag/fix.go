package diag

import (
	"fmt"
	"slices"
)

// Fix is one way to resolve a diagnostic, as data: the rule that finds a
// problem attaches its fixes, and the command line's --fix, the language
// server's quick fixes and migrate only apply them.
type Fix struct {
	// Title says what the fix does, as an editor's menu shows it:
	// "Write 'mcp.add_mcp_server'".
	Title string
	// Safe is true when the fix can only tighten what an agent may do, or
	// change nothing of it: an approval entry that gated nothing rewritten
	// to a tool it gates, a key moved above its sub-table. A fix that
	// could widen an agent's power (an unknown toolset in available
	// rewritten to a close name, which grants that toolset) is not safe:
	// kokua-lint --fix leaves it to --unsafe-fixes.
	Safe bool
	// Edits are the changes to the file the diagnostic's span is in, in
	// byte offsets of that file; they do not overlap.
	Edits []Edit
	// Touches are the tables the fix reads or writes, as the config
	// spells them ("[agents.coder.tools]"), and Local says it changes one
	// value of them and reads nothing else there (a misspelt name
	// rewritten). A fix that is not local is computed from what the
	// tables hold, so kokua-lint --fix makes it in a round of its own
	// among the fixes that touch them (Isolated), and lints the file again
	// before the next: two such fixes made together would each be computed
	// from a table the other changed, and could fight.
	Touches []string
	Local   bool
}

// Isolated reports whether f and g must not be made in one round: they
// touch a table in common, and one of them is not local.
func (f Fix) Isolated(g Fix) bool {
	if f.Local && g.Local {
		return false
	}
	for _, t := range f.Touches {
		if slices.Contains(g.Touches, t) {
			return true
		}
	}
	return false
}

// Edit replaces the bytes [Start, End) of a file with New. Start == End
// inserts.
type Edit struct {
	Start, End int
	New        string
}

// Apply returns src with the edits of fixes made, and the indices in
// fixes of those it made, in order. The fixes are taken in the order given;
// a fix whose edits overlap one taken before it (or each other, or fall
// outside src) is left out, to be offered again when the result is linted
// anew. Edits that touch at one point (an insertion at the end of a
// replaced range) do not overlap; two insertions at one offset are made in
// the order of their fixes.
//
// n edits cost O(n log n): every edit is ranked once by its position, the
// edits taken are marked in a Fenwick tree over the ranks, and a new edit
// is checked only against the two taken edits next to its rank, since
// taken edits never overlap (edits.go).
func Apply(src []byte, fixes []Fix) ([]byte, []int) {
	var all []placed
	for i, f := range fixes {
		for j, e := range f.Edits {
			all = append(all, placed{e, i, j})
		}
	}
	slices.SortFunc(all, placedOrder)
	rank := make([][]int, len(fixes)) // rank[i][j] is the rank of edit j of fix i
	for i, f := range fixes {
		rank[i] = make([]int, len(f.Edits))
	}
	for r, p := range all {
		rank[p.order][p.index] = r
	}
	taken := newMarks(len(all))
	var made []int
	for i, f := range fixes {
		ok := len(f.Edits) > 0
		for j, e := range f.Edits {
			ok = ok && e.Start >= 0 && e.Start <= e.End && e.End <= len(src) && !taken.clashes(all, rank[i][j])
			for _, o := range f.Edits[:j] {
				ok = ok && !clash(e, o)
			}
		}
		if !ok {
			continue
		}
		for _, r := range rank[i] {
			taken.mark(r)
		}
		made = append(made, i)
	}
	out := make([]byte, 0, len(src))
	at := 0
	for r, p := range all {
		if taken.has(r) {
			out = append(out, src[at:p.Start]...)
			out = append(out, p.New...)
			at = p.End
		}
	}
	return append(out, src[at:]...), made
}

// clash reports whether two edits cannot both be made: their ranges share
// a byte, or one inserts strictly inside the other's range. Both are the
// one test: an insertion at p is [p, p), which starts before a range ends
// and ends after it starts exactly when the range holds p strictly
// inside; at a range's ends, or at another insertion's point, it does not.
func clash(a, b Edit) bool {
	return a.Start < b.End && b.Start < a.End
}

// String writes an edit for a test's failure message.
func (e Edit) String() string { return fmt.Sprintf("[%d,%d)%q", e.Start, e.End, e.New) }
