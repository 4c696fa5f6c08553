package lint

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/escape"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/sariflog"
	"github.com/kokua-policy/kokua-policy/internal/version"
)

// The constant parts of the SARIF output.
const (
	// SARIFSchemaURI is the OASIS address of the SARIF 2.1.0 schema (errata
	// 01), the "id" the schema gives itself.
	SARIFSchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// SARIFRuleDocBase is where the rules' pages are published: the page of
	// a rule is SARIFRuleDocBase + id + ".md".
	SARIFRuleDocBase = "https://github.com/kokua-policy/kokua-policy/blob/main/docs/rules/"
	// SARIFSemanticsURI is the page that defines every number a rule cites
	// (R118, A8), one anchor each: SARIFSemanticsURI + "#r118".
	SARIFSemanticsURI = "https://github.com/kokua-policy/kokua-policy/blob/main/docs/semantics.md"
	// SARIFDefaultManifestURI is the artifact URI of the embedded default
	// install, which is no file.
	SARIFDefaultManifestURI = sariflog.DefaultManifestURI
)

// sarifLevel is a severity's SARIF level.
func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	case diag.Info:
		return "note"
	}
	return ""
}

// toSARIF converts diagnostics to a SARIF 2.1.0 log of one run. Every rule
// is listed in tool.driver.rules, sorted by ID, and each result points at
// its rule by ruleIndex. Nothing in it depends on the time or on where the
// command runs, so the same input gives the same bytes.
//
// The rules and results are set on the structs directly rather than
// through go-sarif's WithRules and WithResults, which look every rule and
// result up by ID again (and would write ruleIndex uint(-1) for a rule
// they do not find): the indexes are the ones computed here.
func toSARIF(ds []diag.Diagnostic) *sarif.Report {
	report, index := sarifFrame(ds)
	run := report.Runs[0]
	for _, d := range ds {
		run.Results = append(run.Results, sarifResult(d, index[d.Rule]))
	}
	return report
}

// sarifFrame is the SARIF log of toSARIF without its results (an empty
// list), and the index in tool.driver.rules of each rule the diagnostics
// name.
func sarifFrame(ds []diag.Diagnostic) (*sarif.Report, map[string]int) {
	all := Rules()
	descriptors := make([]*sarif.ReportingDescriptor, 0, len(all))
	index := map[string]int{}
	for _, r := range all {
		index[r.ID] = len(descriptors)
		descriptors = append(descriptors, sarifRule(r.ID, r.Severity, r.Phase, r.Summary, r.Refs))
	}
	for _, d := range ds {
		if _, ok := index[d.Rule]; !ok {
			// A diagnostic from outside the rule set (none today): describe its
			// rule from the diagnostic itself rather than leave it dangling.
			index[d.Rule] = len(descriptors)
			descriptors = append(descriptors, sarifRule(d.Rule, d.Severity, d.Phase, "", d.Refs))
		}
	}
	driver := sarif.NewVersionedDriver("kokua-lint", version.Version).
		WithInformationURI(sariflog.InformationURI)
	// semanticVersion is Semantic Versioning's form, which a test build's
	// "devel" is not: it is left out then, and version says it.
	if v, ok := version.Semantic(version.Version); ok {
		driver = driver.WithSemanticVersion(v)
	}
	driver.Rules = descriptors
	run := sarif.NewRun(*sarif.NewTool(driver)).WithColumnKind("unicodeCodePoints")
	run.Results = make([]*sarif.Result, 0, len(ds))
	return &sarif.Report{
		Version: string(sarif.Version210),
		Schema:  SARIFSchemaURI,
		Runs:    []*sarif.Run{run},
	}, index
}

// emptyResults is where the results go in the encoded frame of the log.
var emptyResults = []byte("\n      \"results\": [],\n")

// WriteSARIF writes diagnostics as one indented SARIF 2.1.0 log, the same
// bytes as toSARIF(ds) indented by two spaces. It encodes the log without
// its results, then one result at a time into its place, so that its
// memory does not grow with the number of findings beyond the findings
// themselves (issue 18: 990,000 findings once took 4.8 GB).
func WriteSARIF(w io.Writer, ds []diag.Diagnostic) error {
	report, index := sarifFrame(ds)
	var frame bytes.Buffer
	if err := writeIndentedJSON(&frame, report); err != nil {
		return err
	}
	if len(ds) == 0 {
		_, err := w.Write(frame.Bytes())
		return err
	}
	head, tail, ok := bytes.Cut(frame.Bytes(), emptyResults)
	if !ok {
		return fmt.Errorf("the SARIF log has no empty results list to write the results into")
	}
	bw := bufio.NewWriterSize(w, writeBuffer)
	bw.Write(head)
	bw.WriteString("\n      \"results\": [\n")
	if err := writeElements(bw, "        ", ds, func(d diag.Diagnostic) any { return sarifResult(d, index[d.Rule]) }); err != nil {
		return err
	}
	bw.WriteString("\n      ],\n")
	bw.Write(tail)
	return bw.Flush()
}

// SARIFRuleHelpURI is the address of a rule's page.
func SARIFRuleHelpURI(id string) string { return SARIFRuleDocBase + id + ".md" }

// sarifRule describes one rule: its summary, a help text that points at
// its page and at the entries of docs/semantics.md for the numbers it
// cites, and its severity as the default level.
func sarifRule(id string, sev diag.Severity, phase diag.Phase, summary string, refs []string) *sarif.ReportingDescriptor {
	help := SARIFRuleHelpURI(id)
	facts := fmt.Sprintf("%s, phase %s", sev, phase)
	if len(refs) > 0 {
		facts += ", " + strings.Join(refs, ", ")
	}
	if summary == "" {
		summary = id
	}
	text := fmt.Sprintf("%s: %s (%s). What it catches, an example and the fix: %s", id, summary, facts, help)
	if len(refs) > 0 {
		text += fmt.Sprintf(" What Kokua does, number by number: %s", SARIFSemanticsURI)
	}
	markdown := fmt.Sprintf("**%s** · phase `%s`", sev, phase)
	if len(refs) > 0 {
		links := make([]string, len(refs))
		for i, ref := range refs {
			links[i] = fmt.Sprintf("[%s](%s#%s)", ref, SARIFSemanticsURI, strings.ToLower(ref))
		}
		markdown += " · " + strings.Join(links, ", ")
	}
	markdown += fmt.Sprintf("\n\n%s.\n\nSee [docs/rules/%s.md](%s) for what it catches, an example and the fix.", escape.MarkdownText(summary), id, help)
	return sarif.NewRule(id).
		WithShortDescription(sarif.NewMultiformatMessageString(summary)).
		WithHelp(sarif.NewMultiformatMessageString(text).WithMarkdown(markdown)).
		WithHelpURI(help).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(sev))).
		WithProperties(sarif.Properties{
			"phase": string(phase),
			"refs":  nonNil(refs),
		})
}

// sarifResult converts one diagnostic. A fix in SARIF must carry the edit
// itself (artifactChanges), and a suggestion is words, so the suggestion
// goes in the message, on a "help:" line as the human format prints it,
// and in the result's properties; the result has no fixes.
func sarifResult(d diag.Diagnostic, ruleIndex int) *sarif.Result {
	text := d.Text()
	props := sarif.Properties{
		"phase": string(d.Phase),
		"refs":  nonNil(d.Refs),
	}
	if d.Key != "" {
		props["key"] = d.Key
	}
	if d.Suggestion != "" {
		text += "\nhelp: " + d.Suggestion
		props["suggestion"] = d.Suggestion
	}
	result := sarif.NewRuleResult(d.Rule).
		WithRuleIndex(ruleIndex).
		WithLevel(sarifLevel(d.Severity)).
		WithMessage(sarif.NewTextMessage(escape.SARIFText(text)))
	if loc := sarifLocation(d.Span); loc != nil {
		result.AddLocation(loc)
	}
	result.Properties = props
	return result
}

// sarifLocation is where a diagnostic points: its file and, when it has
// one, its region. A span with no file has no location (the result then
// has no "locations").
func sarifLocation(s diag.Span) *sarif.Location {
	if s.File == "" {
		return nil
	}
	artifact := sarif.NewSimpleArtifactLocation(sariflog.URI(s.File))
	if s.File == manifest.DefaultManifestName {
		artifact.WithDescription(sarif.NewTextMessage("the manifest of a default Kokua install, built into kokua-lint (no --manifest was given); not a file of this repository"))
	}
	physical := sarif.NewPhysicalLocation().WithArtifactLocation(artifact)
	if s.Start.Line >= 1 {
		region := sarif.NewRegion().WithStartLine(s.Start.Line)
		if s.Start.Column >= 1 {
			region.WithStartColumn(s.Start.Column)
		}
		if s.End.Column >= 1 && s.End.Compare(s.Start) >= 0 {
			region.WithEndLine(s.End.Line).WithEndColumn(s.End.Column)
		}
		physical.WithRegion(region)
	}
	return sarif.NewLocationWithPhysicalLocation(physical)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
