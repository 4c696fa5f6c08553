package similar

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// bruteClose is the reference the index must equal: it compares the word
// with every candidate, as Close did before the index, and sorts what
// reaches the cutoff.
func bruteClose(word string, candidates []string, n int, cutoff float64) []string {
	if n <= 0 || !(cutoff >= 0 && cutoff <= 1) {
		return nil
	}
	var m matcher
	maxLen := 0
	for _, c := range candidates {
		maxLen = max(maxLen, len(c))
	}
	m.init(word, maxLen)
	var found []scored
	for _, c := range candidates {
		m.setA(c)
		if m.realQuickRatio() < cutoff || m.quickRatio() < cutoff {
			continue
		}
		if r := m.ratio(); r >= cutoff {
			found = append(found, scored{r, c})
		}
	}
	if len(found) == 0 {
		return nil
	}
	slices.SortFunc(found, compareScored)
	found = found[:min(n, len(found))]
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.s
	}
	return out
}

// alphabets are the runes generated names are made of: few letters, so
// that names share much and scores tie; dots, as in toolset.tool; and
// runes of two, three and four bytes.
var alphabets = [][]rune{
	[]rune("ab"),
	[]rune("abc_."),
	[]rune("tool_.0123456789"),
	[]rune("aé日😀."),
	[]rune("ab\uFFFD"), // U+FFFD written now and then as an invalid byte
	[]rune("abcdefghijklmnopqrstuvwxyz_"),
}

// randomName writes up to maxLen runes of alphabet; a U+FFFD is written
// two times in three as an invalid byte, which Ratio reads as U+FFFD.
func randomName(rng *rand.Rand, alphabet []rune, maxLen int) string {
	var b strings.Builder
	for range rng.IntN(maxLen + 1) {
		r := alphabet[rng.IntN(len(alphabet))]
		if r == utf8.RuneError && rng.IntN(3) > 0 {
			b.WriteByte([]byte{0xff, 0xfe}[rng.IntN(2)])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// nearMiss changes a name by one or two edits: a rune inserted, deleted,
// replaced, or two neighbours swapped.
func nearMiss(rng *rand.Rand, alphabet []rune, s string) string {
	r := []rune(s)
	for range 1 + rng.IntN(2) {
		i := rng.IntN(len(r) + 1)
		switch op := rng.IntN(4); {
		case op == 0 || len(r) == 0:
			r = slices.Insert(r, i, alphabet[rng.IntN(len(alphabet))])
		case op == 1 && i < len(r):
			r = slices.Delete(r, i, i+1)
		case op == 2 && i < len(r):
			r[i] = alphabet[rng.IntN(len(alphabet))]
		case i+1 < len(r):
			r[i], r[i+1] = r[i+1], r[i]
		}
	}
	return string(r)
}

// candidateSet generates a list of names with duplicates, dotted names and
// the empty string now and then.
func candidateSet(rng *rand.Rand, alphabet []rune, size, maxLen int) []string {
	var cands []string
	for range size {
		switch rng.IntN(10) {
		case 0:
			if len(cands) > 0 {
				cands = append(cands, cands[rng.IntN(len(cands))])
				continue
			}
		case 1:
			cands = append(cands, randomName(rng, alphabet, 4)+"."+randomName(rng, alphabet, maxLen))
			continue
		case 2:
			if rng.IntN(4) == 0 {
				cands = append(cands, "")
				continue
			}
		}
		cands = append(cands, randomName(rng, alphabet, maxLen))
	}
	return cands
}

// queries are the words looked up among cands: near misses of candidates,
// candidates themselves, random names and the empty string.
func queries(rng *rand.Rand, alphabet []rune, cands []string, count, maxLen int) []string {
	words := []string{""}
	for range count {
		switch {
		case len(cands) > 0 && rng.IntN(2) == 0:
			words = append(words, nearMiss(rng, alphabet, cands[rng.IntN(len(cands))]))
		case len(cands) > 0 && rng.IntN(3) == 0:
			words = append(words, cands[rng.IntN(len(cands))])
		default:
			words = append(words, randomName(rng, alphabet, maxLen))
		}
	}
	return words
}

// checkSame requires both kinds of index (with q-gram lists and without)
// to return what bruteClose returns.
func checkSame(t *testing.T, cands []string, word string, n int, cutoff float64) {
	t.Helper()
	want := bruteClose(word, cands, n, cutoff)
	for _, mode := range []int{listsNow, listsNever} {
		got := newIndex(cands, mode).Close(word, n, cutoff)
		if !slices.Equal(got, want) {
			t.Fatalf("index (lists built: %v) Close(%q, %q, %d, %v) = %q, comparing with every candidate gives %q",
				mode == listsNow, word, cands, n, cutoff, got, want)
		}
	}
}

// TestIndexEqualsBruteForce: for generated candidate lists and words, the
// index returns exactly what comparing with every candidate returns.
func TestIndexEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 2))
	cutoffs := []float64{0.6, 0.6, 0, 0.5, 0.75, 0.8, 0.9, 1}
	for round := range 300 {
		alphabet := alphabets[round%len(alphabets)]
		maxLen := 2 + rng.IntN(14)
		cands := candidateSet(rng, alphabet, rng.IntN(120), maxLen)
		ix := NewIndex(cands) // its lists are built between two lookups
		for _, word := range queries(rng, alphabet, cands, 20, maxLen+2) {
			n := 1 + rng.IntN(4)
			cutoff := cutoffs[rng.IntN(len(cutoffs))]
			checkSame(t, cands, word, n, cutoff)
			// Suggest is Close(word, 2, 0.6), and reusing an index
			// changes nothing.
			if got, want := ix.Suggest(word), bruteClose(word, cands, 2, 0.6); !slices.Equal(got, want) {
				t.Fatalf("Suggest(%q) among %q = %q, want %q", word, cands, got, want)
			}
		}
	}
}

// TestIndexLongNames covers names of 200 runes and more, where Ratio's
// autojunk rule applies to the word.
func TestIndexLongNames(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 3))
	for range 6 {
		alphabet := alphabets[rng.IntN(len(alphabets))]
		base := randomName(rng, alphabet, 260)
		var cands []string
		for range 40 {
			cands = append(cands, nearMiss(rng, alphabet, base), randomName(rng, alphabet, 40))
		}
		for range 4 {
			checkSame(t, cands, nearMiss(rng, alphabet, base), 2, 0.6)
			checkSame(t, cands, strings.Repeat(string(alphabet[0]), 200+rng.IntN(20)), 3, 0.1)
		}
	}
}

// TestIndexTies: many candidates of one score; the greater string wins,
// and duplicates come as often as they are listed.
func TestIndexTies(t *testing.T) {
	var cands []string
	for i := range 100 {
		cands = append(cands, fmt.Sprintf("w%02d", i%50))
	}
	for _, word := range []string{"w7", "w00", "w5x", "x", ""} {
		for _, n := range []int{1, 2, 3, 5, 200} {
			for _, cutoff := range []float64{0, 0.4, 0.6, 1} {
				checkSame(t, cands, word, n, cutoff)
			}
		}
	}
	if got, want := NewIndex(cands).Close("w49", 3, 0.6), []string{"w49", "w49", "w48"}; !slices.Equal(got, want) {
		t.Errorf("Close(\"w49\") = %q, want %q", got, want)
	}
}

// nearMissNames are n tool names of one shape and n words that each miss
// one of them by one rune, the input of issue 18 that took seconds.
func nearMissNames(n int) (tools, words []string) {
	for i := range n {
		tools = append(tools, fmt.Sprintf("tool_%d", i))
		words = append(words, fmt.Sprintf("tool_%dx", i))
	}
	return tools, words
}

// TestIndexWorkIsFarBelowNSquared counts the work of n lookups among n
// near-miss names (the index's counters, not a clock). Comparing with every
// candidate computes n² Ratios; the index computes at most n²/50 and looks
// at no more than n²/5 candidates.
func TestIndexWorkIsFarBelowNSquared(t *testing.T) {
	const n = 3000
	tools, words := nearMissNames(n)
	ix := NewIndex(tools)
	for i, w := range words {
		if got := ix.Suggest(w); len(got) == 0 || got[0] != tools[i] {
			t.Fatalf("Suggest(%q) = %q, want %q first", w, got, tools[i])
		}
	}
	examined, read, ratios := ix.examined.Load(), ix.read.Load(), ix.ratios.Load()
	t.Logf("%d lookups among %d names: %d candidates examined, %d list entries read, %d Ratios computed", n, n, examined, read, ratios)
	if limit := int64(n * n / 50); ratios > limit {
		t.Errorf("%d lookups among %d names computed %d Ratios, want at most %d", n, n, ratios, limit)
	}
	if limit := int64(n * n / 5); examined > limit || read > limit {
		t.Errorf("%d lookups among %d names examined %d candidates and read %d list entries, want at most %d each", n, n, examined, read, limit)
	}
	// Without the q-gram lists a lookup examines every candidate within
	// reach of the length bound: the counters measure what the bounds are
	// about.
	scan := newIndex(tools[:300], listsNever)
	for _, w := range words[:300] {
		scan.Suggest(w)
	}
	if got := scan.examined.Load(); got < 300*300*9/10 {
		t.Errorf("without q-gram lists, 300 lookups among 300 names examined %d candidates, want about %d", got, 300*300)
	}
}

func FuzzIndex(f *testing.F) {
	f.Add("tool_1\ntool_2\ntool_12\nfs.read_file\n\n", "tool_1x", uint8(2), uint8(60))
	f.Add("ab\nba\nab\naab", "ab", uint8(3), uint8(0))
	f.Add("héllo\nhello\n日本語\n日本", "日本x", uint8(2), uint8(50))
	f.Add("a\xffb\na\uFFFDb\nab", "a\xfeb", uint8(3), uint8(60))
	f.Fuzz(func(t *testing.T, list, word string, n, cutoff uint8) {
		cands := strings.Split(list, "\n")
		if len(cands) > 300 || len(list) > 4000 {
			return
		}
		checkSame(t, cands, word, int(n%6), float64(cutoff%101)/100)
	})
}

func BenchmarkIndexNearMiss(b *testing.B) {
	for _, n := range []int{300, 3000, 30000} {
		b.Run(fmt.Sprintf("names=%d", n), func(b *testing.B) {
			tools, words := nearMissNames(n)
			b.ReportAllocs()
			for b.Loop() {
				ix := NewIndex(tools)
				for _, w := range words {
					ix.Suggest(w)
				}
			}
		})
	}
}

// TestIndexConcurrentLookups: lookups from several goroutines, while the
// first of them build the lists, return what comparing with every
// candidate does (go test -race checks the sharing).
func TestIndexConcurrentLookups(t *testing.T) {
	tools, words := nearMissNames(400)
	want := make([][]string, len(words))
	for i, w := range words {
		want[i] = bruteClose(w, tools, 2, 0.6)
	}
	ix := NewIndex(tools)
	errs := make(chan string, 4)
	for g := range 4 {
		go func() {
			for i := range words {
				i = (i + g*100) % len(words)
				if got := ix.Suggest(words[i]); !slices.Equal(got, want[i]) {
					errs <- fmt.Sprintf("Suggest(%q) = %q, want %q", words[i], got, want[i])
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
	if ix.lists.Load() == nil {
		t.Error("1,600 lookups among 400 names did not build the lists")
	}
}
