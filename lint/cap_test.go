package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// TestOutputCap lints the cases of testdata/cap, each with more findings
// in one file than MaxFindingsPerFile: the human and github formats show
// MaxFindingsPerFile of them and end with a line counting the rest, whose
// last lines are compared with want.human.txt and want.github.txt (go test
// ./lint -run TestOutputCap -update rewrites them); json and sarif hold
// every finding.
func TestOutputCap(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "cap", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases under testdata/cap: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
			if err != nil {
				t.Fatal(err)
			}
			ds := Lint(Source{Name: "config.toml", Data: cfg}, DefaultManifest()).Diagnostics
			if len(ds) <= MaxFindingsPerFile {
				t.Fatalf("the case has %d findings, not more than the cap of %d", len(ds), MaxFindingsPerFile)
			}
			opts := WriteOptions{Sources: map[string][]byte{"config.toml": cfg}}
			render := func(format string) []byte {
				var b bytes.Buffer
				if err := Write(&b, format, ds, opts); err != nil {
					t.Fatal(err)
				}
				return b.Bytes()
			}
			human, github := render("human"), render("github")
			if n := len(findingLine.FindAll(human, -1)); n != MaxFindingsPerFile {
				t.Errorf("the human format shows %d findings, want %d", n, MaxFindingsPerFile)
			}
			if n := bytes.Count(github, []byte("::error file=config.toml,")); n != MaxFindingsPerFile {
				t.Errorf("the github format shows %d findings, want %d", n, MaxFindingsPerFile)
			}
			golden.Check(t, filepath.Join(dir, "want.human.txt"), lastLines(human, 8))
			golden.Check(t, filepath.Join(dir, "want.github.txt"), lastLines(github, 3))
			var js JSONReport
			if err := json.Unmarshal(render("json"), &js); err != nil {
				t.Fatal(err)
			}
			var sarif sarifLog
			if err := json.Unmarshal(render("sarif"), &sarif); err != nil {
				t.Fatal(err)
			}
			if len(js.Diagnostics) != len(ds) || len(sarif.Runs[0].Results) != len(ds) {
				t.Errorf("json holds %d findings and sarif %d, want all %d", len(js.Diagnostics), len(sarif.Runs[0].Results), len(ds))
			}
		})
	}
}

// findingLine is the first line of a finding in the human format.
var findingLine = regexp.MustCompile(`(?m)^config\.toml:[0-9]+:[0-9]+: `)

// lastLines returns the last n lines of out.
func lastLines(out []byte, n int) []byte {
	lines := strings.SplitAfter(string(out), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return []byte(strings.Join(lines[max(len(lines)-n, 0):], ""))
}

// TestOutputCapIsPerFile holds the cap to each file on its own: a file
// past it does not hide another's findings, and each file past it gets a
// line of its own.
func TestOutputCapIsPerFile(t *testing.T) {
	var ds []diag.Diagnostic
	add := func(file string, n int) {
		for i := range n {
			ds = append(ds, diag.Diagnostic{Rule: "dead-entry", Severity: diag.Error, Message: "m",
				Span: diag.Span{File: file, Start: diag.Position{Line: i + 1, Column: 1}, End: diag.Position{Line: i + 1, Column: 2}}})
		}
	}
	add("a.toml", MaxFindingsPerFile+1)
	add("b.toml", 3)
	add("c.toml", MaxFindingsPerFile+2000)
	var out bytes.Buffer
	if err := Write(&out, "github", ds, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]int{"a.toml": MaxFindingsPerFile, "b.toml": 3, "c.toml": MaxFindingsPerFile} {
		if got := bytes.Count(out.Bytes(), []byte("::error file="+file+",")); got != want {
			t.Errorf("%s: %d findings shown, want %d", file, got, want)
		}
	}
	want := "::notice title=kokua-lint::a.toml: 1 more finding not shown (see --format json)\n" +
		"::notice title=kokua-lint::c.toml: 2,000 more findings not shown (see --format json)\n"
	if !bytes.HasSuffix(out.Bytes(), []byte(want)) {
		t.Errorf("the output ends\n%s\nwant\n%s", lastLines(out.Bytes(), 2), want)
	}
}
