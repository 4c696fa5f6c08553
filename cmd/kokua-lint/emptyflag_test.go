package main

import (
	"io"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
)

// TestEmptyFlagValues: every string flag of every kokua-lint command refuses
// an empty value as a usage error; none reads "" as "not given".
func TestEmptyFlagValues(t *testing.T) {
	clitest.CheckEmptyFlags(t, Main, command(nil, io.Discard, io.Discard), "--sarif-file", "--manifest", "--fail-on", "--color", "--format")
}
