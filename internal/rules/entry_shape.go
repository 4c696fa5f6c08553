package rules

import (
	"fmt"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// entry-shape: an approval entry whose text cannot name anything: broken
// grammar, a bare tool name, or an unknown toolset (R122, R29-R31). These
// are found at validate, even for toolsets that are built later.
var entryShapeRule = &Rule{
	ID:       "entry-shape",
	Severity: diag.Error,
	Phase:    diag.PhaseValidate,
	Refs:     []string{"R122", "R28", "R29", "R30", "R31", "R208"},
	Summary:  "an approval entry is malformed, a bare tool name, or names no installed toolset",
	Needs:    NeedsWorld,
	Fixes:    SafeFixes,
	Check: func(p *Pass) {
		for _, l := range approvalLists(p.World) {
			for _, it := range l.Items {
				r := p.World.Resolve(it.Value)
				if !r.Shape() {
					continue
				}
				fault, fix, more := shapeFault(r)
				f := Finding{Span: it.Span, Key: l.Path, Suggestion: fix, Notes: notes(more),
					Message: fmt.Sprintf("%s has an entry that %s: %s", l.Path, l.effect(), fault)}
				if !l.Builtin {
					// Each rewrite adds a gate where the entry held none.
					f.Fixes = p.rewrites(it.Span, true, shapeCandidates(r)...)
				}
				p.Report(f)
			}
		}
	},
}

// shapeFault says what is wrong with an entry's shape, the fix when one is
// known, and a note on it when there is more to say (the grammar).
// shapeCandidates are the entries a malformed one can have meant, the one
// shapeFault's help names first.
func shapeCandidates(r model.Resolution) []string {
	if r.Entry.Fault == kokua.EmptyTool {
		return []string{r.Entry.Toolset}
	}
	if r.Status == model.BareTool || r.Status == model.UnknownToolset {
		return entryCandidates(r)
	}
	return nil
}

func shapeFault(r model.Resolution) (fault, fix, note string) {
	e := r.Entry
	const forms = "an entry is <toolset>, <toolset>.*, <toolset>.<tool>, core or core.<tool>"
	switch {
	case r.Status == model.BareTool:
		return fmt.Sprintf("%s is a tool, not a toolset: write %s", q(e.Text), orList(r.Homes)), "write " + listed(r.Homes, tomlName, "or"), ""
	case r.Status == model.UnknownToolset:
		// r.Close holds toolset names here, so the fix swaps the toolset
		// segment and keeps the rest of the text (fixFor would append a
		// toolset name as if it were a tool: 'computr.compute').
		fix := "fix or drop the entry"
		switch {
		case len(r.Close) > 0:
			fix = "write " + tomlName(r.Close[0]+strings.TrimPrefix(e.Text, e.Toolset))
		case len(r.Homes) > 0:
			// Close to no toolset but to a tool: a misspelled bare tool
			// name, which is written toolset.tool.
			return fmt.Sprintf("%s names no installed toolset, nor any tool", q(e.Text)),
				"write " + listed(r.Homes, tomlName, "or"),
				fmt.Sprintf("Did you mean the tool %s? A tool is written <toolset>.<tool>.", orList(r.Homes))
		}
		return fmt.Sprintf("%s names no installed toolset %s%s", q(e.Text), q(e.Toolset), didYouMean(r.Close)), fix, ""
	case e.Fault == kokua.TooManyDots:
		return fmt.Sprintf("%s has more than one '.'", q(e.Text)), "", forms
	case e.Fault == kokua.BadStar:
		return fmt.Sprintf("%s uses '*' as a pattern", q(e.Text)), "",
			"'*' may only stand for a whole toolset's tools (<toolset>.*), since a partial pattern is as silent a gap as a dead name"
	case e.Fault == kokua.EmptyTool:
		return fmt.Sprintf("%s names no tool after the '.'", q(e.Text)), fmt.Sprintf("write %s for the whole toolset", tomlName(e.Toolset)), ""
	}
	return fmt.Sprintf("%s names no toolset", q(e.Text)), "", ""
}
