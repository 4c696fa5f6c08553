package lint

import (
	"bytes"

	"github.com/kokua-policy/kokua-policy/diag"
)

// MaxFixRounds bounds how often Fix lints the config again after making
// fixes: a fix can reveal a finding another fixes (a misfiled entry
// moved into a list, then qualified), and a fix whose edits overlap one
// made before it waits for the next round.
const MaxFixRounds = 8

// Fixed is what Fix made of one config.
type Fixed struct {
	// Data is the config with the fixes made; the config's own bytes when
	// none was.
	Data []byte
	// Applied are the fixes made, in the order they were made.
	Applied []Applied
	// Result is the lint of Data: what remains.
	Result *Result
	// Given is the lint of the config as given, the first round's.
	Given *Result
}

// Applied is one fix made, and the finding it resolved.
type Applied struct {
	Finding diag.Diagnostic
	Fix     diag.Fix
	// Text is the config as it was when the fix was made: the finding's
	// span and the fix's edits are offsets into it. The fixes of one
	// round share it.
	Text []byte
}

// Fixable reports whether Fix makes a fix of d: its one fix, when it has
// exactly one and that one is safe; with unsafe, its first, whatever it
// has.
func Fixable(d diag.Diagnostic, unsafe bool) bool {
	return len(d.Fixes) > 0 && (unsafe || len(d.Fixes) == 1 && d.Fixes[0].Safe)
}

// Fix lints a config, makes the fix of each finding that has exactly one
// and that one safe, and lints the result again, until no fix applies or
// MaxFixRounds rounds have been made. A finding with several fixes (two
// close names) is a choice a person makes, in the editor; with unsafe
// true, Fix makes it, the preferred fix (the first, the one the help line
// names), and the unsafe fixes too. Findings are taken in their sorted
// order, so where two fixes overlap the one earlier in the file is made
// and the other waits for the next round.
func Fix(cfg Source, m *Manifest, unsafe bool) *Fixed {
	out := &Fixed{Data: cfg.Data}
	for round := 0; ; round++ {
		out.Result = Lint(Source{Name: cfg.Name, Data: out.Data}, m)
		if round == 0 {
			out.Given = out.Result
		}
		if round == MaxFixRounds {
			return out
		}
		var fixes []diag.Fix
		var from []diag.Diagnostic
		for _, d := range out.Result.Diagnostics {
			if d.Span.File != cfg.Name || !Fixable(d, unsafe) {
				continue
			}
			fixes = append(fixes, d.Fixes[0])
			from = append(from, d)
		}
		data, made := diag.Apply(out.Data, fixes)
		if len(made) == 0 || bytes.Equal(data, out.Data) {
			return out
		}
		for _, i := range made {
			out.Applied = append(out.Applied, Applied{Finding: from[i], Fix: fixes[i], Text: out.Data})
		}
		out.Data = data
	}
}
