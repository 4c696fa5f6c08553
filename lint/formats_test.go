package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	// Not used here: kokua-lint writes SARIF with go-sarif v2, whose
	// package links no net/http. This import keeps go-sarif v3 in go.mod
	// (go mod tidy would drop it otherwise) for the one thing the tests
	// take from it, the SARIF 2.1.0 schema that loadSARIFSchema reads from
	// its source in the module cache. Only test binaries link it.
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/escape"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/sariflog"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/internal/version"
)

// formatFiles are the golden files of a testdata/formats case, by the
// --format value that writes them. The human and json formats are held
// to the goldens of testdata/lint (TestGolden) instead.
var formatFiles = map[string]string{"sarif": "want.sarif.json", "github": "want.github.txt"}

// TestEveryFormatHasGoldens: each format Write knows is held to goldens,
// here or in testdata/lint, so that a new format cannot go without.
func TestEveryFormatHasGoldens(t *testing.T) {
	for _, name := range formats.Names() {
		if _, ok := formatFiles[name]; !ok && name != "human" && name != "json" {
			t.Errorf("the %s format has no golden file in formatFiles", name)
		}
	}
	for name := range formatFiles {
		if !formats.Has(name) {
			t.Errorf("formatFiles holds %s, which is no format of Write", name)
		}
	}
}

// formatCases lists the folders of testdata/formats: config.toml, an
// optional manifest.json (the embedded default install otherwise), and the
// expected output of each format of formatFiles.
func formatCases(t *testing.T) []string {
	t.Helper()
	return golden.Cases(t, "formats")
}

// renderCase lints a case as the command does, with file names relative to
// the case folder, and writes the diagnostics in format through Write.
func renderCase(t *testing.T, dir, format string) ([]byte, []diag.Diagnostic) {
	t.Helper()
	ds, sources := lintCaseFiles(t, dir)
	var out bytes.Buffer
	if err := Write(&out, format, ds, WriteOptions{Sources: sources}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), ds
}

// TestFormats renders every case of testdata/formats in each format and
// compares the output with the case's golden files; go test ./lint -run
// TestFormats -update rewrites them. The SARIF output is also validated
// against the SARIF 2.1.0 schema, and each output must come out the same,
// byte for byte, when rendered again.
func TestFormats(t *testing.T) {
	for _, dir := range formatCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			for format, file := range formatFiles {
				got, ds := renderCase(t, dir, format)
				if again, _ := renderCase(t, dir, format); !bytes.Equal(got, again) {
					t.Errorf("--format %s gave different bytes on a second run", format)
				}
				switch format {
				case "sarif":
					validateSARIF(t, got)
					checkSARIFResults(t, got, ds)
				case "github":
					checkGitHubLines(t, got, ds)
				}
				if format == "sarif" {
					checkSARIFGolden(t, dir, got)
					continue
				}
				golden.Check(t, filepath.Join(dir, file), got)
			}
		})
	}
}

// TestFormatsCorpus holds the cases to what they are for: one reports
// every severity and a finding in the manifest, one is clean, and one has
// messages with the characters GitHub's workflow commands escape.
func TestFormatsCorpus(t *testing.T) {
	var allSeverities, inManifest, clean, escapes bool
	for _, dir := range formatCases(t) {
		_, ds := renderCase(t, dir, "github")
		if len(ds) == 0 {
			clean = true
		}
		seen := map[diag.Severity]bool{}
		var text strings.Builder
		for _, d := range ds {
			seen[d.Severity] = true
			if d.Span.File == "manifest.json" {
				inManifest = true
			}
			text.WriteString(d.Message + d.Suggestion)
		}
		if len(seen) == 3 {
			allSeverities = true
		}
		if s := text.String(); strings.Contains(s, "%") && strings.Contains(s, ",") && strings.Contains(s, ":") {
			escapes = true
		}
	}
	if !allSeverities || !inManifest || !clean || !escapes {
		t.Errorf("testdata/formats needs a case with every severity (%v), one with a finding in manifest.json (%v), a clean one (%v) and one whose messages hold %%, ',' and ':' (%v)",
			allSeverities, inManifest, clean, escapes)
	}
}

// sarifLog is the part of a SARIF log the tests read back.
type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		ColumnKind string `json:"columnKind"`
		Tool       struct {
			Driver struct {
				Name    string `json:"name"`
				Version string `json:"version"`
				Rules   []struct {
					ID               string `json:"id"`
					HelpURI          string `json:"helpUri"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					Help struct {
						Text     string `json:"text"`
						Markdown string `json:"markdown"`
					} `json:"help"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI         string `json:"uri"`
						Description *struct {
							Text string `json:"text"`
						} `json:"description"`
					} `json:"artifactLocation"`
					Region *struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
						EndLine     int `json:"endLine"`
						EndColumn   int `json:"endColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			Properties map[string]any `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

func decodeSARIF(t *testing.T, data []byte) sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("the SARIF output is not JSON: %v", err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("the SARIF output has %d runs, want 1", len(log.Runs))
	}
	return log
}

// checkSARIFResults reads a SARIF log back and checks it says what the
// diagnostics say: one rule per rule of the rule set, sorted, with its
// level and page, and one result per diagnostic pointing at its rule by
// index, with its exact region.
func checkSARIFResults(t *testing.T, data []byte, ds []diag.Diagnostic) {
	t.Helper()
	log := decodeSARIF(t, data)
	run := log.Runs[0]
	if log.Version != "2.1.0" || log.Schema != SARIFSchemaURI || run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("version %q, $schema %q, columnKind %q", log.Version, log.Schema, run.ColumnKind)
	}
	if d := run.Tool.Driver; d.Name != "kokua-lint" || d.Version != version.Version {
		t.Errorf("tool.driver is %q %q, want kokua-lint %s", d.Name, d.Version, version.Version)
	}
	all := rules.All()
	if len(run.Tool.Driver.Rules) != len(all) {
		t.Fatalf("tool.driver.rules has %d rules, want the %d of the rule set", len(run.Tool.Driver.Rules), len(all))
	}
	for i, r := range all {
		got := run.Tool.Driver.Rules[i]
		if got.ID != r.ID || got.ShortDescription.Text != r.Summary || got.DefaultConfiguration.Level != wantSARIFLevel[r.Severity] ||
			got.HelpURI != SARIFRuleDocBase+r.ID+".md" || !strings.Contains(got.Help.Text, got.HelpURI) || !strings.Contains(got.Help.Markdown, got.HelpURI) {
			t.Errorf("tool.driver.rules[%d] = %+v does not describe rule %s (%s, %q)", i, got, r.ID, r.Severity, r.Summary)
		}
	}
	if len(run.Results) != len(ds) {
		t.Fatalf("%d results for %d diagnostics", len(run.Results), len(ds))
	}
	for i, d := range ds {
		res := run.Results[i]
		if res.RuleID != d.Rule || run.Tool.Driver.Rules[res.RuleIndex].ID != d.Rule || res.Level != wantSARIFLevel[d.Severity] {
			t.Errorf("result %d: rule %q (index %d), level %q; want %s, %s", i, res.RuleID, res.RuleIndex, res.Level, d.Rule, d.Severity)
		}
		if !strings.HasPrefix(res.Message.Text, d.Message) || (d.Suggestion != "") != strings.Contains(res.Message.Text, "\nhelp: ") {
			t.Errorf("result %d: message %q, want %q with the suggestion %q", i, res.Message.Text, d.Message, d.Suggestion)
		}
		if got, _ := res.Properties["suggestion"].(string); got != d.Suggestion {
			t.Errorf("result %d: properties.suggestion %q, want %q", i, got, d.Suggestion)
		}
		if got, _ := res.Properties["phase"].(string); got != string(d.Phase) {
			t.Errorf("result %d: properties.phase %q, want %q", i, got, d.Phase)
		}
		if len(res.Locations) != 1 {
			t.Errorf("result %d has %d locations, want 1", i, len(res.Locations))
			continue
		}
		loc := res.Locations[0].PhysicalLocation
		checkURIReference(t, loc.ArtifactLocation.URI)
		reg := loc.Region
		if loc.ArtifactLocation.URI != sariflog.URI(d.Span.File) || reg == nil ||
			reg.StartLine != d.Span.Start.Line || reg.StartColumn != d.Span.Start.Column ||
			reg.EndLine != d.Span.End.Line || reg.EndColumn != d.Span.End.Column {
			t.Errorf("result %d: location %+v (region %+v), want %s to %d:%d", i, loc, reg, d.Span, d.Span.End.Line, d.Span.End.Column)
		}
	}
}

// checkURIReference fails the test unless s is a URI reference.
func checkURIReference(t *testing.T, s string) {
	t.Helper()
	if err := uriReferenceError(s); err != nil {
		t.Error(err)
	}
}

// uriReferenceError says why s is no URI reference of RFC 3986, which
// holds only its unreserved and reserved characters, and '%' followed by
// two hex digits.
func uriReferenceError(s string) error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return fmt.Errorf("%q is no URI reference: a %% not followed by two hex digits", s)
			}
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0:
		default:
			return fmt.Errorf("%q is no URI reference: it holds %q", s, c)
		}
	}
	if _, err := url.Parse(s); err != nil {
		return fmt.Errorf("%q is no URI reference: %w", s, err)
	}
	return nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// checkGitHubLines checks the github output has one workflow command per
// diagnostic, on one line each, naming its rule and, for a config or
// --manifest file, its place.
func checkGitHubLines(t *testing.T, data []byte, ds []diag.Diagnostic) {
	t.Helper()
	if len(ds) == 0 {
		if len(data) != 0 {
			t.Errorf("--format github wrote %q for no diagnostics, want nothing", data)
		}
		return
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != len(ds) {
		t.Fatalf("%d lines for %d diagnostics", len(lines), len(ds))
	}
	for i, d := range ds {
		if want := githubAnnotation(d); lines[i] != want {
			t.Errorf("line %d is %q, want %q", i+1, lines[i], want)
		}
		if !strings.HasPrefix(lines[i], "::"+wantGitHubCommand[d.Severity]+" file="+escape.GitHubProperty(d.Span.File)+",line=") ||
			!strings.Contains(lines[i], ",title="+d.Rule+"::") {
			t.Errorf("line %d %q does not name %s, its file and its line", i+1, lines[i], d.Rule)
		}
	}
}

// The official SARIF 2.1.0 schema comes with go-sarif v3, which keeps it as
// the text of a Go constant. The test has the Go command fetch that module
// into the module cache and reads the schema from there, so that no copy
// of it lives in this repository and go.mod does not require a module the
// code does not use (go-sarif v2, which writes the output, does not carry
// the schema).
const (
	sarifModule     = "github.com/owenrumney/go-sarif/v3@v3.3.1"
	sarifSchemaFile = "pkg/report/v210/sarif/schema.go"
)

var sarifSchema = sync.OnceValues(loadSARIFSchema)

func loadSARIFSchema() (*jsonschema.Schema, error) {
	out, err := exec.Command("go", "mod", "download", "-json", sarifModule).Output()
	if err != nil {
		return nil, fmt.Errorf("go mod download %s: %w", sarifModule, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return nil, fmt.Errorf("go mod download %s: no folder in %q", sarifModule, out)
	}
	dir := mod.Dir
	src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(sarifSchemaFile)))
	if err != nil {
		return nil, fmt.Errorf("the SARIF schema of %s: %w", sarifModule, err)
	}
	_, text, ok := strings.Cut(string(src), "const schema = `")
	if ok {
		text, _, ok = strings.Cut(text, "`")
	}
	if !ok {
		return nil, fmt.Errorf("%s of %s no longer holds const schema = `...`", sarifSchemaFile, sarifModule)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("the SARIF schema of %s: %w", sarifModule, err)
	}
	// The schema must be the one our $schema names: the OASIS SARIF 2.1.0
	// schema, errata 01.
	head, _ := doc.(map[string]any)
	if title, _ := head["title"].(string); head["id"] != SARIFSchemaURI || !strings.Contains(title, "(SARIF) Version 2.1.0 JSON Schema") {
		return nil, fmt.Errorf("the schema in %s of %s is not the SARIF 2.1.0 schema %s", sarifSchemaFile, sarifModule, SARIFSchemaURI)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(SARIFSchemaURI, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(SARIFSchemaURI)
	if err != nil {
		return nil, fmt.Errorf("compiling the SARIF schema: %w", err)
	}
	return sch, nil
}

// TestCommandLinksNoSchemaValidator keeps go-sarif v3 and the JSON Schema
// validator it imports out of the kokua-lint binary: they would double it
// and slow every start. The output is written with go-sarif v2; v3 is only
// where the tests find the SARIF schema.
func TestCommandLinksNoSchemaValidator(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/kokua-policy/kokua-policy/cmd/kokua-lint").Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/kokua-lint: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/owenrumney/go-sarif/v3/") || strings.HasPrefix(pkg, "github.com/xeipuuv/") {
			t.Errorf("cmd/kokua-lint links %s", pkg)
		}
	}
}

// validateSARIF validates a SARIF log against the SARIF 2.1.0 schema, with
// formats (uri, uri-reference) asserted.
func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	if err := sarifValidate(t, data); err != nil {
		t.Errorf("the SARIF output does not follow the SARIF 2.1.0 schema: %v\n%s", err, data)
	}
}

func sarifValidate(t *testing.T, data []byte) error {
	t.Helper()
	sch, err := sarifSchema()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// TestSARIFEdges validates the SARIF of diagnostics the golden cases do
// not reach: a finding in the embedded manifest, one with no position, one
// with no file, an absolute path, a path with characters a URI escapes, a
// rule outside the rule set, and text full of JSON and Markdown specials.
func TestSARIFEdges(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join("..", "testdata", "formats", "x", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	at := func(file string, l1, c1, l2, c2 int) diag.Span {
		return diag.Span{File: file, Start: diag.Position{Line: l1, Column: c1}, End: diag.Position{Line: l2, Column: c2}}
	}
	ds := []diag.Diagnostic{
		{Rule: "invalid-manifest", Severity: diag.Error, Phase: diag.PhaseInput, Message: "manifest: bad", Span: at(manifest.DefaultManifestName, 3, 5, 3, 9), Refs: []string{"R161"}},
		{Rule: "no-agents", Severity: diag.Error, Phase: diag.PhaseParse, Message: "no agents", Span: diag.Span{File: "config.toml"}, Key: "[agents]", Suggestion: "add one"},
		{Rule: "invalid-toml", Severity: diag.Error, Phase: diag.PhaseParse, Message: "no file at all"},
		{Rule: "duplicate-name", Severity: diag.Info, Phase: diag.PhaseParse, Message: "twice", Span: at(abs, 1, 1, 1, 1)},
		{Rule: "shadowed-tool", Severity: diag.Warning, Phase: diag.PhaseAlert, Message: "multi-line span", Span: at("my configs/a#b?c%d:e.toml", 2, 3, 4, 1)},
		{Rule: "not-a-rule", Severity: diag.Warning, Phase: diag.PhaseInput, Message: `"quotes" <tags> & \back\slash` + "\ttab", Suggestion: "é ü 日本"},
	}
	var out bytes.Buffer
	if err := WriteSARIF(&out, ds); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, out.Bytes())
	log := decodeSARIF(t, out.Bytes())
	res := log.Runs[0].Results
	if len(res) != len(ds) {
		t.Fatalf("%d results for %d diagnostics", len(res), len(ds))
	}
	for _, r := range res {
		for _, l := range r.Locations {
			checkURIReference(t, l.PhysicalLocation.ArtifactLocation.URI)
		}
	}
	if loc := res[0].Locations[0].PhysicalLocation.ArtifactLocation; loc.URI != SARIFDefaultManifestURI || loc.Description == nil {
		t.Errorf("the embedded manifest's location is %+v, want %s with a description", loc, SARIFDefaultManifestURI)
	}
	if loc := res[1].Locations[0].PhysicalLocation; loc.ArtifactLocation.URI != "config.toml" || loc.Region != nil {
		t.Errorf("a finding with no position should point at the whole file, got %+v", loc)
	}
	if len(res[2].Locations) != 0 {
		t.Errorf("a finding with no file should have no location, got %+v", res[2].Locations)
	}
	if uri := res[3].Locations[0].PhysicalLocation.ArtifactLocation.URI; !strings.HasPrefix(uri, "file:///") || !strings.HasSuffix(uri, "/testdata/formats/x/config.toml") {
		t.Errorf("an absolute path should become a file:/// URI, got %q", uri)
	}
	if uri := res[4].Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "my%20configs/a%23b%3Fc%25d:e.toml" {
		t.Errorf("a path with special characters became %q", uri)
	}
	rs := log.Runs[0].Tool.Driver.Rules
	if n := len(rs); res[5].RuleIndex != n-1 || rs[n-1].ID != "not-a-rule" || n != len(rules.All())+1 {
		t.Errorf("a rule outside the rule set should be described after the others, got index %d of %d", res[5].RuleIndex, n)
	}
}

// TestSARIFSchemaRejects makes sure the validation has teeth: the schema
// refuses a log without its version, with a $schema that is no URI, with a
// region starting on line 0, with a fix that lacks the edit, or with null
// for an array. (The schema is draft-04, which has no uri-reference
// format: checkURIReference checks the artifacts' URIs instead.)
func TestSARIFSchemaRejects(t *testing.T) {
	var out bytes.Buffer
	d := diag.Diagnostic{Rule: "no-agents", Severity: diag.Error, Phase: diag.PhaseParse, Message: "m",
		Span: diag.Span{File: "config.toml", Start: diag.Position{Line: 1, Column: 1}, End: diag.Position{Line: 1, Column: 2}}}
	if err := WriteSARIF(&out, []diag.Diagnostic{d}); err != nil {
		t.Fatal(err)
	}
	good := out.String()
	// The output has no fixes: the two fix cases add one to the result.
	ruleID := `"ruleId": "no-agents",`
	for name, bad := range map[string]string{
		"no version":  strings.Replace(good, `"version": "2.1.0",`, "", 1),
		"line 0":      strings.Replace(good, `"startLine": 1`, `"startLine": 0`, 1),
		"bad $schema": strings.Replace(good, SARIFSchemaURI, "sarif schema", 1),
		"bare fix":    strings.Replace(good, ruleID, `"fixes": [{"description": {"text": "write it right"}}], `+ruleID, 1),
		"null arrays": strings.Replace(good, ruleID, `"fixes": null, `+ruleID, 1),
	} {
		if bad == good {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		if sarifValidate(t, []byte(bad)) == nil {
			t.Errorf("%s: the schema accepted it", name)
		}
	}
}

// TestGitHubAnnotation checks the workflow command of diagnostics the golden
// cases do not reach.
func TestGitHubAnnotation(t *testing.T) {
	at := func(file string, l1, c1, l2, c2 int) diag.Span {
		return diag.Span{File: file, Start: diag.Position{Line: l1, Column: c1}, End: diag.Position{Line: l2, Column: c2}}
	}
	for _, c := range []struct {
		d    diag.Diagnostic
		want string
	}{
		{diag.Diagnostic{Rule: "shadowed-tool", Severity: diag.Warning, Message: "m", Span: at("config.toml", 2, 3, 4, 1)},
			"::warning file=config.toml,line=2,col=3,endLine=4,endColumn=1,title=shadowed-tool::m"},
		{diag.Diagnostic{Rule: "duplicate-name", Severity: diag.Info, Message: "m", Span: at("a,b:c%d.toml", 1, 1, 1, 5)},
			"::notice file=a%2Cb%3Ac%25d.toml,line=1,col=1,endLine=1,endColumn=5,title=duplicate-name::m"},
		{diag.Diagnostic{Rule: "no-agents", Severity: diag.Error, Message: "no agents: none, 100%", Span: diag.Span{File: "config.toml"}, Suggestion: "add\none"},
			"::error file=config.toml,title=no-agents::no agents: none, 100%25%0Ahelp: add\\none"},
		{diag.Diagnostic{Rule: "invalid-manifest", Severity: diag.Error, Message: "manifest: bad", Span: at(manifest.DefaultManifestName, 3, 5, 3, 9)},
			"::error title=invalid-manifest::<default install>:3:5: manifest: bad"},
		{diag.Diagnostic{Rule: "invalid-toml", Severity: diag.Error, Message: "no file"},
			"::error title=invalid-toml::no file"},
	} {
		if got := githubAnnotation(c.d); got != c.want {
			t.Errorf("githubAnnotation(%+v)\n got %q\nwant %q", c.d, got, c.want)
		}
	}
	var out bytes.Buffer
	if err := WriteGitHub(&out, nil); err != nil || out.Len() != 0 {
		t.Errorf("no diagnostics should write nothing, got %q (%v)", out.String(), err)
	}
}

// TestSARIFURI checks how file names become URI references.
func TestSARIFURI(t *testing.T) {
	for in, want := range map[string]string{
		"config.toml":                "config.toml",
		"./deploy/config.toml":       "./deploy/config.toml",
		"../config.toml":             "../config.toml",
		"a b/c.toml":                 "a%20b/c.toml",
		"100%.toml":                  "100%25.toml",
		"q?#.toml":                   "q%3F%23.toml",
		"c:onfig.toml":               "./c:onfig.toml",
		manifest.DefaultManifestName: SARIFDefaultManifestURI,
		"/etc/kokua/config.toml":     "file:///etc/kokua/config.toml",
		"/tmp/my dir/config.toml":    "file:///tmp/my%20dir/config.toml",
		"kokua/日本.toml":              "kokua/%E6%97%A5%E6%9C%AC.toml",
		"deploy/prod/config.v2.toml": "deploy/prod/config.v2.toml",
	} {
		if got := sariflog.URI(in); got != want {
			t.Errorf("URI(%q) = %q, want %q", in, got, want)
		}
		checkURIReference(t, sariflog.URI(in))
	}
	for _, bad := range []string{manifest.DefaultManifestName, "a b.toml", "100%.toml", "%zz", "日本.toml"} {
		if uriReferenceError(bad) == nil {
			t.Errorf("%q passed as a URI reference", bad)
		}
	}
}

// TestOutputFormatsConfig keeps docs/output-formats.md's config true:
// it is the case mixed-severities without its opening comments.
// cmd/kokua-lint's TestOutputFormatsDoc runs the page's examples on it,
// stdout and stderr both.
func TestOutputFormatsConfig(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "docs", "output-formats.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "testdata", "formats", "mixed-severities")
	cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string][]string{}
	for _, m := range fence.FindAllStringSubmatch(string(page), -1) {
		blocks[m[1]] = append(blocks[m[1]], m[2])
	}
	if len(blocks["toml"]) == 0 || blocks["toml"][0] != string(cfg[len(firstComments(cfg)):]) {
		t.Errorf("the first toml block of docs/output-formats.md should be %s without its opening comments", dir)
	}
}

// The SARIF level and the GitHub workflow command of each severity, as the
// formats' documents name them.
var (
	wantSARIFLevel    = map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "note"}
	wantGitHubCommand = map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "notice"}
)
