package rules

import (
	"fmt"
	"slices"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// This file is not a check: it holds what the four overlap checks share.
// Two entries of lists that may not share a tool (confirm and review of one
// policy, R84; a review list and the floor, R86) overlap when both would
// hold some tool. Kokua finds an overlap at startup or when a build reveals
// it, and a different check reports each:
//
//	                    startup (resolve)        build
//	confirm and review  confirm-review-overlap   build-overlap
//	review and floor    review-reaches-floor     build-floor

// floorWhy explains the floor in every message about it (R125), as a note.
const floorWhy = "The floor is for tools that grant a capability rather than act, where a reviewer approving one call stops constraining anything."

// overlap is a pair of entries, one from each list, that would both hold
// some tool.
type overlap struct {
	first, second config.Str
	// found is when Kokua finds the overlap. At startup when the entries'
	// text settles it (R87) or startup resolves both entries (R88); else
	// at the first build of a toolset one of them names (R88, R147, R148).
	found model.When
	// tools are the tools both entries hold. Empty for an overlap the text
	// settles while a toolset it names is not built at startup, or while
	// the tool it names does not exist (R87).
	tools []string
	// builds are the toolsets whose build reveals the overlap; empty unless
	// found is AtBuild.
	builds []string
}

// overlaps finds every pair of entries, one from each list, that would hold
// a tool in common and that Kokua finds at the given time (R84, R87, R88;
// R35: entries match tool names, so the same name through two toolsets is
// one tool to the gate). Entries with a shape fault are left to
// entry-shape.
func overlaps(w *model.World, first, second config.List, found model.When) []overlap {
	var out []overlap
	for _, x := range first.Items {
		rx := w.Resolve(x.Value)
		if rx.Shape() {
			continue
		}
		for _, y := range second.Items {
			ry := w.Resolve(y.Value)
			if ry.Shape() {
				continue
			}
			o, ok := overlapOf(x, y, rx, ry)
			if ok && o.found == found {
				out = append(out, o)
			}
		}
	}
	return out
}

// overlapOf reports whether two resolved entries overlap, and when Kokua
// finds it.
func overlapOf(x, y config.Str, rx, ry model.Resolution) (overlap, bool) {
	o := overlap{first: x, second: y, found: model.AtStartup}
	atStartup := rx.Resolved() == model.AtStartup && ry.Resolved() == model.AtStartup
	if kokua.EntriesOverlap(rx.Entry, ry.Entry) {
		// The text settles it, so startup refuses it even when a toolset
		// waits for a build (R87); the tools are named when known.
		if atStartup {
			o.tools = intersect(rx.Tools, ry.Tools)
		}
		return o, true
	}
	o.tools = intersect(rx.Tools, ry.Tools)
	if len(o.tools) == 0 {
		return o, false
	}
	for _, r := range []model.Resolution{rx, ry} {
		if r.Resolved() == model.AtBuild {
			o.builds = append(o.builds, r.Toolset.Name)
		}
	}
	if !atStartup {
		o.found = model.AtBuild
	}
	return o, true
}

// intersect returns the names of a that b holds too, in a's order.
func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// pairBetween names two entries of one policy, confirm's first:
// "'a' in confirm and 'b' in review of [assistant.tools]".
func pairBetween(o overlap, pol *model.Policy) string {
	return fmt.Sprintf("%s in confirm and %s in review of %s", q(o.first.Value), q(o.second.Value), pol.Table())
}

// reaches names a review entry and the floor entry it reaches, the
// overlap's second entry first: "'b' in [assistant.tools].review reaches
// 'a' in [security].never_auto_approve".
func reaches(o overlap, floorPath, reviewPath string) string {
	return fmt.Sprintf("%s in %s reaches %s in %s", q(o.second.Value), reviewPath, q(o.first.Value), floorPath)
}

// sharedNote says what two overlapping entries share, as a note to a
// message that names the entries only: "Both hold 'update_config'.", or why
// an overlap of their text counts.
func sharedNote(o overlap) string {
	switch len(o.tools) {
	case 0:
		return "They overlap by their own text: if the tool exists both lists hold it; if it does not, the tool entry is dead."
	case 1:
		return "Both hold " + q(o.tools[0]) + "."
	}
	return "Both hold " + andList(o.tools) + "."
}

// onceBuilt says which builds reveal an overlap: "once 'files' is built",
// or, when both entries wait for a build, "once 'fs' and 'files' are
// built".
func onceBuilt(o overlap) string {
	if len(o.builds) == 1 {
		return "once " + q(o.builds[0]) + " is built"
	}
	return "once " + andList(o.builds) + " are built"
}

// refusedBuilds says, as notes, which builds Kokua refuses for an overlap
// only a build reveals, and which agents could trigger them (R206). When
// both entries wait for a build, the one that completes the overlap is
// refused: whichever of the two toolsets is built second.
func refusedBuilds(ln *loaderNotes, o overlap) []string {
	if len(o.builds) == 1 {
		t := o.builds[0]
		return []string{fmt.Sprintf("Kokua refuses every build of %s.", q(t)), ln.note(t)}
	}
	return []string{"Kokua refuses the build of whichever comes second, and every later one.", ln.note(o.builds...)}
}
