package similar

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// names is the project's list of tool-group names used by the suggestion tests.
var names = []string{
	"aimu_agents", "audio", "benchmark", "capabilities", "compute", "config",
	"conversations", "documents", "fs", "fs_write", "github_backup", "image",
	"mcp", "memory", "messaging", "misc", "planning", "scheduling", "skills",
	"speech", "time", "transcription", "web", "core",
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		word       string
		candidates []string
		want       []string
	}{
		{"computr", names[:23], []string{"compute"}},
		{"computr", names, []string{"compute"}},
		{"memry", names, []string{"memory"}},
		{"execute_pythn", []string{"calculate", "execute_python", "run_command"}, []string{"execute_python"}},
		{"add_mcp_servr", []string{"add_mcp_server", "remove_mcp_server"}, []string{"add_mcp_server", "remove_mcp_server"}},
		{"update_confg", []string{"read_config", "update_config"}, []string{"update_config", "read_config"}},
		{"conf", names, []string{"config"}},
		{"cor", names, []string{"core"}},
		{"fs_writ", names, []string{"fs_write"}},
		{"plan", names, []string{"planning"}},
		{"tim", names, []string{"time"}},
		{"speach", names, []string{"speech"}}, //nolint:misspell // a deliberate typo
		{"imag", names, []string{"image"}},
		{"wheel", []string{"while", "when", "whale", "wheat"}, []string{"when", "while"}},
		{"zzzz", names, nil},
		{"memory", nil, nil},
	}
	for _, tt := range tests {
		got := Suggest(tt.word, tt.candidates)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Suggest(%q, %q) = %q, want %q", tt.word, tt.candidates, got, tt.want)
		}
	}
}

func TestClose(t *testing.T) {
	wheel := []string{"while", "when", "whale", "wheat"}
	tests := []struct {
		word       string
		candidates []string
		n          int
		cutoff     float64
		want       []string
	}{
		// The example from the Python documentation.
		{"appel", []string{"ape", "apple", "peach", "puppy"}, 3, 0.6, []string{"apple", "ape"}},
		// when scores 2/3; the other three tie at 0.6 and come in
		// decreasing string order, as heapq.nlargest orders them.
		{"wheel", wheel, 4, 0.6, []string{"when", "while", "wheat", "whale"}},
		{"wheel", wheel, 3, 0.6, []string{"when", "while", "wheat"}},
		{"wheel", wheel, 3, 0.0, []string{"when", "while", "wheat"}},
		{"wheel", wheel, 4, 0.61, []string{"when"}},
		{"wheel", wheel, 1, 0.7, nil},
		{"conf", names, 5, 0.0, []string{"config", "core", "compute", "transcription", "conversations"}},
		{"cor", names, 5, 0.0, []string{"core", "memory", "config", "compute", "conversations"}},
		{"fs_writ", names, 5, 0.0, []string{"fs_write", "fs", "transcription", "skills", "config"}},
		{"plan", names, 5, 0.0, []string{"planning", "messaging", "scheduling", "mcp", "aimu_agents"}},
		{"tim", names, 5, 0.0, []string{"time", "image", "mcp", "misc", "aimu_agents"}},
		{"speach", names, 5, 0.0, []string{"speech", "misc", "benchmark", "scheduling", "planning"}}, //nolint:misspell // a deliberate typo
		{"imag", names, 5, 0.0, []string{"image", "aimu_agents", "time", "messaging", "config"}},
		// Duplicates are kept, exact matches score 1.
		{"abc", []string{"abc", "abd", "abc"}, 5, 1.0, []string{"abc", "abc"}},
		{"", []string{"", "a"}, 5, 0.0, []string{"", "a"}},
		// Invalid arguments, for which Python raises ValueError.
		{"abc", []string{"abc"}, 0, 0.6, nil},
		{"abc", []string{"abc"}, -1, 0.6, nil},
		{"abc", []string{"abc"}, 1, -0.1, nil},
		{"abc", []string{"abc"}, 1, 1.1, nil},
		{"abc", []string{"abc"}, 1, math.NaN(), nil},
	}
	for _, tt := range tests {
		got := Close(tt.word, tt.candidates, tt.n, tt.cutoff)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Close(%q, %q, %d, %v) = %q, want %q", tt.word, tt.candidates, tt.n, tt.cutoff, got, tt.want)
		}
	}
}

func TestRatioExact(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"abcd", "bcde", 0.75},
		{"", "", 1.0},
		{"a", "", 0.0},
		{"", "a", 0.0},
		// The Python documentation's example: matching blocks "ab" and "cd".
		{"qabxcd", "abycdf", 2.0 * 4 / 12},
	}
	for _, tt := range tests {
		if got := Ratio(tt.a, tt.b); got != tt.want {
			t.Errorf("Ratio(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestRatioPython compares against values computed with Python 3.11:
// difflib.SequenceMatcher(None, a, b).ratio(), rounded to 9 decimals.
func TestRatioPython(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"compute", "computr", 0.857142857},
		{"computr", "compute", 0.857142857},
		{"memory", "memry", 0.909090909},
		{"memry", "memory", 0.909090909},
		{"config", "conf", 0.800000000},
		{"core", "cor", 0.857142857},
		{"execute_python", "execute_pythn", 0.962962963},
		{"calculate", "execute_pythn", 0.363636364},
		{"run_command", "execute_pythn", 0.166666667},
		{"add_mcp_server", "add_mcp_servr", 0.962962963},
		{"remove_mcp_server", "add_mcp_servr", 0.666666667},
		{"read_config", "update_confg", 0.608695652},
		{"update_config", "update_confg", 0.960000000},
		{"apple", "appel", 0.800000000},
		{"ape", "appel", 0.750000000},
		{"peach", "appel", 0.400000000},
		{"puppy", "appel", 0.400000000},
		{"while", "wheel", 0.600000000},
		{"when", "wheel", 0.666666667},
		{"whale", "wheel", 0.600000000},
		{"wheat", "wheel", 0.600000000},
		{"abcd", "bcde", 0.750000000},
		{"qabxcd", "abycdf", 0.666666667},
		{"", "", 1.000000000},
		{"a", "", 0.000000000},
		{"", "a", 0.000000000},
		{"abc", "abc", 1.000000000},
		{"abc", "cba", 0.333333333},
		{"transcription", "transcript", 0.869565217},
		{"conversations", "conversation", 0.960000000},
		{"scheduling", "schedule", 0.777777778},
		{"fs_write", "fs_writ", 0.933333333},
		{"fs", "fs_write", 0.400000000},
		{"github_backup", "gh_backup", 0.818181818},
		{"capabilities", "capability", 0.818181818},
		{"aimu_agents", "agents", 0.705882353},
		{"benchmark", "bench", 0.714285714},
		{"messaging", "message", 0.750000000},
		{"speech", "speach", 0.833333333}, //nolint:misspell // a deliberate typo
		{"image", "imag", 0.888888889},
		{"time", "tim", 0.857142857},
		{"planning", "plan", 0.666666667},
		{"documents", "docs", 0.615384615},
		{"skills", "skill", 0.909090909},
		{"audio", "audi", 0.888888889},
		{"web", "wbe", 0.666666667},
		{"misc", "mics", 0.750000000},
		{"mcp", "mpc", 0.666666667},
		{"héllo", "hello", 0.800000000},
		{"日本語", "日本", 0.800000000},
		{"naïve café", "naive cafe", 0.800000000},
		{"ababab", "bababa", 0.833333333},
		{"abxcd", "abcd", 0.888888889},
		{"tide", "diet", 0.250000000},
		{"private Thread currentThread;", "private volatile Thread currentThread;", 0.865671642},
		{"GetUserByID", "get_user_by_id", 0.480000000},
		{"aaaa", "aa", 0.666666667},
		{"xyz", "abc", 0.000000000},
		// b has 200 or more runes: the autojunk heuristic applies.
		{strings.Repeat("a", 300), strings.Repeat("a", 300), 1.000000000},
		{"x" + strings.Repeat("ab", 50), strings.Repeat("ab", 100) + "x", 0.006622517},
		{"abc", strings.Repeat("a", 199) + "bc", 0.029411765},
		{"abc", strings.Repeat("a", 198) + "bc", 0.029556650},
		{strings.Repeat("a", 250), strings.Repeat("a", 250) + "b", 0.998003992},
		{"b" + strings.Repeat("a", 10), "b" + strings.Repeat("a", 250), 0.083969466},
		{strings.Repeat("xyz", 5), strings.Repeat("xyzw", 60), 0.023529412},
		{strings.Repeat("abcdefghij", 25), strings.Repeat("abcdefghij", 25), 1.000000000},
	}
	for _, tt := range tests {
		got := Ratio(tt.a, tt.b)
		if math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("Ratio(%.40q, %.40q) = %.12f, want %.9f", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestSuggestAllocs(t *testing.T) {
	for _, tt := range []struct {
		mode  int
		most  float64
		lists string
	}{{listsNever, 8, "comparing with every name"}, {listsNow, 30, "reading its lists"}} {
		ix := newIndex(names, tt.mode)
		allocs := testing.AllocsPerRun(100, func() { ix.Suggest("computr") })
		if allocs > tt.most {
			t.Errorf("Index.Suggest, %s, allocates %v times per call, want at most %v", tt.lists, allocs, tt.most)
		}
	}
}

func FuzzRatio(f *testing.F) {
	f.Add("abcd", "bcde")
	f.Add("qabxcd", "abycdf")
	f.Add("", "")
	f.Add("héllo", "hello")
	f.Add(strings.Repeat("ab", 120), "b"+strings.Repeat("a", 210))
	f.Fuzz(func(t *testing.T, a, b string) {
		r := Ratio(a, b)
		if !(r >= 0 && r <= 1) {
			t.Fatalf("Ratio(%q, %q) = %v, outside [0, 1]", a, b, r)
		}
		if a != "" {
			if r := Ratio(a, a); r != 1 {
				t.Fatalf("Ratio(%q, %q) = %v, want 1", a, a, r)
			}
		}
		if utf8.RuneCountInString(a)+utf8.RuneCountInString(b) == 0 && r != 1 {
			t.Fatalf("Ratio of empty strings = %v, want 1", r)
		}
		Close(a, []string{b, a, ""}, 2, 0.6)
	})
}

func BenchmarkSuggest(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Suggest("computr", names)
	}
}

func BenchmarkRatio(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Ratio("execute_python", "execute_pythn")
	}
}

// flagNames are the long flags of kokua-lint and kokua-compile, for
// TestSuggestParts.
var flagNames = []string{
	"manifest", "format", "color", "fail-on", "list-rules", "stdin-filename", "only-kokua", "fix",
	"unsafe-fixes", "diff", "sarif-file", "output", "check", "sign", "base-manifest", "allow-widen",
	"verify-key", "base", "help", "version",
}

// TestSuggestParts: a flag whose parts come in another order, or one of
// them mistyped as well, is answered with the flag; what Suggest finds is
// kept as it is, and a word close to nothing in any order gets nothing.
func TestSuggestParts(t *testing.T) {
	tests := []struct {
		word string
		want []string
	}{
		{"fix-unsafe", []string{"unsafe-fixes"}},
		{"fixes-unsafe", []string{"unsafe-fixes"}},
		{"on-fail", []string{"fail-on"}},
		{"kokua-only", []string{"only-kokua"}},
		{"file-sarif", []string{"sarif-file"}},
		{"rules-list", []string{"list-rules"}},
		{"widen-allow", []string{"allow-widen"}},
		{"key-verify", []string{"verify-key"}},
		{"manifest-bse", []string{"base-manifest"}},
		{"formt", []string{"format"}},
		{"fail-of", []string{"fail-on"}},
		{"no-such-flag", nil},
		{"zz-yy", nil},
	}
	for _, tt := range tests {
		got := SuggestParts(tt.word, flagNames, "-")
		if (tt.want == nil) != (got == nil) || tt.want != nil && got[0] != tt.want[0] {
			t.Errorf("SuggestParts(%q) = %q, want %q first", tt.word, got, tt.want)
		}
	}
}

// TestSuggestPartsReordered: every flag of two or more parts, its parts
// put in every other order, is suggested first; and SuggestParts answers
// as Suggest wherever Suggest finds something.
func TestSuggestPartsReordered(t *testing.T) {
	for _, name := range flagNames {
		parts := strings.Split(name, "-")
		if len(parts) < 2 {
			continue
		}
		for _, order := range permutations(parts) {
			word := strings.Join(order, "-")
			if word == name {
				continue
			}
			if got := SuggestParts(word, flagNames, "-"); len(got) == 0 || got[0] != name {
				t.Errorf("SuggestParts(%q) = %q, want %q first", word, got, name)
			}
		}
	}
	// Names of one part: the same answers as Suggest, on the suggestion
	// tests' own names.
	for _, word := range []string{"computr", "memry", "conf", "cor", "fs_writ", "plan", "tim", "imag", "zzzz", "co", "sk"} {
		if got, want := SuggestParts(word, names, "-"), Suggest(word, names); !slices.Equal(got, want) {
			t.Errorf("SuggestParts(%q) = %q, Suggest %q", word, got, want)
		}
	}
}

// permutations lists every order of parts.
func permutations(parts []string) [][]string {
	if len(parts) <= 1 {
		return [][]string{slices.Clone(parts)}
	}
	var out [][]string
	for i := range parts {
		rest := append(slices.Clone(parts[:i]), parts[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{parts[i]}, p...))
		}
	}
	return out
}

// TestSuggestPartsAgreesWithSuggest: where no name holds the separator,
// SuggestParts is Suggest, over generated near misses of the suggestion
// tests' names (which hold none of "-").
func TestSuggestPartsAgreesWithSuggest(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 5))
	alphabet := []rune("abcdefghijklmnopqrstuvwxyz_")
	for range 2000 {
		word := nearMiss(rng, alphabet, names[rng.IntN(len(names))])
		if strings.Contains(word, "-") {
			continue
		}
		if got, want := SuggestParts(word, names, "-"), Suggest(word, names); !slices.Equal(got, want) {
			t.Errorf("SuggestParts(%q) = %q, Suggest %q", word, got, want)
		}
	}
}
