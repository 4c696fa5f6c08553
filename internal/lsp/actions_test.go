package lsp

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
)

// bareEntries is a config whose review list holds n bare "run_command"
// entries, one a line: n entry-shape findings, each with one safe fix
// (gen.BareEntries).
func bareEntries(n int) string { return string(gen.BareEntries(n)) }

// TestFixAllOncePerVersion (issue 37): "fix all" is made once for a
// version of the document, whatever the number of requests that show
// it, and made anew for the next version; each request answers the
// actions of the findings in its range alone. Before, every request made
// "fix all" (lint.Fix, round by round) under the server's lock: with
// 20,000 findings each cursor move cost seconds.
func TestFixAllOncePerVersion(t *testing.T) {
	var made atomic.Int32
	cl, _ := start(t, Options{fixAllMade: func() { made.Add(1) }}, nil)
	u := fileURI(t, "config.toml")
	text := bareEntries(200)
	ds := cl.open(u, text)
	if len(ds) < 200 {
		t.Fatalf("%d findings, want at least 200", len(ds))
	}
	for i := range 20 {
		d := ds[i*7]
		var quick, all int
		for _, a := range cl.actions(u, d.Range) {
			switch a.Kind {
			case quickFix:
				quick++
			case sourceFixAll:
				all++
			}
		}
		if quick != 1 || all != 1 {
			t.Errorf("at %v: %d quick fixes and %d fix-all actions, want 1 and 1", d.Range, quick, all)
		}
	}
	if n := made.Load(); n != 1 {
		t.Errorf("20 requests made fix all %d times, want once", n)
	}
	cl.change(u, 2, Range{Start: Position{Line: 0}, End: Position{Line: 0}}, "# edited\n")
	cl.actions(u, Range{Start: Position{Line: 5}, End: Position{Line: 5}})
	cl.actions(u, Range{Start: Position{Line: 9}, End: Position{Line: 9}})
	if n := made.Load(); n != 2 {
		t.Errorf("after an edit and two requests, fix all was made %d times in all, want twice", n)
	}
}

// TestActionsInRange (property): for random ranges over a document of
// findings of several rules (with fixes, with suppressions, on one line
// and on many), the quick fixes answered are exactly those of the
// findings whose ranges meet the request's, in the order of the
// findings: what the whole document's request holds, filtered by hand.
func TestActionsInRange(t *testing.T) {
	cl, _ := start(t, Options{}, nil)
	u := fileURI(t, "config.toml")
	text := strings.Replace(bareEntries(30), `available = ["compute", "time"]`, `available = ["compute", "tme", "wbe", "time"]`, 1) +
		"\n[agents.x]\ndelegates_to = [\"y\", \"assistant\"]\n\n[agents.y]\ndelegates_to = [\"x\"]\n"
	ds := cl.open(u, text)
	if len(ds) < 33 {
		t.Fatalf("%d findings", len(ds))
	}
	everything := Range{End: Position{Line: uint32(strings.Count(text, "\n") + 1)}}
	type quick struct {
		title string
		r     Range
	}
	var all []quick
	for _, a := range cl.actions(u, everything) {
		if a.Kind == quickFix {
			all = append(all, quick{a.Title, a.Diagnostics[0].Range})
		}
	}
	before := func(a, b Position) bool { return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character }
	lines := strings.Split(text, "\n")
	rng := rand.New(rand.NewPCG(37, 1))
	pos := func() Position {
		l := rng.IntN(len(lines))
		return Position{Line: uint32(l), Character: uint32(rng.IntN(len(lines[l]) + 1))}
	}
	for range 300 {
		a, b := pos(), pos()
		if before(b, a) {
			a, b = b, a
		}
		var want []string
		for _, q := range all {
			if !before(q.r.End, a) && !before(b, q.r.Start) {
				want = append(want, fmt.Sprintf("%s %v", q.title, q.r))
			}
		}
		var got []string
		for _, x := range cl.actions(u, Range{Start: a, End: b}) {
			if x.Kind == quickFix {
				got = append(got, fmt.Sprintf("%s %v", x.Title, x.Diagnostics[0].Range))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("range %v-%v: actions\n%q\nwant\n%q", a, b, got, want)
		}
	}
}
