// Package reports holds the formats of kokua-compile test's report as
// one list: internal/expect's writers and internal/expect/junit's. It is
// a package apart so that kokua-lint, which imports internal/expect for
// the language server's checks of test files, links no encoding/xml.
package reports

import (
	"github.com/kokua-policy/kokua-policy/internal/expect"
	"github.com/kokua-policy/kokua-policy/internal/expect/junit"
	"github.com/kokua-policy/kokua-policy/internal/format"
)

// Formats are the formats of a test report, the default first.
var Formats = format.New("test",
	format.Format[*expect.Report]{Info: format.Info{Name: "human"}, Write: expect.WriteHuman},
	format.Format[*expect.Report]{Info: format.Info{Name: "json"}, Write: expect.WriteJSON},
	format.Format[*expect.Report]{Info: format.Info{Name: "junit", Summary: "JUnit XML"}, Write: junit.Write},
	format.Format[*expect.Report]{Info: format.Info{Name: "sarif", Summary: "SARIF 2.1.0"}, Write: expect.WriteSARIF},
	format.Format[*expect.Report]{Info: format.Info{Name: "github", Summary: "GitHub Actions annotations"}, Write: expect.WriteGitHub},
)
