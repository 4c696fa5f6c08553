package lint

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
)

// MaxFixRounds bounds how often Fix lints the config again after making
// fixes: a fix can reveal a finding another fixes (a misfiled entry
// moved into a list, then qualified), a fix that touches a table another
// fix of the round touches waits for the next round (diag.Fix.Isolated),
// and so does one whose edits overlap one made before it.
const MaxFixRounds = 16

// MaxFixTries bounds how many fixes Fix makes again one at a time, each
// with a lint of the whole config, after rounds that brought an error
// (Fix): a config can be written so that every fix of a round brings one
// (1,000 bare tool names, each already in the other approval list, took
// --fix 5 s; 10,000 would take many minutes). Past the bound, the fixes
// not yet tried are left unmade, as findings that keep their fixes, and
// Fix makes no more rounds: what it made is still checked as ever, so
// the bound only ever leaves a fix out.
const MaxFixTries = 64

// Fixed is what Fix made of one config.
type Fixed struct {
	// Data is the config with the fixes made; the config's own bytes when
	// none was.
	Data []byte
	// Applied are the fixes made, in the order they were made.
	Applied []Applied
	// Withheld are the fixes Fix made and undid, in the order it undid
	// them: each gave, on the config it was made on, an error that config
	// did not hold. The findings they belong to in Result say so in a
	// note and no longer carry them.
	Withheld []Withheld
	// Result is the lint of Data: what remains.
	Result *Result
	// Given is the lint of the config as given, the first round's.
	Given *Result
	// Rounds is how many rounds made fixes: at most MaxFixRounds.
	Rounds int
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

// Withheld is one fix Fix undid, its finding, and why.
type Withheld struct {
	Finding diag.Diagnostic
	Fix     diag.Fix
	// Why names the error the fix gave: "[entry-scope] ...".
	Why string
	key fixKey
}

// Fix lints a config, makes the fixes it can, and lints the result again,
// round after round, until a round has nothing to make (a fixed point) or
// MaxFixRounds rounds have been made.
//
// A round takes the findings in their sorted order and makes the fix of
// each that has exactly one and that one safe; with unsafe true also the
// preferred fix (the first, the one the help line names) of the others,
// unsafe fixes among them. A finding with several fixes (two close names)
// is otherwise a choice a person makes, in the editor. Fixes that touch a
// table in common, one of them computed from what the table holds, are
// made one per round (diag.Fix.Isolated), and a fix whose edits overlap
// one taken before it waits too: each is made on the file as the fixes
// before it left it.
//
// A round whose result holds an error its input did not is undone, and
// its fixes are made again one at a time: a fix that brings an error no
// later round can fix is withheld (Fixed.Withheld, and a note on its
// finding), and the others are kept. An error a later round fixes (a bare
// tool name moved into a list, then qualified) is a step; should it still
// be there at the end, the fix that brought it is withheld and the config
// fixed again from the start without it.
func Fix(cfg Source, m *Manifest, unsafe bool) *Fixed {
	if m == nil {
		m = DefaultManifest()
	}
	return fixUpTo(cfg, m, unsafe, MaxFixRounds)
}

// fixUpTo is Fix with at most bound rounds that make fixes.
func fixUpTo(cfg Source, m *Manifest, unsafe bool, bound int) *Fixed {
	var held []Withheld
	tries := 0 // shared by every start, so that a start again adds none
	for {
		out, culprit := fixRounds(cfg, m, unsafe, held, bound, &tries)
		if culprit == nil {
			return out
		}
		held = append(held, *culprit)
	}
}

// fixKey names a fix across rounds, whose offsets change: its finding's
// rule and key, the text its finding points at, and the fix's title.
type fixKey struct {
	finding errKey
	title   string
}

// errKey names a finding across rounds: its rule and key, and the text it
// points at (the entry, the key; nothing for a finding at the end of the
// file), or its message when it points into another file. A message can
// change while its problem stays (the built-in pair's finding counts the
// entries it names), so it names only a finding in another file.
type errKey struct{ rule, key, text string }

func identify(d diag.Diagnostic, name string, data []byte) errKey {
	if d.Span.File != name {
		return errKey{d.Rule, d.Key, d.Message}
	}
	return errKey{d.Rule, d.Key, string(data[d.Span.Start.Offset:d.Span.End.Offset])}
}

// linted is a config's bytes and their lint.
type linted struct {
	data []byte
	res  *Result
}

// newErrors are the errors of after that before does not hold, as many
// times as after holds them more often; nil when there are none.
func newErrors(name string, before, after linted) []diag.Diagnostic {
	count := map[errKey]int{}
	for _, d := range before.res.Diagnostics {
		if d.Severity == diag.Error {
			count[identify(d, name, before.data)]++
		}
	}
	var out []diag.Diagnostic
	for _, d := range after.res.Diagnostics {
		if d.Severity != diag.Error {
			continue
		}
		k := identify(d, name, after.data)
		if count[k] > 0 {
			count[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}

// why says which error a fix gave.
func why(d diag.Diagnostic) string {
	return fmt.Sprintf("[%s] %s", d.Rule, strings.TrimSuffix(d.Message, "."))
}

// fixRounds makes the rounds of one Fix with the fixes of held left out.
// It returns the fix to withhold and fix again from the start without,
// when an error a fix brought, which a later round was to fix, is still
// there at the end. tries counts the fixes made again one at a time, up
// to MaxFixTries.
func fixRounds(cfg Source, m *Manifest, unsafe bool, held []Withheld, bound int, tries *int) (*Fixed, *Withheld) {
	lint := func(data []byte) linted { return linted{data, Lint(Source{Name: cfg.Name, Data: data}, m)} }
	out := &Fixed{Data: cfg.Data, Withheld: slices.Clone(held)}
	given := lint(cfg.Data)
	now := given
	keys := make(map[fixKey]bool, len(held)) // the keys of out.Withheld, as the findings were when withheld
	for _, w := range held {
		keys[w.key] = true
	}
	withhold := func(d diag.Diagnostic, f diag.Fix, data []byte, why string) {
		out.Withheld = append(out.Withheld, Withheld{Finding: d, Fix: f, Why: why, key: fixKey{identify(d, cfg.Name, data), f.Title}})
		keys[out.Withheld[len(out.Withheld)-1].key] = true
	}
	// fixable is whether Fix would make a fix of d, found in data, in a
	// later round.
	fixable := func(d diag.Diagnostic, data []byte) bool {
		return engine.Fixable(d, unsafe) && !keys[fixKey{identify(d, cfg.Name, data), d.Fixes[0].Title}]
	}
	brought := map[errKey]Withheld{} // an error a fix brought for a later round to fix
	for round := 0; round < bound; round++ {
		var fixes []diag.Fix
		var from []diag.Diagnostic
		var tables touched
		for _, d := range now.res.Diagnostics {
			if d.Span.File != cfg.Name || !fixable(d, now.data) || tables.isolates(d.Fixes[0]) {
				continue
			}
			fixes = append(fixes, d.Fixes[0])
			from = append(from, d)
			tables.add(d.Fixes[0])
		}
		data, made := diag.Apply(now.data, fixes)
		if len(made) == 0 || bytes.Equal(data, now.data) {
			break
		}
		next := lint(data)
		stopped := false
		if newErrors(cfg.Name, now, next) != nil {
			// Undone: the round's fixes are made again one at a time, each
			// on what the ones kept before it made, and kept unless it
			// brings an error no later round fixes; up to MaxFixTries in
			// all, after which the rest are not made and no round follows.
			var kept []int
			next = now
			for _, i := range made {
				if *tries >= MaxFixTries {
					stopped = true
					break
				}
				*tries++
				try, _ := diag.Apply(now.data, pick(fixes, append(slices.Clone(kept), i)))
				r := lint(try)
				fresh := newErrors(cfg.Name, next, r)
				unfixable := func(d diag.Diagnostic) bool { return !fixable(d, try) }
				if slices.ContainsFunc(fresh, unfixable) {
					withhold(from[i], fixes[i], now.data, why(fresh[slices.IndexFunc(fresh, unfixable)]))
					continue
				}
				for _, d := range fresh {
					brought[identify(d, cfg.Name, try)] = Withheld{Finding: from[i], Fix: fixes[i], Why: why(d),
						key: fixKey{identify(from[i], cfg.Name, now.data), fixes[i].Title}}
				}
				kept = append(kept, i)
				next = r
			}
			made = kept
		}
		for _, i := range made {
			out.Applied = append(out.Applied, Applied{Finding: from[i], Fix: fixes[i], Text: now.data})
		}
		if len(made) > 0 {
			out.Rounds++
		}
		now = next
		if stopped {
			break
		}
	}
	for _, d := range newErrors(cfg.Name, given, now) {
		if w, ok := brought[identify(d, cfg.Name, now.data)]; ok {
			return nil, &w
		}
	}
	out.Data, out.Given = now.data, given.res
	out.Result = &Result{Diagnostics: withheldNotes(cfg.Name, now, out.Withheld), Kokua: now.res.Kokua}
	return out, nil
}

// touched is what the fixes taken in a round touch, by table: whether a
// local fix touches it, and whether one that is not local does. It answers
// whether a fix is Isolated from any fix taken, one lookup a table the fix
// touches, where asking each fix taken cost a round the square of its
// fixes (issue 37: 100,000 bare tool names took --fix a minute).
type touched map[string]struct{ local, other bool }

// isolates reports whether f is Isolated from some fix added: a table f
// touches is touched by a fix that is not local, or by any fix when f is
// not local.
func (t touched) isolates(f diag.Fix) bool {
	for _, table := range f.Touches {
		if by, ok := t[table]; ok && (by.other || !f.Local && by.local) {
			return true
		}
	}
	return false
}

// add records the tables f touches.
func (t *touched) add(f diag.Fix) {
	if len(f.Touches) == 0 {
		return
	}
	if *t == nil {
		*t = touched{}
	}
	for _, table := range f.Touches {
		by := (*t)[table]
		if f.Local {
			by.local = true
		} else {
			by.other = true
		}
		(*t)[table] = by
	}
}

// pick are the fixes at the indices given, in their order.
func pick(fixes []diag.Fix, at []int) []diag.Fix {
	out := make([]diag.Fix, len(at))
	for j, i := range at {
		out[j] = fixes[i]
	}
	return out
}

// withheldNotes are the findings of now with each withheld fix taken off
// its finding and a note saying why it was withheld.
func withheldNotes(name string, now linted, held []Withheld) []diag.Diagnostic {
	ds := now.res.Diagnostics
	if len(held) == 0 {
		return ds
	}
	first := make(map[fixKey]int, len(held)) // the first withheld fix of each key
	for j := len(held) - 1; j >= 0; j-- {
		first[held[j].key] = j
	}
	out := slices.Clone(ds)
	for i, d := range out {
		var fixes []diag.Fix
		notes := slices.Clip(d.Notes)
		for _, f := range d.Fixes {
			j, ok := first[fixKey{identify(d, name, now.data), f.Title}]
			if !ok {
				fixes = append(fixes, f)
				continue
			}
			notes = append(notes, fmt.Sprintf("kokua-lint --fix withheld the fix %q: made, it gave an error the config did not hold: %s.", f.Title, held[j].Why))
		}
		if len(fixes) != len(d.Fixes) {
			out[i].Fixes, out[i].Notes = fixes, notes
		}
	}
	return out
}
