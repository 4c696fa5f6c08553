package diff

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/textdiff"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// FailOn are the values of kokua-compile diff --fail-on, the least grade
// that fails the run; "any" fails on any widening, as before grades.
var FailOn = []string{"critical", "high", "medium", "any"}

// Fails reports whether a report fails under a --fail-on value: "any"
// when something widened or a change grades medium or above (a reviewer
// change widens no list yet grades high); a grade when some change grades
// at least that.
func (r *Report) Fails(failOn string) bool {
	switch failOn {
	case "critical":
		return r.Grade >= reach.Critical
	case "high":
		return r.Grade >= reach.High
	case "medium":
		return r.Grade >= reach.Medium
	}
	return r.Widened || r.Grade >= reach.Medium
}

// RiskChange is a risk path (reach.Path) the new side has that the old
// side has not, or has at a less permissive level.
type RiskChange struct {
	// pathID is the path's identity (reach.Path.ID), for the digest.
	pathID string
	Agent  string `json:"agent"`
	// Old is the level of the same path (agent, toolset, classes) on the
	// old side; unavailable when it had none.
	Old   reach.Level `json:"old"`
	Path  PlacedPath  `json:"path"`
	Grade reach.Grade `json:"grade"`
}

// ReviewerChange is a change to what decides how review calls are
// answered: a reviewer's model, instructions, thinking or generation
// table, which reviewers answer, or auto-approval's limits. It is high
// when a reviewer may approve some tool on the new side, unless it is a
// limit that narrows (info); info when no reviewer may approve any.
type ReviewerChange struct {
	// Reviewer is the [reviewers.<name>] table, or "" for
	// [security.auto_approval]'s own settings.
	Reviewer string `json:"reviewer"`
	// Field is model, system_message, thinking, generation, reviewers,
	// max_per_turn or timeout_seconds.
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
	// OldSource and NewSource say where a model or thinking value comes
	// from on each side (policy.Reviewer.ModelSource): declared by the
	// reviewer, inherited from [assistant], or builtin (neither writes
	// it); "" for the other fields, and on the old side for a reviewer
	// auto-approval did not name there.
	OldSource kokua.Origin `json:"old_source"`
	NewSource kokua.Origin `json:"new_source"`
	// Diff is the instructions' change as a unified text diff, for
	// system_message.
	Diff string `json:"diff"`
	At   Place  `json:"at"`
	// Direction is Widens or Narrows for a numeric limit (max_per_turn,
	// timeout_seconds), by its value; ReadIt for every other field, whose
	// direction only a person reading it can tell.
	Direction string `json:"direction"`
	// Tools are the tools a reviewer may approve on the new side.
	Tools []string    `json:"tools"`
	Grade reach.Grade `json:"grade"`

	// oldList and newList are the reviewers field's lists, for the
	// digest.
	oldList, newList []string
}

// nameList writes a list of names as a TOML array of strings, each quoted
// and escaped, so that no name can read as two: ["guard", "strict"] is
// not ["guard, strict"].
func nameList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = tomlpos.BasicString(n)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// The directions of a reviewer change.
const (
	// Widens: a limit rose, and the reviewer may approve more calls.
	Widens = "widens"
	// Narrows: a limit fell, and more calls reach the user.
	Narrows = "narrows"
	// ReadIt: a model, instructions, thinking, generation or the
	// reviewers changed; stricter or laxer, a person reads it.
	ReadIt = "read"
)

// InfoChange is a change of order or comments: nothing an agent can do
// changes, and it is graded info.
type InfoChange struct {
	What string `json:"what"`
	At   Place  `json:"at"`
}

// toolGrade grades one widened answer by its tool's classes
// (reach.ToolGrade): high for a tool of class exec, write, self-modify or
// egress, medium for any other.
func toolGrade(g *reach.Graph, a reach.Answer) reach.Grade {
	return reach.ToolGrade(g.ToolClasses(a.Toolset, a.Tool))
}

// grade sets the grade of every change of a report and counts them.
func (r *Report) grade(o, n *Side) {
	count := func(g reach.Grade) {
		r.Grades.add(g)
		r.Grade = max(r.Grade, g)
	}
	if r.EntryAgent != nil {
		r.EntryAgent.Grade = reach.Info
		count(reach.Info)
	}
	for i := range r.Agents {
		for j := range r.Agents[i].Widened {
			t := &r.Agents[i].Widened[j]
			t.Grade = toolGrade(n.Graph, t.New)
			count(t.Grade)
		}
		sortGraded(r.Agents[i].Widened)
	}
	for i := range r.Delegation {
		e := &r.Delegation[i]
		if !e.Widened {
			continue
		}
		e.Grade = reach.Medium
		for _, x := range e.New {
			e.Grade = max(e.Grade, toolGrade(n.Graph, x.Answer))
		}
		sortReached(n.Graph, e.New)
		count(e.Grade)
	}
	if a := r.AutoApproval; a != nil && a.Widened {
		a.Grade = reach.Medium
		for _, ag := range n.Graph.Agents {
			for _, ans := range answers(n.Graph, ag.Name) {
				if ans.Level == reach.Reviewer && toolGrade(n.Graph, ans) == reach.High {
					a.Grade = reach.High
				}
			}
		}
		count(a.Grade)
	}
	if f := r.Floor; f != nil {
		switch {
		case f.Widened:
			f.Grade = reach.High
		case !f.OldActive || !f.NewActive:
			f.Grade = reach.Info
		}
		if f.Grade != reach.NoGrade {
			count(f.Grade)
		}
	}
	for i := range r.Residency {
		r.Residency[i].Grade = reach.Info
		count(reach.Info)
	}
	r.Risks = compareRisks(o, n)
	for _, c := range r.Risks {
		count(c.Grade)
	}
	r.Reviewers = compareReviewers(o, n)
	for _, c := range r.Reviewers {
		count(c.Grade)
	}
	r.Info = infoChanges(o, n)
	for range r.Info {
		count(reach.Info)
	}
}

// sortGraded puts the graded tools first, then by toolset and tool.
func sortGraded(ts []ToolChange) {
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].Grade != ts[j].Grade {
			return ts[i].Grade > ts[j].Grade
		}
		if ts[i].New.Toolset != ts[j].New.Toolset {
			return ts[i].New.Toolset < ts[j].New.Toolset
		}
		return ts[i].Tool < ts[j].Tool
	})
}

// sortReached puts the tools of a dangerous class first, then by toolset
// and tool.
func sortReached(g *reach.Graph, xs []Reached) {
	sort.SliceStable(xs, func(i, j int) bool {
		gi, gj := toolGrade(g, xs[i].Answer), toolGrade(g, xs[j].Answer)
		if gi != gj {
			return gi > gj
		}
		if xs[i].Answer.Toolset != xs[j].Answer.Toolset {
			return xs[i].Answer.Toolset < xs[j].Answer.Toolset
		}
		return xs[i].Tool < xs[j].Tool
	})
}

// compareRisks lists the risk paths of the new side that the old side has
// not, or has at a less permissive level (reach.Raised: a path is the same
// only when its entry, every hop and its end are), placed in the new
// side. Old is the best level the old side reaches the same agent,
// toolset and classes at.
func compareRisks(o, n *Side) []RiskChange {
	oldRisks := o.Graph.Risks()
	old := map[string]reach.Level{}
	for _, a := range oldRisks {
		if !a.Reachable {
			continue
		}
		for _, p := range a.Paths {
			old[p.Key()] = max(old[p.Key()], p.Level)
		}
	}
	out := []RiskChange{}
	for _, p := range reach.Raised(oldRisks, n.Graph.Risks()) {
		out = append(out, RiskChange{Agent: p.Agent, Old: old[p.Key()], Path: n.placePath(p), Grade: p.Grade, pathID: p.ID()})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Grade > out[j].Grade })
	return out
}

// reviewerTools are the tools a reviewer may approve on a side, for a
// live agent, sorted.
func reviewerTools(g *reach.Graph) []string {
	seen := map[reach.Key]bool{}
	for _, a := range g.Agents {
		for k, ans := range answers(g, a.Name) {
			if ans.Level == reach.Reviewer {
				seen[k] = true
			}
		}
	}
	return keyNames(seen)
}

// compareReviewers lists what changed in the reviewers and in
// auto-approval's limits. With no tool a reviewer may approve on the new
// side (auto-approval off, or no review tool off the floor) every change
// is info. Otherwise a limit that narrows is info and every other change
// is high: a limit that widens lets the reviewer approve more, and a
// changed model, text, thinking, generation or set of reviewers may make
// it approve more, which only a person reading it can tell.
func compareReviewers(o, n *Side) []ReviewerChange {
	od, nd := o.Policy.Document(), n.Policy.Document()
	tools := reviewerTools(n.Graph)
	out := []ReviewerChange{}
	add := func(c ReviewerChange) {
		c.Tools, c.Grade = tools, reach.Info
		if len(tools) > 0 && c.Direction != Narrows {
			c.Grade = reach.High
		}
		out = append(out, c)
	}
	oa, na := od.AutoApproval, nd.AutoApproval
	// The reviewers are a list of names, compared as one: a name may
	// hold ", " or any other punctuation, so no joined text stands for
	// the list, and each name is shown as a TOML string.
	if a, b := oa.Reviewers, na.Reviewers; !slices.Equal(a, b) {
		add(ReviewerChange{Field: "reviewers", Old: nameList(a), New: nameList(b), oldList: a, newList: b,
			Direction: ReadIt, At: n.autoKeyPlace("reviewers")})
	}
	if a, b := oa.MaxPerTurn, na.MaxPerTurn; a != b {
		add(ReviewerChange{Field: "max_per_turn", Old: strconv.Itoa(a), New: strconv.Itoa(b),
			Direction: limitDirection(oa.Enabled, na.Enabled, float64(a), float64(b)), At: n.autoKeyPlace("max_per_turn")})
	}
	if a, b := oa.TimeoutSeconds, na.TimeoutSeconds; a != b {
		add(ReviewerChange{Field: "timeout_seconds", Old: strconv.FormatFloat(a, 'g', -1, 64), New: strconv.FormatFloat(b, 'g', -1, 64),
			Direction: limitDirection(oa.Enabled, na.Enabled, a, b), At: n.autoKeyPlace("timeout_seconds")})
	}
	seen := map[string]bool{}
	for _, name := range na.Reviewers {
		rn := nd.Reviewers[name]
		if rn == nil || seen[name] {
			continue
		}
		seen[name] = true
		// A reviewer the old side did not name answered nothing there:
		// every value it runs with is new, and shown.
		ro := od.Reviewers[name]
		if ro == nil || !slices.Contains(oa.Reviewers, name) {
			ro = &policy.Reviewer{}
		}
		// Values are compared as the reviewer runs with them: a model or
		// thinking it inherits from [assistant] is its own (R143, R144).
		for _, f := range []struct {
			field, a, b string
			from, to    kokua.Origin
		}{
			{"model", ro.Model, rn.Model, ro.ModelSource, rn.ModelSource}, {"system_message", ro.SystemMessage, rn.SystemMessage, "", ""},
			{"thinking", ro.Thinking, rn.Thinking, ro.ThinkingSource, rn.ThinkingSource}, {"generation", ro.Generation, rn.Generation, "", ""},
		} {
			if f.a == f.b {
				continue
			}
			c := ReviewerChange{Reviewer: name, Field: f.field, Old: f.a, New: f.b, OldSource: f.from, NewSource: f.to,
				Direction: ReadIt, At: n.reviewerPlace(name, f.field)}
			if f.to == kokua.Inherited {
				c.At = n.assistantPlace(f.field)
			}
			if f.field == "system_message" {
				c.Diff = textDiff(f.a, f.b)
			}
			add(c)
		}
	}
	return out
}

// limitDirection says which way a numeric limit of auto-approval moved,
// max_per_turn or timeout_seconds, by the power it gives the reviewer:
// the more calls it may answer in a turn, and the longer it may take on
// one, the more calls it can approve before they reach the user ("in R
// -> reviewer (if auto-approval enabled, budget max_per_turn, timeout
// timeout_seconds; never for floor tools) then the user", R187; a review
// goes "to the user if the reviewer does not approve", R67, and a
// reviewer that ran out of budget or time has not approved). When
// auto-approval is on on one side only, the side with it off reads no
// limit (R145) and gives the reviewer nothing: zero. (A policy holds
// finite numbers only: a config writing inf or nan does not compile.)
func limitDirection(oldOn, newOn bool, a, b float64) string {
	if oldOn != newOn && !oldOn {
		a = 0
	}
	if oldOn != newOn && !newOn {
		b = 0
	}
	if b <= a {
		return Narrows
	}
	return Widens
}

// textDiff is a unified diff of two texts, by line, without file headers.
func textDiff(a, b string) string {
	// An empty text (a reviewer named for the first time) has no line.
	if a != "" && !strings.HasSuffix(a, "\n") {
		a += "\n"
	}
	if b != "" && !strings.HasSuffix(b, "\n") {
		b += "\n"
	}
	d := textdiff.Unified("old", "new", a, b)
	var lines []string
	for _, l := range strings.SplitAfter(d, "\n") {
		if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") || l == "" {
			continue
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "")
}

// infoChanges are changes of order and of comments, between two configs
// (a compiled policy keeps no comments, and its lists' order is its
// config's): for each agent, available, delegates_to and the pair's lists
// holding the same names in another order; the comments changed.
func infoChanges(o, n *Side) []InfoChange {
	out := []InfoChange{}
	od, nd := o.Policy.Document(), n.Policy.Document()
	reordered := func(a, b []string) bool {
		if slices.Equal(a, b) || len(a) != len(b) {
			return false
		}
		x, y := slices.Clone(a), slices.Clone(b)
		slices.Sort(x)
		slices.Sort(y)
		return slices.Equal(x, y)
	}
	for _, name := range reach.Sorted(nd.Agents) {
		na, oa := nd.Agents[name], od.Agents[name]
		if oa == nil {
			continue
		}
		if reordered(oa.Available.Declared, na.Available.Declared) {
			out = append(out, InfoChange{What: "the order of " + toolsKey(name, "available"), At: n.availablePlace(name, "")})
		}
		if reordered(oa.DelegatesTo, na.DelegatesTo) {
			out = append(out, InfoChange{What: "the order of " + delegatesKey(name), At: n.place(delegatesKey(name), n.delegatesSpan(name))})
		}
		if oa.Approval.Confirm != nil && na.Approval.Confirm != nil {
			for _, pair := range [][2][]string{
				{entryTexts(oa.Approval.Confirm.Entries), entryTexts(na.Approval.Confirm.Entries)},
				{entryTexts(oa.Approval.Review.Entries), entryTexts(na.Approval.Review.Entries)},
			} {
				if reordered(pair[0], pair[1]) {
					out = append(out, InfoChange{What: "the order of an approval list of " + name, At: n.listPlace(toolsKey(name, "confirm"))})
				}
			}
		}
	}
	for _, l := range []struct {
		a, b []string
		key  string
	}{
		{entryTexts(od.DefaultTier.Confirm.Entries), entryTexts(nd.DefaultTier.Confirm.Entries), nd.DefaultTier.Confirm.Key},
		{entryTexts(od.DefaultTier.Review.Entries), entryTexts(nd.DefaultTier.Review.Entries), nd.DefaultTier.Review.Key},
		{entryTexts(od.Floor.List.Entries), entryTexts(nd.Floor.List.Entries), nd.Floor.List.Key},
	} {
		if reordered(l.a, l.b) {
			out = append(out, InfoChange{What: "the order of " + l.key, At: n.listPlace(l.key)})
		}
	}
	if o.Config != nil && n.Config != nil {
		oc, nc := commentTexts(o.Config), commentTexts(n.Config)
		if !slices.Equal(oc, nc) {
			at := n.place("comments", diag.Span{})
			for i, c := range n.Config.Comments {
				if i >= len(oc) || oc[i] != c.Text {
					at = n.place("comment", c.Span)
					break
				}
			}
			out = append(out, InfoChange{What: "comments", At: at})
		}
	}
	return out
}

func commentTexts(c *config.Config) []string {
	out := make([]string, len(c.Comments))
	for i, x := range c.Comments {
		out[i] = x.Text
	}
	return out
}

// gradeWord is a grade as a report shows it beside a change.
func gradeWord(g reach.Grade) string { return fmt.Sprintf("[%s]", g) }

func entryTexts(es []policy.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Text
	}
	return out
}

// widenings are the report's changes graded medium or above, one line
// each, naming everything graded: for a tool, the agent, the toolset, the
// tool, its old and new decision and level, its classes and its grade;
// for an edge, each new tool it carries the same way; the auto-approval
// and floor changes with the tools they unprotect; each risk path by its
// identity (reach.Path.ID) and level; each reviewer change with both
// values. Places are left out, so that a line moved by an unrelated edit
// keeps the digest. Each line is JSON, so that no name can run into the
// next field.
func (r *Report) widenings() []string {
	var out []string
	add := func(g reach.Grade, kind string, fields ...any) {
		if g < reach.Medium {
			return
		}
		line, err := json.Marshal(append([]any{kind, g.String()}, fields...))
		if err != nil {
			panic(err) // cannot happen: strings, levels and classes only
		}
		out = append(out, string(line))
	}
	answer := func(a reach.Answer) []any { return []any{string(a.Decision), a.Level.String(), a.OnDemand} }
	classes := func(toolset, tool string) []kokua.Class {
		if r.newGraph == nil {
			return nil
		}
		return r.newGraph.ToolClasses(toolset, tool)
	}
	for _, a := range r.Agents {
		for _, t := range a.Widened {
			add(t.Grade, "tool", a.Agent, t.Toolset, t.Tool, answer(t.Old), answer(t.New), classes(t.Toolset, t.Tool))
		}
	}
	for _, e := range r.Delegation {
		for _, x := range e.New {
			add(e.Grade, "edge", e.From, e.To, e.Via, x.Toolset, x.Tool, x.By, answer(x.Answer), classes(x.Toolset, x.Tool))
		}
	}
	if a := r.AutoApproval; a != nil {
		add(a.Grade, "auto-approval", a.Old, a.New, a.Unprotected)
	}
	if f := r.Floor; f != nil {
		add(f.Grade, "floor", items(f.Dropped), items(f.Added), f.Unprotected)
	}
	for _, c := range r.Risks {
		add(c.Grade, "risk", c.pathID, c.Old.String(), c.Path.Level.String())
	}
	for _, c := range r.Reviewers {
		add(c.Grade, "reviewer", c.Reviewer, c.Field, c.Old, c.New, c.OldSource, c.NewSource, c.oldList, c.newList, c.Direction, c.Tools)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// setDigest sets the report's digest: the SHA-256 of its widenings, one a
// line; empty when nothing grades medium or above.
func (r *Report) setDigest() {
	w := append(r.widenings(), r.ManifestLines()...)
	if len(w) == 0 {
		return
	}
	sum := sha256.Sum256([]byte(strings.Join(w, "\n") + "\n"))
	r.Digest = "sha256:" + hex.EncodeToString(sum[:])
}
