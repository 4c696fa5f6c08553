package diff

import "github.com/kokua-policy/kokua-policy/internal/reach"

// The words the reports use, for another face of a report (the policy
// explorer's page, internal/report) to say each change as kokua-compile
// diff says it, from the same functions.

// Headline is the report's first line after the two files: the count of
// changes of each grade, then what widened and narrowed.
func (r *Report) Headline() string { return summary(r) }

// PathTitle says what a risk path lets untrusted content do.
func PathTitle(p PlacedPath) string { return pathTitle(p) }

// HopText says one hop of a risk path for people.
func HopText(h PlacedHop) string { return hopText(h) }

// HopsLeftOut says how many hops of a long path are left out.
func HopsLeftOut(n int) string { return hopsLeftOut(n) }

// AgentTitle names a node of the reach graph for people: an agent, or
// composed workers.
func AgentTitle(name string) string { return agentTitle(name) }

// LevelWas is a risk path's old level for people: "none" when the old
// side had no such path.
func LevelWas(l reach.Level) string { return riskLevel(l) }

// Setting names what a reviewer change changed: a reviewer's field, or
// one of [security.auto_approval]'s.
func (c ReviewerChange) Setting() string { return reviewerField(c) }

// Values shows a reviewer change's old and new value (for the
// instructions, that they changed: Diff shows how).
func (c ReviewerChange) Values() string { return reviewerValues(c) }

// Reach says which tools a reviewer may approve on the new side.
func (c ReviewerChange) Reach() string { return reviewerReach(c) }

// Effect says what a floor change does: widened, narrowed, nothing new,
// or no effect while auto-approval is off.
func (f *FloorChange) Effect() string { return floorMark(f) }

// Effect says what switching auto-approval does.
func (a *AutoChange) Effect() string { return autoMark(a) }

// Effect says what a delegation edge's change does.
func (e EdgeChange) Effect() string { return edgeMark(e) }

// NewTo says what a gained edge carries that its agent could not cause
// before, one line a grade, toolset, answer and agent: "[high] compute:
// execute_python, run_command (review: asks the user, by coder)". A
// report Compare did not make (one read back from JSON) has no graph to
// grade the tools by, and gives none.
func (r *Report) NewTo(e EdgeChange) []string {
	if r.newGraph == nil {
		return nil
	}
	return groupReached(r.newGraph, e.New)
}
