package similar

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// An Index answers Close and Suggest for one fixed list of candidates with
// exactly the results of comparing the word with every candidate, while
// comparing it with few of them: built once per list, it makes n lookups
// of near misses among n names cost far less than n².
//
// Nothing is guessed. A candidate is skipped only when a bound proves that
// its similarity is below the cutoff, or below the n-th best similarity
// found so far (below it, it cannot be among the first n whatever the order
// of equal scores). The bounds follow from what Ratio counts: M runes
// matched in blocks, each block a common substring, the blocks in the same
// order in both strings, and the similarity 2*M/T for T runes in all; so a
// candidate of la runes needs at least some mMin matched runes.
//
//   - Length: M is at most the shorter length, the bound real_quick_ratio
//     checks. Candidates are kept in buckets by length in runes, and only the
//     lengths where the bound can still be met are visited, nearest first.
//   - Common subsequence: the blocks, in order, are a common subsequence
//     of M runes, so deleting la-mMin runes of the candidate and lb-mMin of
//     the word leaves the same runes. The index keeps the hash of each
//     candidate's runes and of what each deletion of one rune leaves; when
//     mMin is la or la-1 a lookup hashes the word's few deletions (at most
//     maxVariants) and compares the word with the candidates they name.
//     This finds the near misses of a near miss.
//   - Shared q-grams: the blocks share, as multisets, at least
//     M - (q-1)*b substrings of q runes, for b blocks; between two blocks at
//     least one rune of one string is unmatched, so b <= T - 2M + 1. For q = 1
//     this is the multiset of runes that quick_ratio counts. A candidate
//     that shares at least L of the word's G q-grams holds one of any
//     G - L + 1 of them: the index keeps, for every q-gram (numbered by
//     occurrence, so that multisets become sets) and length, the candidates
//     that hold it, and a lookup reads the lists of the word's rarest
//     q-grams, for the q that reads the fewest entries.
//
// A lookup starts from the candidates one edit away and those holding the
// word's rarest substring of three runes, so that the n-th best similarity,
// and with it the bounds, rise early. The lists are built once lookups
// have compared as many candidates as building them costs, so that a few
// lookups in a list cost what comparing with every name does. In the worst
// case, a list whose names all come near the word, a lookup compares the
// word with every candidate, as Close always did. An Index is safe for
// concurrent lookups.
type Index struct {
	cands   []candidate
	maxLen  int      // longest candidate in bytes, which bounds its runes
	buckets []bucket // by length in runes, ascending
	// lists are the lists of candidates lookups read, built once lookups
	// have compared the word with as many candidates as building them
	// costs: comparing a few words with every candidate costs less.
	lists     atomic.Pointer[postings]
	scanned   atomic.Int64 // candidates compared while lists was nil
	buildOnce sync.Once
	auto      bool // whether lists is built when scanned grows enough
	runes     int  // runes in all candidates

	// examined counts the candidates lookups looked at, read the list
	// entries they read and ratios the Ratios they computed: the work of
	// lookups, for tests.
	examined, read, ratios atomic.Int64
}

// compared counts the candidates every lookup has compared a word with.
var compared atomic.Int64

// Compared returns the number of candidates every lookup so far, of every
// Index and Close, has compared a word with: for tests that bound the
// work of a whole run.
func Compared() int64 { return compared.Load() }

// postings are the lists of candidates an Index reads.
type postings struct {
	// grams lists, for each q-gram of each length, the candidates of that
	// length holding it, ascending, by the q-gram's hash: two q-grams of
	// one hash only make a lookup compare more candidates.
	grams *lists[uint64]
	// subseqs lists, for each candidate length up to maxSubseq, the
	// candidates by the hash of their runes and of the runes each deletion
	// of one rune leaves. Two sequences of one hash only make a lookup
	// compare one candidate more.
	subseqs *lists[subseq]
}

// How an index comes by its lists: built on demand, at once (tests) or
// never (tests: every lookup compares the word with every candidate
// within the length bound).
const (
	listsOnDemand = iota
	listsNow
	listsNever
)

// gramSizes are the lengths of the q-grams the index keeps: single runes,
// the multiset quick_ratio counts, and substrings of three runes, which few
// names share.
var gramSizes = []int{1, maxQ}

// maxQ is the longest q-gram the index keeps.
const maxQ = 3

// maxSubseq is the longest candidate, in runes, subseqs holds: hashing
// what its deletions leave costs the square of its length.
const maxSubseq = 64

// maxVariants is the most sequences a lookup makes by deleting runes of
// the word to look them up in subseqs; past it, the q-gram lists serve.
const maxVariants = 256

// seedMax is the longest list of the rarest q-gram the lookup starts from.
const seedMax = 32

type candidate struct {
	s      string
	n      int    // length in runes
	sorted []rune // runes, sorted: quick_ratio's multiset
}

// bucket holds the candidates of one length in runes.
type bucket struct {
	n   int
	ids []int32 // ascending
}

// gram is the occ-th occurrence (from 0) of the q runes r[:q] in a
// candidate of length n runes.
type gram struct {
	r      [maxQ]rune
	q, occ int32
	n      int32
}

// subseq is the hash of the runes left of a candidate of n runes by
// deleting none or one of them.
type subseq struct {
	h uint64
	n int32
}

// NewIndex builds an index of candidates. Duplicated candidates are kept,
// and returned as many times as they appear, as Close does.
func NewIndex(candidates []string) *Index {
	return newIndex(candidates, listsOnDemand)
}

// newIndex builds an index that comes by its lists as mode says.
func newIndex(candidates []string, mode int) *Index {
	ix := &Index{cands: make([]candidate, len(candidates)), auto: mode == listsOnDemand}
	for _, s := range candidates {
		ix.runes += utf8.RuneCountInString(s)
	}
	runes := make([]rune, 0, ix.runes) // one buffer for every sorted rune list
	for i, s := range candidates {
		start := len(runes)
		runes = appendRunes(runes, s)
		sorted := runes[start:len(runes):len(runes)]
		slices.Sort(sorted)
		ix.cands[i] = candidate{s: s, n: len(sorted), sorted: sorted}
		ix.maxLen = max(ix.maxLen, len(s))
	}
	ids := make([]int32, len(candidates))
	for i := range ids {
		ids[i] = int32(i)
	}
	slices.SortStableFunc(ids, func(x, y int32) int { return cmp.Compare(ix.cands[x].n, ix.cands[y].n) })
	for lo := 0; lo < len(ids); {
		n := ix.cands[ids[lo]].n
		hi := lo + 1
		for hi < len(ids) && ix.cands[ids[hi]].n == n {
			hi++
		}
		ix.buckets = append(ix.buckets, bucket{n: n, ids: ids[lo:hi:hi]})
		lo = hi
	}
	if mode == listsNow {
		ix.buildLists()
	}
	return ix
}

// buildCost is about what building the lists costs, in candidates
// compared: each rune of each candidate adds about four entries.
func (ix *Index) buildCost() int64 {
	return int64(4*ix.runes + len(ix.cands))
}

// buildLists builds the lists of candidates, once.
func (ix *Index) buildLists() {
	ix.buildOnce.Do(func() {
		var grams []gram
		var hashes []uint64
		var buf []rune
		p := &postings{}
		p.grams = buildLists(len(ix.cands), func(i int, add func(uint64)) {
			buf = appendRunes(buf[:0], ix.cands[i].s)
			for _, q := range gramSizes {
				grams = gramsOf(grams[:0], buf, q)
				for _, g := range grams {
					add(g.hash())
				}
			}
		})
		p.subseqs = buildLists(len(ix.cands), func(i int, add func(subseq)) {
			if ix.cands[i].n > maxSubseq {
				return
			}
			buf = appendRunes(buf[:0], ix.cands[i].s)
			hashes = append(deletions(hashes[:0], buf, 1), hashRunes(buf))
			for _, h := range hashes {
				add(subseq{h, int32(len(buf))})
			}
		})
		ix.lists.Store(p)
	})
}

// lists maps keys to lists of candidates, ascending, kept as spans of one
// array.
type lists[K comparable] struct {
	spans map[K][2]int32
	ids   []int32
}

// buildLists lists the candidates under the keys keys(i) adds for each
// candidate i of n. It asks twice: once to count, once to fill.
func buildLists[K comparable](n int, keys func(i int, add func(K))) *lists[K] {
	ls := &lists[K]{spans: map[K][2]int32{}}
	for i := range n {
		keys(i, func(k K) {
			s := ls.spans[k]
			s[1]++
			ls.spans[k] = s
		})
	}
	total := int32(0)
	for k, s := range ls.spans {
		ls.spans[k] = [2]int32{total, total}
		total += s[1]
	}
	ls.ids = make([]int32, total)
	for i := range n {
		keys(i, func(k K) {
			s := ls.spans[k]
			ls.ids[s[1]] = int32(i)
			s[1]++
			ls.spans[k] = s
		})
	}
	return ls
}

// get returns the candidates listed under k.
func (ls *lists[K]) get(k K) []int32 {
	s := ls.spans[k]
	return ls.ids[s[0]:s[1]:s[1]]
}

// hash is FNV-1a over the fields of g.
func (g gram) hash() uint64 {
	h := uint64(14695981039346656037)
	for _, v := range [...]int32{g.r[0], g.r[1], g.r[2], g.q, g.occ, g.n} {
		h ^= uint64(uint32(v))
		h *= 1099511628211
	}
	return h
}

// gramsOf appends the q-grams of r, each with its occurrence number and
// len(r) as the length, in no particular order.
func gramsOf(dst []gram, r []rune, q int) []gram {
	start := len(dst)
	for i := 0; i+q <= len(r); i++ {
		g := gram{q: int32(q), n: int32(len(r))}
		copy(g.r[:], r[i:i+q])
		dst = append(dst, g)
	}
	// Number the occurrences of each q-gram: by looking back in a short
	// name, as neighbours once sorted in a long one.
	grams := dst[start:]
	if len(grams) <= 32 {
		for i := range grams {
			for _, h := range grams[:i] {
				if h.r == grams[i].r {
					grams[i].occ++
				}
			}
		}
		return dst
	}
	slices.SortFunc(grams, func(x, y gram) int {
		for i := range x.r {
			if c := cmp.Compare(x.r[i], y.r[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	for i := 1; i < len(grams); i++ {
		if grams[i].r == grams[i-1].r {
			grams[i].occ = grams[i-1].occ + 1
		}
	}
	return dst
}

// deletions appends to dst the distinct hashes of the sequences left by
// deleting k runes of r, or returns nil when there would be more than
// maxVariants of them (or none).
func deletions(dst []uint64, r []rune, k int) []uint64 {
	count := variantCount(len(r), k)
	if k > len(r) || count > maxVariants {
		return nil
	}
	d := deleter{r: r, kept: make([]rune, 0, len(r)), dst: slices.Grow(dst, count)}
	start := len(d.dst)
	d.walk(0, k)
	out := d.dst[start:]
	slices.Sort(out)
	return append(d.dst[:start], slices.Compact(out)...)
}

// deleter makes the sequences deletions hashes.
type deleter struct {
	r    []rune
	kept []rune // the runes kept so far
	dst  []uint64
}

// walk keeps or deletes d.r[i], with left runes still to delete.
func (d *deleter) walk(i, left int) {
	if left == 0 {
		d.dst = append(d.dst, hashRunes(append(d.kept, d.r[i:]...)))
		return
	}
	if i == len(d.r) {
		return
	}
	d.walk(i+1, left-1)
	d.kept = append(d.kept, d.r[i])
	d.walk(i+1, left)
	d.kept = d.kept[:len(d.kept)-1]
}

// hashRunes is FNV-1a over the runes of r.
func hashRunes(r []rune) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range r {
		h ^= uint64(uint32(c))
		h *= 1099511628211
	}
	return h
}

// variantCount returns the binomial coefficient of n and k, the number of
// ways to delete k of n runes, or maxVariants+1 when it is larger.
func variantCount(n, k int) int {
	count := 1
	for i := range k {
		count = count * (n - i) / (i + 1)
		if count > maxVariants {
			return maxVariants + 1
		}
	}
	return count
}

// Suggest is Suggest(word, candidates) for the index's candidates.
func (ix *Index) Suggest(word string) []string {
	return ix.Close(word, 2, 0.6)
}

// Close is Close(word, candidates, n, cutoff) for the index's candidates:
// the same strings in the same order.
func (ix *Index) Close(word string, n int, cutoff float64) []string {
	if n <= 0 || !(cutoff >= 0 && cutoff <= 1) || len(ix.cands) == 0 {
		return nil
	}
	l := lookup{ix: ix, n: n, cutoff: cutoff, top: make([]scored, 0, n+1)}
	l.m.init(word, ix.maxLen)
	lb := len(l.m.b)
	if l.p = ix.lists.Load(); l.p != nil {
		buf := make([]gram, 0, len(gramSizes)*lb)
		for _, q := range gramSizes {
			buf = gramsOf(buf, l.m.b, q)
			l.grams[q] = buf[len(buf)-max(0, lb-q+1):]
		}
		l.seed()
	}
	// Visit the lengths nearest lb first: their bound is the highest. On
	// each side the length bound falls with the distance, and the threshold
	// only rises, so a side ends at its first length out of reach.
	up := sort.Search(len(ix.buckets), func(i int) bool { return ix.buckets[i].n >= lb })
	down := up - 1
	for up < len(ix.buckets) || down >= 0 {
		var b *bucket
		if down < 0 || up < len(ix.buckets) && ix.buckets[up].n-lb <= lb-ix.buckets[down].n {
			b = &ix.buckets[up]
			up++
		} else {
			b = &ix.buckets[down]
			down--
		}
		if l.minMatches(b.n) > min(b.n, lb) {
			if b.n >= lb {
				up = len(ix.buckets)
			} else {
				down = -1
			}
			continue
		}
		l.visit(b)
	}
	if l.p == nil && ix.auto && ix.scanned.Add(int64(l.examined)) >= ix.buildCost() {
		ix.buildLists()
	}
	compared.Add(int64(l.examined))
	ix.examined.Add(int64(l.examined))
	ix.read.Add(int64(l.read))
	ix.ratios.Add(int64(l.ratios))
	out := make([]string, len(l.top))
	for i, f := range l.top {
		out[i] = f.s
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// lookup is the state of one Close call.
type lookup struct {
	ix     *Index
	p      *postings // the index's lists; nil: compare with every candidate of a bucket
	n      int
	cutoff float64
	m      matcher // b is the word
	grams  [maxQ + 1][]gram
	top    []scored  // the best so far, best first, at most n
	seeds  []int32   // the candidates seed considered, ascending
	ids    []int32   // scratch: the candidates of one bucket to consider
	dels   []deleted // the hashes of the word's runes after k deletions, by k
	lists  [][]int32 // scratch: the lists bySubseq returns

	// examined, read and ratios count the lookup's work (see Index).
	examined, read, ratios int
}

// threshold is the similarity a candidate must reach to be among the
// first n: the cutoff, or the n-th best similarity once n are found.
func (l *lookup) threshold() float64 {
	if len(l.top) < l.n {
		return l.cutoff
	}
	return max(l.cutoff, l.top[l.n-1].score)
}

// minMatches returns the fewest matched runes with which a candidate of la
// runes reaches the threshold: more than min(la, lb) when none can.
func (l *lookup) minMatches(la int) int {
	total, theta := la+len(l.m.b), l.threshold()
	hi := min(la, len(l.m.b))
	return sort.Search(hi+1, func(m int) bool { return ratioOf(m, total) >= theta })
}

// sharedGrams returns how many q-grams, at least, a candidate of la runes
// shares with the word when it has m matched runes: m - (q-1)*b for b
// blocks, with b <= min(m, T-2m+1). Zero says nothing.
func sharedGrams(q, m, la, lb int) int {
	blocks := min(m, la+lb-2*m+1)
	return max(0, m-(q-1)*blocks)
}

// seed compares the word with the candidates one edit away (a rune
// deleted, inserted or replaced) and, while fewer than n are found, with
// those holding its rarest q-gram of the longest q, in the buckets of
// lengths near its own: the threshold rises before the buckets are
// filtered with it.
func (l *lookup) seed() {
	lb := len(l.m.b)
	ids := l.ids[:0]
	for _, e := range [][2]int{{lb, lb}, {lb - 1, lb - 1}, {lb + 1, lb}, {lb, lb - 1}} {
		if b := l.ix.bucket(e[0]); b != nil && e[1] >= 0 {
			for _, p := range l.bySubseq(b.n, e[1], l.variants(lb-e[1])) {
				ids = append(ids, p...)
			}
		}
	}
	l.seedWith(ids)
	if len(l.top) >= l.n {
		return
	}
	for q := maxQ; q >= 1; q-- {
		if len(l.grams[q]) == 0 {
			continue
		}
		ids := l.ids[:0]
		for _, b := range l.ix.buckets {
			if b.n < lb-2 || b.n > lb+2 {
				continue
			}
			var rarest []int32
			for _, g := range l.grams[q] {
				g.n = int32(b.n)
				if p := l.p.grams.get(g.hash()); len(p) > 0 && (rarest == nil || len(p) < len(rarest)) {
					rarest = p
				}
			}
			if len(rarest) <= seedMax {
				ids = append(ids, rarest...)
			}
		}
		l.seedWith(ids)
		return
	}
}

// seedWith considers the candidates ids, once each, and adds them to the
// seeds.
func (l *lookup) seedWith(ids []int32) {
	l.read += len(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	l.considerAll(ids)
	l.seeds = append(l.seeds, ids...)
	slices.Sort(l.seeds)
	l.ids = ids[:0]
}

// bucket returns the bucket of candidates of n runes, or nil.
func (ix *Index) bucket(n int) *bucket {
	i, found := slices.BinarySearchFunc(ix.buckets, n, func(b bucket, n int) int { return cmp.Compare(b.n, n) })
	if !found {
		return nil
	}
	return &ix.buckets[i]
}

// bySubseq returns the lists of candidates of la runes that leave one of
// variants, hashes of sequences of m runes, once la-m of their runes are
// deleted (none or one, which the index holds), until the next call.
func (l *lookup) bySubseq(la, m int, variants []uint64) [][]int32 {
	if la-m > 1 || la > maxSubseq || l.p == nil {
		return nil
	}
	l.lists = l.lists[:0]
	for _, h := range variants {
		if p := l.p.subseqs.get(subseq{h, int32(la)}); len(p) > 0 {
			l.lists = append(l.lists, p)
		}
	}
	return l.lists
}

// visit compares the word with the candidates of one bucket that the
// bounds leave, by the way that reads the fewest entries: the common
// subsequences, the lists of the word's rarest q-grams, or the whole
// bucket.
func (l *lookup) visit(b *bucket) {
	la, lb := b.n, len(l.m.b)
	mMin := l.minMatches(la)
	if mMin > min(la, lb) {
		return
	}
	// A candidate reaching mMin matched runes has a common subsequence of
	// mMin runes with the word (the blocks, in order), which deleting
	// la-mMin of its runes and lb-mMin of the word's leaves. Hashing and
	// looking up a sequence of the word costs about what two entries of a
	// list do; the lists are not looked at when the sequences cost less
	// than the bucket.
	if la-mMin <= 1 && la <= maxSubseq && l.p != nil && 2*variantCount(lb, lb-mMin) < len(b.ids) {
		l.considerLists(l.bySubseq(la, mMin, l.variants(lb-mMin)))
		return
	}
	var best [][]int32 // the lists to read, nil: the whole bucket
	bestCost := len(b.ids)
	for _, q := range gramSizes {
		if l.p == nil {
			break
		}
		need := sharedGrams(q, mMin, la, lb)
		if need == 0 {
			continue
		}
		have := len(l.grams[q])
		if need > have || need > la-q+1 {
			return // no candidate of this length shares enough
		}
		// Any have-need+1 of the word's q-grams include one that each
		// candidate left holds: take the rarest.
		lists := make([][]int32, 0, have)
		for _, g := range l.grams[q] {
			g.n = int32(la)
			lists = append(lists, l.p.grams.get(g.hash()))
		}
		slices.SortFunc(lists, func(x, y []int32) int { return cmp.Compare(len(x), len(y)) })
		lists = lists[:have-need+1]
		cost := 0
		for _, p := range lists {
			cost += len(p)
		}
		if cost < bestCost {
			best, bestCost = lists, cost
		}
	}
	if best == nil {
		l.read += len(b.ids)
		l.considerAll(b.ids)
		return
	}
	l.considerLists(best)
}

// considerLists considers the candidates on lists, once each.
func (l *lookup) considerLists(lists [][]int32) {
	l.ids = l.ids[:0]
	for _, p := range lists {
		l.ids = append(l.ids, p...)
	}
	l.read += len(l.ids)
	slices.Sort(l.ids)
	l.considerAll(slices.Compact(l.ids))
}

// variants returns the hashes of the sequences left by deleting k runes
// of the word, made once per lookup and k; nil when there would be too
// many.
func (l *lookup) variants(k int) []uint64 {
	for _, d := range l.dels {
		if d.k == k {
			return d.v
		}
	}
	v := deletions(nil, l.m.b, k)
	l.dels = append(l.dels, deleted{k, v})
	return v
}

// deleted are the hashes of the sequences k deletions leave of a word.
type deleted struct {
	k int
	v []uint64
}

// considerAll considers the candidates ids but those seed considered.
func (l *lookup) considerAll(ids []int32) {
	for _, id := range ids {
		if _, seeded := slices.BinarySearch(l.seeds, id); !seeded {
			l.consider(id)
		}
	}
}

// consider compares the word with one candidate and keeps it among
// the best n when it reaches the threshold. The quick bounds come first,
// as in Close.
func (l *lookup) consider(id int32) {
	l.examined++
	c := &l.ix.cands[id]
	theta := l.threshold()
	total := c.n + len(l.m.b)
	if ratioOf(min(c.n, len(l.m.b)), total) < theta ||
		ratioOf(intersection(c.sorted, l.m.bSorted), total) < theta {
		return
	}
	l.ratios++
	l.m.setA(c.s)
	r := l.m.ratio()
	if r < theta {
		return
	}
	// Insert in the order of Close: higher score first, then the greater
	// string first.
	f := scored{r, c.s}
	i, _ := slices.BinarySearchFunc(l.top, f, compareScored)
	if i >= l.n {
		return
	}
	l.top = slices.Insert(l.top, i, f)
	if len(l.top) > l.n {
		l.top = l.top[:l.n]
	}
}

// compareScored orders scored candidates as Close returns them.
func compareScored(x, y scored) int {
	switch {
	case x.score > y.score:
		return -1
	case x.score < y.score:
		return 1
	}
	return strings.Compare(y.s, x.s)
}
