package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// goldenCase is one folder of testdata/lint: config.toml, an optional
// manifest.json (the embedded default install otherwise), and the expected
// human and JSON output.
type goldenCase struct {
	name, dir string
}

func goldenCases(t *testing.T) []goldenCase {
	t.Helper()
	var out []goldenCase
	for _, d := range golden.Cases(t, "lint") {
		out = append(out, goldenCase{name: filepath.Base(d), dir: d})
	}
	return out
}

// lintCase lints a case the way the command does, with file names relative
// to the case folder so that the golden output does not depend on where
// the repository is.
func lintCase(t testing.TB, dir string) (human, js []byte) {
	t.Helper()
	ds, sources := lintCaseFiles(t, dir)
	var h, j bytes.Buffer
	if err := Write(&h, "human", ds, WriteOptions{Sources: sources}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&j, ds); err != nil {
		t.Fatal(err)
	}
	return h.Bytes(), j.Bytes()
}

// lintCaseFiles lints the config.toml of a case folder against its
// manifest.json, or the embedded default when it has none, and returns
// the findings and the two files by the names the findings give them.
func lintCaseFiles(t testing.TB, dir string) ([]diag.Diagnostic, map[string][]byte) {
	t.Helper()
	cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := DefaultManifest()
	if data, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err == nil {
		m = LoadManifest(Source{Name: "manifest.json", Data: data})
	}
	ds := Lint(Source{Name: "config.toml", Data: cfg}, m).Diagnostics
	return ds, map[string][]byte{"config.toml": cfg, m.Source.Name: m.Source.Data}
}

// TestGolden lints every case of testdata/lint and compares the output with
// want.txt and want.json; go test ./lint -update rewrites them.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			human, js := lintCase(t, c.dir)
			golden.Check(t, filepath.Join(c.dir, "want.txt"), human)
			golden.Check(t, filepath.Join(c.dir, "want.json"), js)
		})
	}
}

var citesRule = regexp.MustCompile(`\b[RA][0-9]+\b`)

// TestGoldenCorpus holds the corpus to its conventions: a case named
// <rule-id>--fail-... reports that rule, one named <rule-id>--pass-... does
// not, every rule has both, and every config cites the rules.md numbers it
// exercises in a comment.
func TestGoldenCorpus(t *testing.T) {
	fails, passes := map[string]int{}, map[string]int{}
	for _, c := range goldenCases(t) {
		cfg, err := os.ReadFile(filepath.Join(c.dir, "config.toml"))
		if err != nil {
			t.Fatal(err)
		}
		if !citesRule.Match(firstComments(cfg)) {
			t.Errorf("%s: config.toml should open with a comment citing the R-numbers it exercises", c.name)
		}
		id, kind, ok := strings.Cut(c.name, "--")
		if !ok {
			continue
		}
		if rules.ByID(id) == nil {
			t.Errorf("%s: no rule %q", c.name, id)
			continue
		}
		human, _ := lintCase(t, c.dir)
		fired := bytes.Contains(human, []byte("["+id+"]\n"))
		switch {
		case strings.HasPrefix(kind, "fail"):
			fails[id]++
			if !fired {
				t.Errorf("%s: a failing case, but %s did not report", c.name, id)
			}
		case strings.HasPrefix(kind, "pass"):
			passes[id]++
			if fired {
				t.Errorf("%s: a passing case, but %s reported", c.name, id)
			}
		default:
			t.Errorf("%s: name the case <rule-id>--fail-<what> or <rule-id>--pass-<what>", c.name)
		}
	}
	for _, r := range rules.All() {
		if fails[r.ID] == 0 || passes[r.ID] == 0 {
			t.Errorf("rule %s needs a failing and a passing golden case (has %d failing, %d passing)", r.ID, fails[r.ID], passes[r.ID])
		}
	}
}

// firstComments returns the comment lines a file opens with.
func firstComments(data []byte) []byte {
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // a case about a leading BOM
	var out []byte
	for _, line := range bytes.Split(data, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			break
		}
		out = append(out, line...)
		out = append(out, '\n')
	}
	return out
}
