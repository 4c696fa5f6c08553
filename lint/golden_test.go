package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// goldenCase is one folder of testdata/lint: config.toml, whose # want
// comments state the findings it expects (want_test.go), an optional
// manifest.json (the embedded default install otherwise), and want.txt,
// the human output, where the rendering is the point (rendersSource).
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
// to the case folder, so that the output does not depend on where the
// repository is, and returns the human output.
func lintCase(t testing.TB, dir string) []byte {
	t.Helper()
	ds, sources := lintCaseFiles(t, dir)
	var h bytes.Buffer
	if err := Write(&h, "human", ds, WriteOptions{Sources: sources}); err != nil {
		t.Fatal(err)
	}
	return h.Bytes()
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

// TestGolden lints every case of testdata/lint and matches the findings
// of the human output with the config's # want comments, one to one. A
// case whose rendering is the point (rendersSource), or that keeps a
// want.txt for a doc that shows it, compares the whole output with
// want.txt; go test ./lint -update rewrites those, never the comments.
// The JSON output is held once, by testdata/formats (TestFormats).
func TestGolden(t *testing.T) {
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := os.ReadFile(filepath.Join(c.dir, "config.toml"))
			if err != nil {
				t.Fatal(err)
			}
			human := lintCase(t, c.dir)
			checkWants(t, cfg, human)
			path := filepath.Join(c.dir, "want.txt")
			if _, err := os.Stat(path); err == nil || (len(human) > 0 && rendersSource(cfg)) {
				golden.Check(t, path, human)
			}
			if _, err := os.Stat(filepath.Join(c.dir, "want.json")); err == nil {
				t.Errorf("%s: the JSON output is held once, in testdata/formats: delete want.json", c.name)
			}
		})
	}
}

// quotedLine is how many characters of a source line the human output
// quotes (lint/human.go).
const quotedLine = 400

// rendersSource reports whether the human output of a config is worth
// holding whole: the config holds a byte the quoted line shows otherwise
// (a tab, a control character, a line end other than LF, a byte of no
// character) or a character beyond ASCII, which the underline must count
// right, or a line longer than the quote.
func rendersSource(cfg []byte) bool {
	for _, line := range strings.Split(string(cfg), "\n") {
		if utf8.RuneCountInString(line) > quotedLine {
			return true
		}
		for i := 0; i < len(line); i++ {
			if c := line[i]; c < 0x20 || c > 0x7e {
				return true
			}
		}
	}
	return false
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
		human := lintCase(t, c.dir)
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

// TestJSONGolden holds the JSON output once, on the case of
// testdata/formats with every severity and a finding in the manifest; the
// lint cases state their findings in # want comments, which the JSON
// output gives as the human output does (TestJSONAgreesWithHuman).
func TestJSONGolden(t *testing.T) {
	dir := filepath.Join(golden.Root(t), "testdata", "formats", "mixed-severities")
	ds, _ := lintCaseFiles(t, dir)
	var j bytes.Buffer
	if err := WriteJSON(&j, ds); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join(dir, "want.json"), j.Bytes())
}

// TestJSONAgreesWithHuman holds the JSON output of every lint case to the
// findings the human output prints and the # want comments state: the
// same findings in the same order, each with its rule, severity, place,
// message and suggestion.
func TestJSONAgreesWithHuman(t *testing.T) {
	for _, c := range goldenCases(t) {
		ds, _ := lintCaseFiles(t, c.dir)
		var j bytes.Buffer
		if err := WriteJSON(&j, ds); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Diagnostics []struct {
				Rule, Severity, Phase, Message, File, Key, Suggestion string
				Line, Column                                          int
				EndLine                                               int `json:"end_line"`
				EndColumn                                             int `json:"end_column"`
				Refs                                                  []string
			}
		}
		dec := json.NewDecoder(&j)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		human, err := readHuman(lintCase(t, c.dir))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got.Diagnostics) != len(ds) || len(human) != len(ds) {
			t.Errorf("%s: %d findings, %d in the JSON output, %d in the human output", c.name, len(ds), len(got.Diagnostics), len(human))
			continue
		}
		for i, d := range ds {
			g, h := got.Diagnostics[i], human[i]
			refs := d.Refs
			if refs == nil {
				refs = []string{}
			}
			if g.Rule != d.Rule || g.Rule != h.rule || g.Severity != d.Severity.String() || g.Severity != h.severity ||
				g.Phase != string(d.Phase) || g.File != d.Span.File || g.File != h.file ||
				g.Line != d.Span.Start.Line || g.Line != h.line || g.Column != d.Span.Start.Column ||
				g.EndLine != d.Span.End.Line || g.EndColumn != d.Span.End.Column ||
				g.Message != d.Text() || !strings.HasPrefix(g.Message, d.Message) || h.message != printable.String(d.Message) ||
				g.Key != d.Key || g.Suggestion != d.Suggestion || !slices.Equal(g.Refs, refs) {
				t.Errorf("%s: finding %d: the JSON output gives %+v for %+v (human: %s)", c.name, i, g, d, h.text)
			}
		}
	}
}
