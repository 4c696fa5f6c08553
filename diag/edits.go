package diag

import "cmp"

// placed is an edit, the index of the fix it belongs to and its index
// among that fix's edits.
type placed struct {
	Edit
	order, index int
}

// placedOrder sorts edits by position, and edits at one point by the
// order of their fixes and their own: the order Apply writes them in.
func placedOrder(a, b placed) int {
	return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), cmp.Compare(a.order, b.order), cmp.Compare(a.index, b.index))
}

// marks is a set of ranks (0 to n-1) kept in a Fenwick tree, which counts
// the marked ranks below any rank in O(log n) and finds the k-th marked
// rank in O(log n): what Apply needs to step from an edit's rank to the
// taken edits before and after it. The tree's size is a power of two, so
// that the search of the k-th halves its step from half the size and
// never steps past the end.
type marks struct {
	tree []int // tree[i] counts the marked ranks in (i - lowbit(i), i], 1-based
	set  []bool
}

func newMarks(n int) *marks {
	size := 1
	for size <= n {
		size *= 2
	}
	return &marks{tree: make([]int, size), set: make([]bool, n)}
}

func (m *marks) has(r int) bool { return m.set[r] }

func (m *marks) mark(r int) {
	if m.set[r] {
		return
	}
	m.set[r] = true
	for i := r + 1; i < len(m.tree); i += i & -i {
		m.tree[i]++
	}
}

// below counts the marked ranks less than r.
func (m *marks) below(r int) int {
	n := 0
	for i := r; i != 0; i -= i & -i {
		n += m.tree[i]
	}
	return n
}

// kth is the k-th marked rank (1-based k), or -1 when fewer are marked
// (or k is not positive).
func (m *marks) kth(k int) int {
	if k < 1 {
		return -1
	}
	at := 0
	for step := len(m.tree) / 2; step != 0; step /= 2 {
		if next := at + step; m.tree[next] < k {
			at = next
			k -= m.tree[next]
		}
	}
	if at >= len(m.set) {
		return -1
	}
	return at // the 1-based index at+1 is rank at
}

// clashes reports whether the edit at rank r clashes with a marked one.
// It asks only the two marked edits next to r, the last before it and the
// first after it. Marked edits never clash with each other, so, in rank
// order, each ends where the next starts at the latest: a marked edit
// before the last one before r ends where that one starts, which is not
// after the edit's start, so it cannot clash with the edit unless that
// one does; and one after the first after r starts where that one ends,
// which, if that one does not clash, is not before the edit's end (or the
// edit is an insertion at that point, which clashes with nothing
// starting there).
func (m *marks) clashes(all []placed, r int) bool {
	n := m.below(r)
	for _, k := range [2]int{n, n + 1} {
		if q := m.kth(k); q >= 0 && clash(all[r].Edit, all[q].Edit) {
			return true
		}
	}
	return false
}
