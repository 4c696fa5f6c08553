// Package similar measures how alike two strings are and picks "did you
// mean" suggestions, reproducing the behaviour of Python's difflib:
// Ratio matches difflib.SequenceMatcher(None, a, b).ratio() and Close
// matches difflib.get_close_matches.
//
// The matching is the Ratcliff/Obershelp scheme: find the longest common
// contiguous block of the two sequences, count its length, and repeat on the
// parts to its left and to its right. The similarity is 2*M/T, where M is the
// number of matched elements and T the total number of elements in both
// sequences. Strings are compared as sequences of runes (Unicode code
// points), as Python compares str values.
//
// SequenceMatcher's "autojunk" heuristic is reproduced: when the second
// sequence has 200 or more elements, any element occurring in it more than
// len/100+1 times is considered popular and cannot seed a match, although
// a match found elsewhere can still be extended across it.
package similar

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// autojunkMin is the length from which SequenceMatcher's autojunk heuristic
// applies to the second sequence.
const autojunkMin = 200

// matcher holds one fixed second sequence b and scratch space for first
// sequences, so that comparing many first sequences against the same b
// allocates little. It plays the role of a SequenceMatcher after set_seq2(b).
type matcher struct {
	b       []rune // second sequence
	bSorted []rune // b sorted, for the quick ratio

	// seedRunes and seedPos list the non-popular elements of b and their
	// positions, sorted by element and then by position: the positions of
	// one element form a contiguous ascending run (SequenceMatcher's b2j).
	seedRunes []rune
	seedPos   []int32

	a       []rune  // current first sequence
	aSorted []rune  // a sorted, for the quick ratio
	spanLo  []int32 // a[i] occurs as seedRunes[spanLo[i]:spanHi[i]]
	spanHi  []int32
	spansOK bool    // whether spanLo and spanHi are up to date for a
	prev    []cell  // longest-match lengths of the previous row, by j
	cur     []cell  // longest-match lengths of the current row, by j
	stamp   int     // last row stamp handed out
	pending []block // work list of sub-ranges still to be matched
}

// cell records k, the length of the common block ending at a[i], b[j], for
// the row i whose stamp is given. Cells carrying another stamp are stale and
// read as 0, so rows never need clearing.
type cell struct {
	stamp int
	k     int32
}

// block is a pair of half-open ranges a[alo:ahi] and b[blo:bhi].
type block struct {
	alo, ahi, blo, bhi int
}

// appendRunes appends the runes of s to dst, like []rune(s) but reusing
// dst's storage.
func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

// init makes s the second sequence, leaving out of the seeds the elements
// that the autojunk heuristic finds popular, and reserves room for first
// sequences of up to maxA runes.
func (m *matcher) init(s string, maxA int) {
	n := utf8.RuneCountInString(s)
	// One buffer holds all the rune and index slices; the three-index
	// slices keep appends from spilling into a neighbour.
	buf := make([]int32, 4*n+4*maxA)
	m.b = appendRunes(buf[0:0:n], s)
	m.bSorted = buf[n : 2*n : 2*n]
	m.seedRunes = buf[2*n : 2*n : 3*n]
	m.seedPos = buf[3*n : 3*n : 4*n]
	rest := buf[4*n:]
	m.a = rest[0:0:maxA]
	m.aSorted = rest[maxA : maxA : 2*maxA]
	m.spanLo = rest[2*maxA : 2*maxA : 3*maxA]
	m.spanHi = rest[3*maxA : 3*maxA : 4*maxA]

	// Order the positions of b by element, then by position.
	b := m.b
	idx := m.seedPos[:n]
	for j := range idx {
		idx[j] = int32(j)
	}
	slices.SortFunc(idx, func(x, y int32) int {
		if b[x] != b[y] {
			return cmp.Compare(b[x], b[y])
		}
		return cmp.Compare(x, y)
	})
	limit := n // no element occurs more than n times
	if n >= autojunkMin {
		limit = n/100 + 1
	}
	// Fill bSorted and compact the seeds in place: the write index never
	// passes the read index.
	w := 0
	for lo := 0; lo < n; {
		r := b[idx[lo]]
		hi := lo + 1
		for hi < n && b[idx[hi]] == r {
			hi++
		}
		for k := lo; k < hi; k++ {
			m.bSorted[k] = r
		}
		if hi-lo <= limit {
			for k := lo; k < hi; k++ {
				m.seedRunes = append(m.seedRunes, r)
				idx[w] = idx[k]
				w++
			}
		}
		lo = hi
	}
	m.seedPos = idx[:w]

	cells := make([]cell, 2*n)
	m.prev, m.cur = cells[:n:n], cells[n:]
	m.pending = make([]block, 0, 8)
}

// setA makes s the first sequence.
func (m *matcher) setA(s string) {
	m.a = appendRunes(m.a[:0], s)
	m.spansOK = false
}

// ratioOf is SequenceMatcher's _calculate_ratio.
func ratioOf(matches, length int) float64 {
	if length == 0 {
		return 1.0
	}
	return 2.0 * float64(matches) / float64(length)
}

// realQuickRatio is an upper bound on ratio based on the lengths alone.
func (m *matcher) realQuickRatio() float64 {
	la, lb := len(m.a), len(m.b)
	return ratioOf(min(la, lb), la+lb)
}

// quickRatio is an upper bound on ratio: the size of the multiset
// intersection of the elements of a and b, ignoring their order.
func (m *matcher) quickRatio() float64 {
	m.aSorted = append(m.aSorted[:0], m.a...)
	slices.Sort(m.aSorted)
	return ratioOf(intersection(m.aSorted, m.bSorted), len(m.aSorted)+len(m.bSorted))
}

// intersection returns the size of the multiset intersection of two sorted
// rune lists.
func intersection(x, y []rune) int {
	matches := 0
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch {
		case x[i] < y[j]:
			i++
		case x[i] > y[j]:
			j++
		default:
			matches++
			i++
			j++
		}
	}
	return matches
}

// spans looks up, once per first sequence, where each element of a occurs
// among the seeds of b.
func (m *matcher) spans() {
	if m.spansOK {
		return
	}
	m.spanLo, m.spanHi = m.spanLo[:0], m.spanHi[:0]
	for _, r := range m.a {
		lo, found := slices.BinarySearch(m.seedRunes, r)
		hi := lo
		if found {
			for hi < len(m.seedRunes) && m.seedRunes[hi] == r {
				hi++
			}
		}
		m.spanLo = append(m.spanLo, int32(lo))
		m.spanHi = append(m.spanHi, int32(hi))
	}
	m.spansOK = true
}

// longestMatch returns the longest block a[i:i+k] == b[j:j+k] inside
// a[alo:ahi] and b[blo:bhi], as SequenceMatcher.find_longest_match does
// with no junk function: among the longest blocks made of seed (non-popular)
// elements it picks the one starting earliest in a, then earliest in b, and
// then extends it over any equal neighbours, popular or not. The work is
// proportional to the number of equal pairs of elements in the ranges.
func (m *matcher) longestMatch(alo, ahi, blo, bhi int) (besti, bestj, bestk int) {
	a, b := m.a, m.b
	prev, cur := m.prev, m.cur
	besti, bestj = alo, blo
	m.stamp++ // a stamp no row has: the row before alo is empty
	for i := alo; i < ahi; i++ {
		prevStamp := m.stamp
		m.stamp++
		pos := m.seedPos[m.spanLo[i]:m.spanHi[i]]
		if len(pos) > 0 && int(pos[0]) < blo {
			start, _ := slices.BinarySearch(pos, int32(blo))
			pos = pos[start:]
		}
		for _, pj := range pos {
			j := int(pj)
			if j >= bhi {
				break
			}
			k := int32(1)
			if j > 0 && prev[j-1].stamp == prevStamp {
				k += prev[j-1].k
			}
			cur[j] = cell{m.stamp, k}
			if int(k) > bestk {
				bestk = int(k)
				besti, bestj = i-bestk+1, j-bestk+1
			}
		}
		prev, cur = cur, prev
	}
	for besti > alo && bestj > blo && a[besti-1] == b[bestj-1] {
		besti, bestj, bestk = besti-1, bestj-1, bestk+1
	}
	for besti+bestk < ahi && bestj+bestk < bhi && a[besti+bestk] == b[bestj+bestk] {
		bestk++
	}
	return besti, bestj, bestk
}

// matches returns the total size of the matching blocks of a and b, as
// summed from SequenceMatcher.get_matching_blocks.
func (m *matcher) matches() int {
	m.spans()
	total := 0
	m.pending = append(m.pending[:0], block{0, len(m.a), 0, len(m.b)})
	for len(m.pending) > 0 {
		r := m.pending[len(m.pending)-1]
		m.pending = m.pending[:len(m.pending)-1]
		i, j, k := m.longestMatch(r.alo, r.ahi, r.blo, r.bhi)
		if k == 0 {
			continue
		}
		total += k
		if r.alo < i && r.blo < j {
			m.pending = append(m.pending, block{r.alo, i, r.blo, j})
		}
		if i+k < r.ahi && j+k < r.bhi {
			m.pending = append(m.pending, block{i + k, r.ahi, j + k, r.bhi})
		}
	}
	return total
}

// ratio is SequenceMatcher.ratio for the current a and b.
func (m *matcher) ratio() float64 {
	return ratioOf(m.matches(), len(m.a)+len(m.b))
}

// Ratio returns the similarity of a and b in [0, 1], exactly as Python's
// difflib.SequenceMatcher(None, a, b).ratio() computes it: 2*M/T, where T is
// the total number of runes in a and b and M the number of runes matched by
// repeatedly taking the longest common contiguous block (earliest in a, then
// earliest in b, on ties) and recursing on the remainders to its left and
// right. Like SequenceMatcher with autojunk enabled, when b has 200 or more
// runes, runes occurring in b more than len(b)/100+1 times cannot start a
// match. Two empty strings give 1.0. The result is not symmetric in general.
func Ratio(a, b string) float64 {
	var m matcher
	m.init(b, len(a))
	m.setA(a)
	return m.ratio()
}

// scored is a candidate with its similarity to the word.
type scored struct {
	score float64
	s     string
}

// Close returns at most n of candidates that are similar to word, best first,
// like Python's difflib.get_close_matches(word, candidates, n, cutoff).
//
// A candidate c is kept when Ratio(c, word) >= cutoff. Results are ordered by
// decreasing score, and equal scores by decreasing candidate string, as
// heapq.nlargest orders (score, candidate) pairs (strings compare byte-wise,
// which for valid UTF-8 is Python's code point order). Duplicated candidates are
// returned as many times as they appear. Where Python raises ValueError
// (n <= 0, or cutoff outside [0, 1] or NaN), Close returns nil.
//
// Close builds an Index of candidates for one lookup; to look up many words
// among the same candidates, build the Index once.
func Close(word string, candidates []string, n int, cutoff float64) []string {
	return NewIndex(candidates).Close(word, n, cutoff)
}

// Suggest returns up to two "did you mean" suggestions for word among
// candidates, best first: Close(word, candidates, 2, 0.6). It is the
// project's single rule for suggesting names.
func Suggest(word string, candidates []string) []string {
	return Close(word, candidates, 2, 0.6)
}

// SuggestParts is Suggest for names made of parts joined by sep, such as
// the commands' flags ("unsafe-fixes"): a candidate's score is the better
// of its Ratio to the word and the Ratio of the two with their parts
// sorted, so that a word whose parts are a candidate's in another order,
// or close to them, is answered with it ("fix-unsafe": "unsafe-fixes",
// "on-fail": "fail-on"). Otherwise it is Suggest: the cutoff 0.6, at
// most two, best first, equal scores by decreasing candidate; for names
// of one part the two agree.
func SuggestParts(word string, candidates []string, sep string) []string {
	key := sortedParts(word, sep)
	var kept []scored
	for _, c := range candidates {
		score := Ratio(c, word)
		if r := Ratio(sortedParts(c, sep), key); r > score {
			score = r
		}
		if score >= 0.6 && !slices.ContainsFunc(kept, func(k scored) bool { return k.s == c }) {
			kept = append(kept, scored{score: score, s: c})
		}
	}
	slices.SortFunc(kept, func(x, y scored) int {
		if x.score != y.score {
			return cmp.Compare(y.score, x.score)
		}
		return strings.Compare(y.s, x.s)
	})
	var out []string
	for _, k := range kept[:min(2, len(kept))] {
		out = append(out, k.s)
	}
	return out
}

// sortedParts is s split at sep, sorted and joined by sep again.
func sortedParts(s, sep string) string {
	if sep == "" || !strings.Contains(s, sep) {
		return s
	}
	parts := strings.Split(s, sep)
	slices.Sort(parts)
	return strings.Join(parts, sep)
}
