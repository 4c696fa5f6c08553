package main

import (
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/format"
)

// TestFormatsDocumented (issue 40): the README's and docs' synopses and
// tables of kokua-lint's formats, and its --help, are its registries'.
func TestFormatsDocumented(t *testing.T) {
	clitest.CheckFormats(t, Main, "kokua-lint", root, map[string]format.List{
		"kokua-lint":              lintFormats,
		"kokua-lint --list-rules": ruleFormats.List,
	})
}
