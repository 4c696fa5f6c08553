// Package junit writes a policy test run (internal/expect) as a JUnit XML
// report, for kokua-compile test --format junit. It is a package of its
// own so that encoding/xml is not linked into kokua-lint, which imports
// internal/expect for the language server's checks of test files and
// starts once per file it lints (issue 24).
package junit

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/kokua-policy/kokua-policy/internal/expect"
	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// The JUnit XML report: one testsuite per test file, one testcase per
// claim, a failure carrying the explanation.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr"`
		Line      int           `xml:"line,attr"`
		Failure   *junitFailure `xml:"failure"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// Write writes the report as JUnit XML.
func Write(w io.Writer, r *expect.Report) error {
	out := junitSuites{Name: "kokua-compile test " + printable.String(r.Config)}
	index := map[string]int{}
	for _, res := range r.Results {
		file := printable.String(res.File)
		i, ok := index[file]
		if !ok {
			i = len(out.Suites)
			index[file] = i
			out.Suites = append(out.Suites, junitSuite{Name: file})
		}
		s := &out.Suites[i]
		c := junitCase{Name: fmt.Sprintf("%s (line %d)", printable.String(res.Title), res.Line()), Classname: file, File: file, Line: res.Line()}
		s.Tests++
		out.Tests++
		if !res.Passed {
			s.Failures++
			out.Failures++
			msg := fmt.Sprintf("%d of %d pairs fail", res.Failing, res.Pairs)
			if len(res.Problems) > 0 {
				msg = "a selector matches nothing"
			}
			c.Failure = &junitFailure{Message: msg, Type: "policy-test", Text: res.Explain()}
		}
		s.Cases = append(s.Cases, c)
	}
	data, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, data)
	return err
}
