package expect

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/escape"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/sariflog"
	"github.com/kokua-policy/kokua-policy/internal/version"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Shown is how many failing pairs of one claim a report for people
// explains; the rest are counted.
const Shown = 3

// Report is a test run: the config (or policy) checked and the results.
type Report struct {
	// Config is the file the claims were checked against, as named.
	Config  string
	Tests   []string
	Results []Result
}

// Failed counts the claims that do not hold.
func (r *Report) Failed() int {
	n := 0
	for _, res := range r.Results {
		if !res.Passed {
			n++
		}
	}
	return n
}

// Line is the line of the claim's [[expect]] header.
func (res *Result) Line() int { return res.Span.Start.Line }

// at is where an annotation of the claim goes: its first selector that
// matches nothing, or its [[expect]] header.
func (res *Result) at() diag.Span {
	if len(res.Problems) > 0 && !res.Problems[0].Span.IsZero() {
		return res.Problems[0].Span
	}
	return res.Span
}

// want says the wanted decisions: "unavailable", "run or confirm".
func (res *Result) want() string { return strings.Join(res.Want, " or ") }

// Explain says why a claim fails, one line per fact: each selector that
// matches nothing with its help, or the first Shown failing pairs with the
// chain behind each decision and a count of the rest. It is "" for a claim
// that holds.
func (res *Result) Explain() string { return strings.Join(res.explain(), "\n") }

// explain is Explain's lines, each printable.
func (res *Result) explain() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, printable.String(fmt.Sprintf(format, args...))) }
	for _, d := range res.Problems {
		add("%s: %s", d.Span, d.Message)
		for _, n := range d.Notes {
			add("  note: %s", n)
		}
		if d.Suggestion != "" {
			add("  help: %s", d.Suggestion)
		}
	}
	for _, f := range res.Failures {
		add("%s %s: %s, want %s", f.Agent, f.Tool, f.Decision, res.want())
		if len(f.Path) > 0 {
			add("  reached by %s", strings.Join(f.Path, " -> "))
		}
		for _, s := range f.Chain {
			add("  %s", s)
		}
		if f.Help != "" {
			add("  help: %s", f.Help)
		}
	}
	if more := res.Failing - len(res.Failures); more > 0 {
		add("... and %d more of the %d pairs it selects fail", more, res.Pairs)
	}
	return out
}

// places are the config places the shown failures point at, each once,
// in the order met: where an annotation of the config goes.
func (res *Result) places() []Step {
	var out []Step
	seen := map[string]bool{}
	for _, f := range res.Failures {
		for _, s := range f.Chain {
			if s.Place.Line == 0 {
				continue
			}
			k := fmt.Sprintf("%s:%d:%d", s.Place.File, s.Place.Line, s.Place.Column)
			if !seen[k] {
				seen[k] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// WriteHuman writes the report for people: ok or FAIL per claim, the
// explanation of each failure, and a count. The report formats are one
// list in internal/expect/reports, with junit's, which encoding/xml
// writes: it is not linked into kokua-lint, whose language server checks
// test files with this package.
func WriteHuman(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	for _, res := range r.Results {
		status := "ok  "
		if !res.Passed {
			status = "FAIL"
		}
		fmt.Fprintf(b, "%s %s:%d: %s\n", status, printable.String(res.File), res.Line(), printable.String(res.Title))
		if !res.Passed {
			for _, line := range res.explain() {
				fmt.Fprintf(b, "  %s\n", line)
			}
		}
	}
	n, failed := len(r.Results), r.Failed()
	fmt.Fprintf(b, "%d %s: %d %s, %d %s\n", n, plural(n, "claim", "claims"), n-failed, plural(n-failed, "holds", "hold"), failed, plural(failed, "fails", "fail"))
	return b.Flush()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// The JSON report, a public contract (docs/json-output.md).
type (
	jsonResult struct {
		File     string        `json:"file"`
		Line     int           `json:"line"`
		Name     string        `json:"name"`
		Title    string        `json:"title"`
		Passed   bool          `json:"passed"`
		Want     []string      `json:"want"`
		Pairs    int           `json:"pairs"`
		Problems []jsonProblem `json:"problems"`
		Failures []jsonFailure `json:"failures"`
		Failing  int           `json:"failing"`
	}
	jsonProblem struct {
		Line       int    `json:"line"`
		Column     int    `json:"column"`
		Message    string `json:"message"`
		Suggestion string `json:"suggestion"`
	}
	jsonFailure struct {
		Agent    string          `json:"agent"`
		Tool     string          `json:"tool"`
		Decision policy.Decision `json:"decision"`
		Path     []string        `json:"path"`
		Chain    []jsonStep      `json:"chain"`
		Help     string          `json:"help"`
	}
	jsonStep struct {
		Text   string `json:"text"`
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
		Key    string `json:"key"`
	}
)

// WriteJSON writes the report one claim at a time: the head with the
// counts, then each result marshalled alone, indented as the whole
// document would be, so that the report is never built whole.
func WriteJSON(w io.Writer, r *Report) error {
	tests := r.Tests
	if tests == nil {
		tests = []string{}
	}
	passed := len(r.Results) - r.Failed()
	head, err := json.MarshalIndent(struct {
		Config string   `json:"config"`
		Tests  []string `json:"tests"`
		Passed int      `json:"passed"`
		Failed int      `json:"failed"`
	}{r.Config, tests, passed, r.Failed()}, "", "  ")
	if err != nil {
		return err
	}
	b := bufio.NewWriter(w)
	// The head without its closing brace, then "results".
	b.Write(printable.JSON(head[:len(head)-2]))
	if len(r.Results) == 0 {
		b.WriteString(",\n  \"results\": []\n}\n")
		return b.Flush()
	}
	b.WriteString(",\n  \"results\": [\n    ")
	for i, res := range r.Results {
		if i > 0 {
			b.WriteString(",\n    ")
		}
		data, err := json.MarshalIndent(jsonResultOf(res), "    ", "  ")
		if err != nil {
			return err
		}
		b.Write(printable.JSON(data))
	}
	b.WriteString("\n  ]\n}\n")
	return b.Flush()
}

// jsonResultOf is one claim's result as the JSON report writes it.
func jsonResultOf(res Result) jsonResult {
	jr := jsonResult{File: res.File, Line: res.Line(), Name: res.Name, Title: res.Title, Passed: res.Passed, Want: res.Want, Pairs: res.Pairs,
		Problems: []jsonProblem{}, Failures: []jsonFailure{}, Failing: res.Failing}
	for _, d := range res.Problems {
		jr.Problems = append(jr.Problems, jsonProblem{Line: d.Span.Start.Line, Column: d.Span.Start.Column, Message: d.Text(), Suggestion: d.Suggestion})
	}
	for _, f := range res.Failures {
		jf := jsonFailure{Agent: f.Agent, Tool: f.Tool, Decision: f.Decision, Path: f.Path, Chain: []jsonStep{}, Help: f.Help}
		if jf.Path == nil {
			jf.Path = []string{}
		}
		for _, s := range f.Chain {
			jf.Chain = append(jf.Chain, jsonStep{Text: s.Text, File: s.Place.File, Line: s.Place.Line, Column: s.Place.Column, Key: s.Place.Key})
		}
		jr.Failures = append(jr.Failures, jf)
	}
	return jr
}

// TestRule is the SARIF rule of a claim that does not hold.
const TestRule = "policy-test"

// WriteSARIF writes the report as a SARIF 2.1.0 log: a result at each
// failing claim's line, with the config lines responsible.
func WriteSARIF(w io.Writer, r *Report) error {
	driver := sarif.NewVersionedDriver("kokua-compile test", version.Version).WithInformationURI(sariflog.InformationURI)
	if v, ok := version.Semantic(version.Version); ok {
		driver = driver.WithSemanticVersion(v)
	}
	rule := sarif.NewRule(TestRule).
		WithShortDescription(sarif.NewMultiformatMessageString("A claim of a policy test file does not hold")).
		WithHelpURI(sariflog.InformationURI + "/blob/main/docs/policy-tests.md").
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel("error"))
	driver.Rules = []*sarif.ReportingDescriptor{rule}
	run := sarif.NewRun(*sarif.NewTool(driver)).WithColumnKind("unicodeCodePoints")
	run.Results = []*sarif.Result{}
	for _, res := range r.Results {
		if res.Passed {
			continue
		}
		result := sarif.NewRuleResult(TestRule).WithRuleIndex(0).WithLevel("error").
			WithMessage(sarif.NewTextMessage(escape.SARIFText(printable.String(res.Title) + "\n" + res.Explain())))
		at := res.at()
		result.AddLocation(location(printable.String(at.File), at.Start.Line, at.Start.Column, "the claim"))
		for _, s := range res.places() {
			result.AddRelatedLocation(location(printable.String(s.Place.File), s.Place.Line, s.Place.Column, printable.String(s.Text)))
		}
		run.Results = append(run.Results, result)
	}
	report := &sarif.Report{Version: string(sarif.Version210), Schema: lint.SARIFSchemaURI, Runs: []*sarif.Run{run}}
	data, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(printable.JSON(data), '\n'))
	return err
}

func location(file string, line, column int, text string) *sarif.Location {
	region := sarif.NewRegion().WithStartLine(line)
	if column >= 1 {
		region.WithStartColumn(column)
	}
	physical := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(sariflog.URI(file))).WithRegion(region)
	return sarif.NewLocationWithPhysicalLocation(physical).WithMessage(sarif.NewTextMessage(escape.SARIFText(text)))
}

// WriteGitHub writes a workflow command per failing claim at its line in
// the test file, and one at each config line its explanation points at.
func WriteGitHub(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	for _, res := range r.Results {
		if res.Passed {
			continue
		}
		title := "policy test: " + printable.String(res.Title)
		at := res.at()
		b.WriteString(githubError(printable.String(at.File), at.Start.Line, at.Start.Column, title, res.Explain()))
		for _, s := range res.places() {
			b.WriteString(githubError(printable.String(s.Place.File), s.Place.Line, s.Place.Column, title,
				fmt.Sprintf("%s (%s:%d fails here)", printable.String(s.Text), printable.String(res.File), res.Line())))
		}
	}
	n, failed := len(r.Results), r.Failed()
	fmt.Fprintf(b, "::notice title=kokua-compile test::%s\n", escape.GitHubData(fmt.Sprintf("%d %s: %d %s, %d %s", n, plural(n, "claim", "claims"),
		n-failed, plural(n-failed, "holds", "hold"), failed, plural(failed, "fails", "fail"))))
	return b.Flush()
}

func githubError(file string, line, column int, title, msg string) string {
	props := []string{"file=" + escape.GitHubProperty(file), fmt.Sprintf("line=%d", line)}
	if column >= 1 {
		props = append(props, fmt.Sprintf("col=%d", column))
	}
	props = append(props, "title="+escape.GitHubProperty(title))
	return "::error " + strings.Join(props, ",") + "::" + escape.GitHubData(msg) + "\n"
}
