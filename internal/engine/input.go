package engine

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/diag"
)

// TooLarge is the error for an input named name that is over limit bytes
// (lint.MaxInputBytes): kokua-lint prints it for a file or standard
// input, and the language server shows it as the one diagnostic of a
// document that large, which it does not lint.
func TooLarge(name string, limit int) error {
	return fmt.Errorf("cannot read %s: it is larger than %d MiB, which no config or manifest is", name, limit>>20)
}

// Fixable reports whether lint.Fix makes a fix of d: its one fix, when it
// has exactly one and that one is safe; with unsafe, its first, whatever
// it has.
func Fixable(d diag.Diagnostic, unsafe bool) bool {
	return len(d.Fixes) > 0 && (unsafe || len(d.Fixes) == 1 && d.Fixes[0].Safe)
}
