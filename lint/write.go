package lint

import (
	"fmt"
	"io"

	"github.com/kokua-policy/kokua-policy/diag"
)

// Formats are the output formats Write knows, in the order the commands
// list them.
var Formats = []string{"human", "json", "sarif", "github"}

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

// Write writes diagnostics in one of the Formats: human (compiler-style
// lines with the quoted source and a summary), json (docs/json-output.md),
// sarif (SARIF 2.1.0) or github (GitHub Actions workflow commands). The
// same diagnostics always give the same bytes.
func Write(w io.Writer, format string, ds []diag.Diagnostic, opts WriteOptions) error {
	switch format {
	case "human":
		return writeHuman(w, ds, opts.Sources, opts.Style)
	case "json":
		return WriteJSON(w, ds)
	case "sarif":
		return WriteSARIF(w, ds)
	case "github":
		return WriteGitHub(w, ds)
	}
	return fmt.Errorf("unknown output format %q", format)
}
