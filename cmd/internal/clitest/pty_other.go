//go:build !linux

package clitest

import (
	"os"
	"testing"
)

// Terminal is skipped where the tests open no pseudo-terminal.
func Terminal(t *testing.T) *os.File {
	t.Helper()
	t.Skip("the tests open a pseudo-terminal on linux only")
	return nil
}
