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
// taken edits before and after it.
type marks struct {
	tree []int // tree[i] counts the marked ranks in (i - lowbit(i), i], 1-based
	set  []bool
	top  int // the largest power of two not above n
}

func newMarks(n int) *marks {
	top := 1
	for top*2 <= n {
		top *= 2
	}
	return &marks{tree: make([]int, n+1), set: make([]bool, n), top: top}
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
	for i := r; i > 0; i -= i & -i {
		n += m.tree[i]
	}
	return n
}

// kth is the k-th marked rank (1-based k), or -1 when fewer are marked.
func (m *marks) kth(k int) int {
	if k < 1 {
		return -1
	}
	at := 0
	for step := m.top; step > 0; step /= 2 {
		if next := at + step; next < len(m.tree) && m.tree[next] < k {
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
// Marked edits never clash with each other, so, sorted by rank, their
// starts and their ends both rise: walking back from r, none can clash
// once one ends before the edit starts; walking on, none once one starts
// after it ends. The walks visit only the marked edits that touch the
// edit's range.
func (m *marks) clashes(all []placed, r int) bool {
	e := all[r].Edit
	n := m.below(r)
	for k := n; k >= 1; k-- {
		t := all[m.kth(k)].Edit
		if t.End < e.Start {
			break
		}
		if clash(e, t) {
			return true
		}
	}
	for k := n + 1; ; k++ {
		q := m.kth(k)
		if q < 0 {
			break
		}
		t := all[q].Edit
		if t.Start > e.End {
			break
		}
		if clash(e, t) {
			return true
		}
	}
	return false
}
