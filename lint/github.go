package lint

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/escape"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// githubCommand is the workflow command that annotates a finding of that
// severity.
func githubCommand(s diag.Severity) string {
	switch s {
	case diag.Warning:
		return "warning"
	case diag.Info:
		return "notice"
	}
	return "error"
}

// WriteGitHub writes one GitHub Actions workflow command per diagnostic,
//
//	::error file=config.toml,line=6,col=39,endLine=6,endColumn=58,title=pending-dead-entry::message
//
// which a workflow step turns into an annotation on that line. Columns
// count Unicode characters and endColumn is the column just after the
// span, as in the JSON output. A suggestion follows the message on a
// "help:" line. The embedded default install is no file of the
// repository, so its findings carry no file and name it in the message.
// Nothing is written when there are no diagnostics. Past
// MaxFindingsPerFile findings of one file, the rest are counted in one
// notice at the end: "::notice title=kokua-lint::config.toml: 2,000 more
// findings not shown (see --format json)".
//
// Every string that came from outside goes through printable.String before
// the workflow command's own escaping, so that a path or a name with a
// line feed, a carriage return or an escape sequence can neither end the
// command early (and forge another on the next line) nor reach the log
// raw: there is exactly one line per diagnostic.
func WriteGitHub(w io.Writer, ds []diag.Diagnostic) error {
	b := bufio.NewWriterSize(w, writeBuffer)
	shown := newCapped()
	for _, d := range ds {
		if shown.shows(d) {
			b.WriteString(githubAnnotation(d))
			b.WriteByte('\n')
		}
	}
	for _, line := range shown.notShown() {
		b.WriteString("::notice title=kokua-lint::" + escape.GitHubData(line) + "\n")
	}
	return b.Flush()
}

// githubAnnotation is the workflow command for one diagnostic, without the
// final newline.
func githubAnnotation(d diag.Diagnostic) string {
	var props []string
	add := func(name, value string) {
		props = append(props, name+"="+escape.GitHubProperty(value))
	}
	msg := printable.String(d.Text())
	s := d.Span
	switch {
	case s.File == manifest.DefaultManifestName:
		msg = printable.String(s.String()) + ": " + msg
	case s.File != "":
		add("file", printable.String(s.File))
		if s.Start.Line >= 1 {
			add("line", fmt.Sprint(s.Start.Line))
			if s.Start.Column >= 1 {
				add("col", fmt.Sprint(s.Start.Column))
			}
			if s.End.Column >= 1 && s.End.Compare(s.Start) >= 0 {
				add("endLine", fmt.Sprint(s.End.Line))
				add("endColumn", fmt.Sprint(s.End.Column))
			}
		}
	}
	add("title", printable.String(d.Rule))
	if d.Suggestion != "" {
		msg += "\nhelp: " + printable.String(d.Suggestion)
	}
	return "::" + githubCommand(d.Severity) + " " + strings.Join(props, ",") + "::" + escape.GitHubData(msg)
}
