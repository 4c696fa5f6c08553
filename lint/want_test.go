package lint

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A lint case states the findings it expects in its own config.toml, the
// way analysistest's // want comments do (docs/testing.md):
//
//	available = "All"   # want: all-spelling writes available = "All"
//	# want+2: suppression-unused hides nothing
//	# want-1: unknown-toolset no toolset 'webb'
//	# want manifest.json:7: stale-manifest-server describes MCP server 'files'
//
// Each `# want` comment expects one finding of the rule it names, whose
// message (as the human output prints it) holds the text after the rule
// ID: on the comment's own line, N lines below (+N) or above (-N) it, or
// on a line of another file of the case (a manifest.json has no comments).
// A line may hold several, each starting `# want`. Every finding of the
// case must be wanted, and every want found: a case without a want
// comment expects no finding at all.

// wantMarker starts a want comment: "# want" at the start of a line or
// after white space, the place it names, and a colon.
var wantMarker = regexp.MustCompile(`(?:^|[ \t])# want(?:([+-][0-9]+)| ([^\s:]+):([0-9]+))?:`)

// want is one expected finding.
type want struct {
	file       string
	line       int
	rule, text string
	at         int // the config's line the comment is on, for messages
}

// parseWants reads the want comments of a case's config.
func parseWants(cfg []byte) ([]want, error) {
	var out []want
	var errs []string
	for i, line := range strings.Split(string(cfg), "\n") {
		at := i + 1
		line = strings.TrimSuffix(line, "\r")
		marks := wantMarker.FindAllStringSubmatchIndex(line, -1)
		for k, m := range marks {
			end := len(line)
			if k+1 < len(marks) {
				end = marks[k+1][0]
			}
			w := want{file: "config.toml", line: at, at: at}
			switch {
			case m[2] >= 0:
				n, _ := strconv.Atoi(line[m[2]:m[3]])
				w.line = at + n
			case m[4] >= 0:
				w.file = line[m[4]:m[5]]
				w.line, _ = strconv.Atoi(line[m[6]:m[7]])
			}
			body := strings.TrimSpace(line[m[1]:end])
			w.rule, w.text, _ = strings.Cut(body, " ")
			w.text = strings.TrimSpace(w.text)
			if w.rule == "" {
				errs = append(errs, fmt.Sprintf("config.toml:%d: a want comment names no rule", at))
				continue
			}
			out = append(out, w)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

// headline is one finding as the human output's first line of it gives
// it: "config.toml:10:13: error: message [rule]".
type headline struct {
	file     string
	line     int
	severity string
	message  string
	rule     string
	text     string // the whole line
}

var headlineForm = regexp.MustCompile(`^(.+?)(?::([0-9]+):[0-9]+(?:-[0-9]+(?::[0-9]+)?)?)?: (error|warning|info): (.*) \[([^\]]+)\]$`)

var summaryForm = regexp.MustCompile(`^([0-9]+) errors?, ([0-9]+) warnings?, ([0-9]+) info$`)

// readHuman reads the findings of the human output. Lines under a
// finding start with two spaces; the last line is the summary, whose
// counts must be those of the findings above it.
func readHuman(human []byte) ([]headline, error) {
	var out []headline
	lines := strings.Split(strings.TrimSuffix(string(human), "\n"), "\n")
	if len(human) == 0 {
		return nil, nil
	}
	counts := map[string]int{}
	for i, line := range lines {
		if strings.HasPrefix(line, "  ") {
			continue
		}
		if i == len(lines)-1 {
			m := summaryForm.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("the output does not end with a summary: %q", line)
			}
			for k, sev := range []string{"error", "warning", "info"} {
				if n, _ := strconv.Atoi(m[k+1]); n != counts[sev] {
					return nil, fmt.Errorf("the summary counts %d %s, the output shows %d: %q", n, sev, counts[sev], line)
				}
			}
			break
		}
		m := headlineForm.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("not a finding's first line: %q", line)
		}
		h := headline{file: m[1], severity: m[3], message: m[4], rule: m[5], text: line}
		h.line, _ = strconv.Atoi(m[2])
		counts[h.severity]++
		out = append(out, h)
	}
	return out, nil
}

// checkWants fails the test on each problem wantProblems finds.
func checkWants(t *testing.T, cfg, human []byte) {
	t.Helper()
	for _, p := range wantProblems(cfg, human) {
		t.Error(p)
	}
}

// wantProblems matches the findings of the human output with the want
// comments of the config, one to one, and returns what is left on either
// side.
func wantProblems(cfg, human []byte) []string {
	wants, err := parseWants(cfg)
	if err != nil {
		return []string{err.Error()}
	}
	found, err := readHuman(human)
	if err != nil {
		return []string{fmt.Sprintf("%v\n%s", err, human)}
	}
	var problems []string
	matches := func(w want, h headline) bool {
		return w.file == h.file && w.line == h.line && w.rule == h.rule && strings.Contains(h.message, w.text)
	}
	// Match wants to findings: augmenting paths, so that a general want
	// does not take the finding a specific one needs.
	owner := make([]int, len(found)) // finding -> want, -1 when free
	for i := range owner {
		owner[i] = -1
	}
	var try func(w int, seen []bool) bool
	try = func(w int, seen []bool) bool {
		for f, h := range found {
			if seen[f] || !matches(wants[w], h) {
				continue
			}
			seen[f] = true
			if owner[f] < 0 || try(owner[f], seen) {
				owner[f] = w
				return true
			}
		}
		return false
	}
	for w := range wants {
		if !try(w, make([]bool, len(found))) {
			var near []string
			for _, h := range found {
				if h.file == wants[w].file && h.line == wants[w].line {
					near = append(near, "\n\t"+h.text)
				}
			}
			problems = append(problems, fmt.Sprintf("config.toml:%d: want %s:%d: %s %q: no such finding%s", wants[w].at, wants[w].file, wants[w].line, wants[w].rule, wants[w].text, strings.Join(near, "")))
		}
	}
	for f, h := range found {
		if owner[f] < 0 {
			problems = append(problems, "unexpected finding (state it with a # want comment): "+h.text)
		}
	}
	return problems
}

// TestWantComments states the want comments' form and the matching of
// findings to them.
func TestWantComments(t *testing.T) {
	cfg := []byte("# R1\n" +
		"a = 1 # want: rule-a one\n" +
		"b = 2 # want: rule-b # want: rule-b two words\r\n" +
		"# want+1: rule-c\n" +
		"c = 3\n" +
		"# want-5: rule-d\n" +
		"# want manifest.json:7: rule-e the manifest\n" +
		"d = \"# want: rule-f\"\n") // no white space before it: not a want
	got, err := parseWants(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := func(file string, line int, rule, text string, at int) want {
		return want{file: file, line: line, rule: rule, text: text, at: at}
	}
	exp := []want{
		w("config.toml", 2, "rule-a", "one", 2),
		w("config.toml", 3, "rule-b", "", 3),
		w("config.toml", 3, "rule-b", "two words", 3),
		w("config.toml", 5, "rule-c", "", 4),
		w("config.toml", 1, "rule-d", "", 6),
		w("manifest.json", 7, "rule-e", "the manifest", 7),
	}
	if !slices.Equal(got, exp) {
		t.Errorf("parseWants:\n got %+v\nwant %+v", got, exp)
	}
	if _, err := parseWants([]byte("a = 1 # want: \n")); err == nil {
		t.Error("a want naming no rule is accepted")
	}

	human := []byte("config.toml:2:1: error: one thing [rule-a]\n" +
		"  2 | a = 1\n" +
		"    | ^\n" +
		"config.toml:3:1: warning: two words here [rule-b]\n" +
		"config.toml:3:1: warning: other words [rule-b]\n" +
		"manifest.json:7:3: info: in the manifest [rule-e]\n" +
		"1 error, 2 warnings, 1 info\n")
	found, err := readHuman(human)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 4 || found[3].file != "manifest.json" || found[3].line != 7 || found[1].severity != "warning" {
		t.Errorf("readHuman: %+v", found)
	}
	if _, err := readHuman(bytes.Replace(human, []byte("2 warnings"), []byte("1 warning"), 1)); err == nil {
		t.Error("a summary that miscounts is accepted")
	}
	// The general want of line 3 must not take the finding the specific
	// one needs, whichever comes first.
	ok := []byte("# R1\na = 1 # want: rule-a one\n" +
		"b = 2 # want: rule-b # want: rule-b two words\n" +
		"# want manifest.json:7: rule-e manifest\n")
	checkWants(t, ok, human)
	for _, bad := range []string{
		"# R1\na = 1 # want: rule-a one\nb = 2 # want: rule-b two # want: rule-b two\n# want manifest.json:7: rule-e\n", // one finding for two wants
		"# R1\na = 1 # want: rule-a one\nb = 2 # want: rule-b\n# want manifest.json:7: rule-e\n",                        // a finding not wanted
		"# R1\na = 1 # want: rule-x\nb = 2 # want: rule-b # want: rule-b\n# want manifest.json:7: rule-e\n",             // another rule
		"# R1\na = 1 # want: rule-a\nb = 2 # want: rule-b # want: rule-b\n# want manifest.json:8: rule-e\n",             // another line
	} {
		if len(wantProblems([]byte(bad), human)) == 0 {
			t.Errorf("checkWants accepts\n%s", bad)
		}
	}
}
