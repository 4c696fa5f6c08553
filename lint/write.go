package lint

import (
	"fmt"
	"io"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/format"
	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// Format is an output format of Write: its name, as --format takes it,
// and a few words on what it is, or none where the name says it.
type Format struct {
	Name    string
	Summary string
}

// Formats returns the output formats Write knows, the default first.
func Formats() []Format {
	out := make([]Format, len(formats.List))
	for i, f := range formats.List {
		out[i] = Format{Name: f.Name, Summary: f.Summary}
	}
	return out
}

// WriteOptions are what the formats need beyond the diagnostics.
type WriteOptions struct {
	// Sources maps a file name to its bytes; the human format quotes the
	// line of each finding from it, and skips the quote for a file it
	// does not hold.
	Sources map[string][]byte
	// Style paints the human format; the zero Style is plain text. The
	// other formats ignore it.
	Style Style
}

// written is what a format writes: the diagnostics and the options.
type written struct {
	ds   []diag.Diagnostic
	opts WriteOptions
}

// formats are the output formats, each with its writer: the one list
// Write, the commands' --format flags and the docs' tables derive from.
var formats = format.New("output",
	format.Format[written]{Info: format.Info{Name: "human"}, Write: func(w io.Writer, v written) error {
		return writeHuman(w, v.ds, v.opts.Sources, v.opts.Style)
	}},
	format.Format[written]{Info: format.Info{Name: "json"}, Write: func(w io.Writer, v written) error { return WriteJSON(w, v.ds) }},
	format.Format[written]{Info: format.Info{Name: "sarif", Summary: "SARIF 2.1.0"}, Write: func(w io.Writer, v written) error { return WriteSARIF(w, v.ds) }},
	format.Format[written]{Info: format.Info{Name: "github", Summary: "GitHub Actions annotations"}, Write: func(w io.Writer, v written) error { return WriteGitHub(w, v.ds) }},
)

// Write writes diagnostics in one of the Formats: human (compiler-style
// lines with the quoted source and a summary), json (docs/json-output.md),
// sarif (SARIF 2.1.0) or github (GitHub Actions workflow commands). The
// same diagnostics always give the same bytes.
func Write(w io.Writer, format string, ds []diag.Diagnostic, opts WriteOptions) error {
	return formats.Write(w, format, written{ds: ds, opts: opts})
}

// MaxFindingsPerFile is how many findings of one file the human and
// github formats show. The rest of that file's findings are counted on a
// line of their own after the findings shown ("config.toml: 2,000 more
// findings not shown (see --format json)"), so that what a terminal or a
// workflow log receives stays bounded whatever the config holds (issue
// 18). The json and sarif formats always hold every finding; the summary
// line of the human format counts them all too.
const MaxFindingsPerFile = 1000

// capped tells, for each diagnostic in turn, whether the human and github
// formats show it: the first MaxFindingsPerFile of each file. Once all
// are seen, notShown returns, for each file that had more, the line that
// counts the rest, in the order of the files' first findings. It copies
// no diagnostic, so a format's memory does not grow with those it skips.
type capped struct {
	count map[string]int
	over  []string
}

func newCapped() *capped { return &capped{count: map[string]int{}} }

// shows counts d and reports whether it is shown.
func (c *capped) shows(d diag.Diagnostic) bool {
	f := d.Span.File
	c.count[f]++
	if c.count[f] == MaxFindingsPerFile+1 {
		c.over = append(c.over, f)
	}
	return c.count[f] <= MaxFindingsPerFile
}

// notShown returns the lines that count the findings left out.
func (c *capped) notShown() []string {
	var out []string
	for _, f := range c.over {
		out = append(out, notShownLine(f, c.count[f]-MaxFindingsPerFile))
	}
	return out
}

// notShownLine counts the findings of a file the human and github formats
// leave out.
func notShownLine(file string, n int) string {
	what := "findings"
	if n == 1 {
		what = "finding"
	}
	line := fmt.Sprintf("%s more %s not shown (see --format json)", printable.Thousands(n), what)
	if file == "" {
		return line
	}
	return printable.String(file) + ": " + line
}
