package main

import (
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/expect/reports"
	"github.com/kokua-policy/kokua-policy/internal/format"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// TestFormatsDocumented (issue 40): the README's and docs' synopses and
// tables of each kokua-compile command's formats, and its --help, are
// its registry's.
func TestFormatsDocumented(t *testing.T) {
	clitest.CheckFormats(t, Main, "kokua-compile", filepath.Join("..", ".."), map[string]format.List{
		"kokua-compile":          lintFormats,
		"kokua-compile agents":   agentsFormats.List,
		"kokua-compile diff":     diff.Formats.List,
		"kokua-compile graph":    reach.Formats.List,
		"kokua-compile manifest": lintFormats,
		"kokua-compile risks":    diff.RiskFormats.List,
		"kokua-compile test":     reports.Formats.List,
	})
}
