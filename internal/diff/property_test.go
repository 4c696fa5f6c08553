package diff_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/internal/testing/reference"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
)

// config is a generated config as a TOML tree, to be changed and written
// back.
type config map[string]any

func table(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func strs(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func anys(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// mutate makes one random edit of the kind a pull request makes: a
// toolset into or out of available or resident, an entry added, removed
// or moved between confirm and review, a pair declared or dropped,
// auto-approval switched, a floor entry dropped or added, a delegation
// edge added or removed. The result may not lint clean; the caller
// retries.
//
// kind chooses the edit (0 to 11); kind 12 is an edge from an agent that
// already delegates to one outside its reach, which widens by the edge's
// reach alone.
func mutate(r *rand.Rand, c config, toolsets []string, toolsOf map[string][]string, kind int) {
	agents := table(c["agents"])
	names := reach.Sorted(agents)
	a := pick(r, names)
	tools := table(table(agents[a])["tools"])
	avail := strs(tools["available"])
	// pair is the list an approval edit changes: the agent's own or the
	// default's.
	pair := table(table(c["assistant"])["tools"])
	if _, own := tools["confirm"]; own {
		pair = tools
	}
	entryOn := func(ts string) string {
		switch r.IntN(3) {
		case 0:
			return ts
		case 1:
			return ts + ".*"
		}
		return ts + "." + pick(r, toolsOf[ts])
	}
	if len(avail) == 0 && slices.Contains([]int{1, 2, 3, 4, 7, 9}, kind) {
		return // an edit that picks from available, on an agent with none
	}
	switch kind {
	case 0: // a toolset gained in available
		ts := pick(r, toolsets)
		if !slices.Contains(avail, ts) {
			tools["available"] = anys(append(avail, ts))
		}
	case 1: // a toolset lost from available (and from resident)
		ts := pick(r, avail)
		tools["available"] = anys(slices.DeleteFunc(avail, func(s string) bool { return s == ts }))
		if res, ok := tools["resident"]; ok {
			tools["resident"] = anys(slices.DeleteFunc(strs(res), func(s string) bool { return s == ts }))
		}
	case 2: // resident gains or loses a toolset
		res := strs(tools["resident"])
		ts := pick(r, avail)
		if slices.Contains(res, ts) {
			res = slices.DeleteFunc(res, func(s string) bool { return s == ts })
		} else {
			res = append(res, ts)
		}
		tools["resident"] = anys(res)
	case 3, 4: // an entry added to confirm or review
		list := pick(r, []string{"confirm", "review"})
		pair[list] = anys(append(strs(pair[list]), entryOn(pick(r, avail))))
	case 5: // an entry removed
		list := pick(r, []string{"confirm", "review"})
		if l := strs(pair[list]); len(l) > 0 {
			i := r.IntN(len(l))
			pair[list] = anys(slices.Delete(l, i, i+1))
		}
	case 6: // an entry moved between confirm and review
		from, to := "confirm", "review"
		if r.IntN(2) == 0 {
			from, to = to, from
		}
		if l := strs(pair[from]); len(l) > 0 {
			i := r.IntN(len(l))
			pair[to] = anys(append(strs(pair[to]), l[i]))
			pair[from] = anys(slices.Delete(l, i, i+1))
		}
	case 7: // the agent declares its own pair, or drops it
		if _, own := tools["confirm"]; own {
			delete(tools, "confirm")
			delete(tools, "review")
		} else {
			tools["confirm"] = anys([]string{entryOn(pick(r, avail))})
			tools["review"] = anys([]string{})
		}
	case 8: // auto-approval switched
		auto := table(table(c["security"])["auto_approval"])
		on, _ := auto["enabled"].(bool)
		auto["enabled"] = !on
	case 9: // a floor entry dropped or added
		sec := table(c["security"])
		floor := strs(sec["never_auto_approve"])
		if len(floor) > 0 && r.IntN(2) == 0 {
			i := r.IntN(len(floor))
			sec["never_auto_approve"] = anys(slices.Delete(floor, i, i+1))
		} else {
			ts := pick(r, avail)
			sec["never_auto_approve"] = anys(append(floor, ts+"."+pick(r, toolsOf[ts])))
		}
	case 10, 12: // a delegation edge added
		var delegating []string
		for _, n := range names {
			if len(strs(table(agents[n])["delegates_to"])) > 0 {
				delegating = append(delegating, n)
			}
		}
		closure := func(from string) []string {
			out := []string{from}
			for i := 0; i < len(out); i++ {
				for _, d := range strs(table(agents[out[i]])["delegates_to"]) {
					if !slices.Contains(out, d) {
						out = append(out, d)
					}
				}
			}
			return out
		}
		to := pick(r, names)
		if len(delegating) > 0 && kind == 12 {
			// A worker outside the agent's reach, and not above it (no cycle).
			a = pick(r, delegating)
			var outside []string
			for _, n := range names {
				if !slices.Contains(closure(a), n) && !slices.Contains(closure(n), a) {
					outside = append(outside, n)
				}
			}
			if len(outside) > 0 {
				to = pick(r, outside)
			}
		}
		d := strs(table(agents[a])["delegates_to"])
		if to != a && !slices.Contains(d, to) {
			table(agents[a])["delegates_to"] = anys(append(d, to))
		}
	case 11: // a delegation edge removed
		if d := strs(table(agents[a])["delegates_to"]); len(d) > 0 {
			i := r.IntN(len(d))
			table(agents[a])["delegates_to"] = anys(slices.Delete(d, i, i+1))
		}
	}
}

// level is the reference evaluator's answer as a reach.Level, written
// from the spec apart from package reach: unavailable, and for an agent
// startup does not build (reachableIn); confirm, or review when no
// reviewer may answer, ask the user; review with auto-approval on and the
// tool off the floor goes to the reviewer first; run.
func level(ev *reference.Evaluator, agent, tool string) reach.Level {
	if !reachableIn(ev, agent) {
		return reach.Unavailable
	}
	switch ev.AnswerLoaded(agent, tool) {
	case reference.Run:
		return reach.Runs
	case reference.Confirm:
		return reach.Asks
	case reference.Review:
		if ev.ReviewerFirst(tool) {
			return reach.Reviewer
		}
		return reach.Asks
	}
	return reach.Unavailable
}

// reachableIn reports whether startup builds the agent: "startup builds
// only the entry agent and every worker reachable from it by
// delegates_to" (tool-access.md; R173), found here from the config's own
// delegates_to lists, apart from the policy's reachable field.
func reachableIn(ev *reference.Evaluator, agent string) bool {
	built := []string{ev.Entry}
	for i := 0; i < len(built); i++ {
		for _, ag := range ev.Agents {
			if ag.Name != built[i] {
				continue
			}
			for _, d := range ag.DelegatesTo {
				if !slices.Contains(built, d) {
					built = append(built, d)
				}
			}
		}
	}
	return slices.Contains(built, agent)
}

// refWidens says whether the reference evaluator finds, from A to B, an
// (agent, tool) pair whose answer is more permissive: the agent's own
// answer, the most permissive answer among the agents it reaches by
// delegates_to (what it can cause to run), or a tool it can reach that
// the floor or a switched-off auto-approval kept from any reviewer in A
// and no longer does in B.
func refWidens(a, b *reference.Evaluator) (bool, string) {
	var agents, tools []string
	for _, ev := range []*reference.Evaluator{a, b} {
		for _, ag := range ev.Agents {
			if !slices.Contains(agents, ag.Name) {
				agents = append(agents, ag.Name)
			}
		}
		for _, ts := range ev.Registry {
			for _, t := range ts.Tools {
				if !slices.Contains(tools, t) {
					tools = append(tools, t)
				}
			}
		}
	}
	// The loaders come with residency, which widens nothing (tool-access.md,
	// Residency): they are not compared.
	for _, t := range kokua.CoreTools() {
		if t != kokua.AvailableTools && t != kokua.LoadTools {
			tools = append(tools, t)
		}
	}
	sort.Strings(agents)
	type q struct {
		ev          *reference.Evaluator
		agent, tool string
	}
	memo := map[q]reach.Level{}
	level := func(ev *reference.Evaluator, agent, tool string) reach.Level {
		k := q{ev, agent, tool}
		if l, ok := memo[k]; ok {
			return l
		}
		memo[k] = level(ev, agent, tool)
		return memo[k]
	}
	closure := func(ev *reference.Evaluator, name string) []string {
		out := []string{name}
		for i := 0; i < len(out); i++ {
			for _, ag := range ev.Agents {
				if ag.Name == out[i] {
					for _, d := range ag.DelegatesTo {
						if !slices.Contains(out, d) {
							out = append(out, d)
						}
					}
				}
			}
		}
		return out
	}
	reachLevel := func(ev *reference.Evaluator, name, tool string) reach.Level {
		best := reach.Unavailable
		for _, n := range closure(ev, name) {
			best = max(best, level(ev, n, tool))
		}
		return best
	}
	floorA, floorB := a.FloorTools(), b.FloorTools()
	protected := func(ev *reference.Evaluator, tool string) bool {
		floor := floorA
		if ev == b {
			floor = floorB
		}
		return !ev.AutoApproval || slices.Contains(floor, tool)
	}
	for _, ag := range agents {
		for _, t := range tools {
			la, lb := level(a, ag, t), level(b, ag, t)
			switch {
			case lb > la:
				return true, fmt.Sprintf("%s %s: %v -> %v", ag, t, la, lb)
			case reachLevel(b, ag, t) > reachLevel(a, ag, t):
				return true, fmt.Sprintf("%s reaches %s: %v -> %v", ag, t, reachLevel(a, ag, t), reachLevel(b, ag, t))
			case lb > reach.Unavailable && protected(a, t) && !protected(b, t):
				return true, fmt.Sprintf("%s %s left the floor", ag, t)
			}
		}
	}
	return false, ""
}

// generated is a config that lints clean with its side and its reference
// evaluator.
type generated struct {
	data []byte
	side *diff.Side
	ref  *reference.Evaluator
}

// reps is n, or a quarter of it (at least 1) under -short or -race:
// mutation runs (scripts/mutation.sh with SHORT=1) ask each mutant of
// fewer generated inputs, so that the whole package's tests run in
// seconds, and the race detector's slower runs stay inside go test's
// timeout (race_test.go).
func reps(n int) int {
	if testing.Short() || raced {
		return max(1, n/4)
	}
	return n
}

func load(t *testing.T, name string, data []byte, m *lint.Manifest) (generated, bool) {
	t.Helper()
	s, _, err := diff.Load(lint.Source{Name: name, Data: data}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		return generated{}, false
	}
	ev, err := reference.New(data, m.Source.Data)
	if err != nil {
		t.Fatal(err)
	}
	return generated{data: data, side: s, ref: ev}, true
}

// TestProperties checks, on configs from internal/testing/gen and random edits of
// them, that diff(A, A) is empty; that A to B reports a widening exactly
// when the reference evaluator (internal/testing/reference, which shares no code
// with policy or reach) finds some (agent, tool) pair more permissive in
// B; and that diff(A, B) and diff(B, A) mirror each other.
func TestProperties(t *testing.T) {
	const agents, toolsets = 9, 40
	manifest := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(toolsets)})
	base, ok := load(t, "a.toml", gen.Config(agents, toolsets), manifest)
	if !ok {
		t.Fatal("the generated config does not lint clean")
	}
	toolsOf := map[string][]string{}
	var tsNames []string
	for _, ts := range base.ref.Registry {
		tsNames = append(tsNames, ts.Name)
		toolsOf[ts.Name] = ts.Tools
	}
	r := rand.New(rand.NewPCG(14, 2026))
	anyKind := func() int { return r.IntN(12) }
	pairs, widening := 0, 0
	for pairs < reps(100) {
		var a generated
		if r.IntN(3) == 0 {
			a = base
		} else if a, ok = edit(t, r, base, manifest, tsNames, toolsOf, "a.toml", 1+r.IntN(3), anyKind); !ok {
			continue
		}
		n, kind := 1+r.IntN(3), anyKind
		if pairs%5 == 0 {
			// One edge added and nothing else: only its reach can widen.
			n, kind = 1, func() int { return 12 }
		}
		b, ok := edit(t, r, a, manifest, tsNames, toolsOf, "b.toml", n, kind)
		if !ok {
			continue
		}
		pairs++
		if same := diff.Compare(a.side, a.side); !same.Empty() || same.Widened || len(same.Residency) > 0 {
			t.Fatalf("diff(A, A) is not empty:\n%s\n%s", a.data, reportText(t, same))
		}
		ab, ba := diff.Compare(a.side, b.side), diff.Compare(b.side, a.side)
		want, why := refWidens(a.ref, b.ref)
		if ab.Widened != want {
			t.Fatalf("diff reports widened=%v, the reference finds %v (%s)\n--- A\n%s\n--- B\n%s\n--- report\n%s", ab.Widened, want, why, a.data, b.data, reportText(t, ab))
		}
		if want {
			widening++
		}
		mirror(t, ab, ba)
	}
	// The edits must exercise both outcomes, or the test proves little.
	if widening < reps(20) || pairs-widening < reps(20) {
		t.Errorf("%d of %d pairs widen; the edits should give plenty of both", widening, pairs)
	}
}

// edit applies n random edits, until the result lints clean (or gives up).
func edit(t *testing.T, r *rand.Rand, from generated, m *lint.Manifest, toolsets []string, toolsOf map[string][]string, name string, n int, kind func() int) (generated, bool) {
	t.Helper()
	for range 20 {
		var c config
		if err := toml.Unmarshal(from.data, &c); err != nil {
			t.Fatal(err)
		}
		for range n {
			mutate(r, c, toolsets, toolsOf, kind())
		}
		data, err := toml.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if g, ok := load(t, name, data, m); ok {
			return g, true
		}
	}
	return generated{}, false
}

func reportText(t *testing.T, r *diff.Report) string {
	t.Helper()
	var b strings.Builder
	if err := diff.Write(&b, "human", r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// mirror checks that every change of diff(A, B) is the opposite change of
// diff(B, A): tools widened one way are narrowed the other with old and
// new swapped, toolsets gained are lost, edges gained are lost, floor
// entries dropped are added, and the entry agent and auto-approval swap.
func mirror(t *testing.T, ab, ba *diff.Report) {
	t.Helper()
	type key struct{ agent, tool, old, new string }
	tools := func(r *diff.Report, widened, swap bool) []key {
		var out []key
		for _, a := range r.Agents {
			list := a.Narrowed
			if widened {
				list = a.Widened
			}
			for _, c := range list {
				k := key{a.Agent, c.Tool, c.Old.Level.String() + c.Old.Describe(), c.New.Level.String() + c.New.Describe()}
				if swap {
					k.old, k.new = k.new, k.old
				}
				out = append(out, k)
			}
		}
		// Widened tools are listed graded first; compare as sets.
		sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
		return out
	}
	if !slices.Equal(tools(ab, true, false), tools(ba, false, true)) || !slices.Equal(tools(ab, false, false), tools(ba, true, true)) {
		t.Fatalf("tool changes do not mirror:\n%v\n%v\n%v\n%v", tools(ab, true, false), tools(ba, false, true), tools(ab, false, false), tools(ba, true, true))
	}
	lists := func(r *diff.Report, gained bool) []string {
		var out []string
		add := func(agent string, l diff.ListChange) {
			xs := l.Lost
			if gained {
				xs = l.Gained
			}
			for _, x := range xs {
				out = append(out, agent+" "+x.Name)
			}
		}
		for _, a := range r.Agents {
			add(a.Agent, a.Available)
		}
		for _, a := range r.Residency {
			add(a.Agent+" resident", a.Resident)
		}
		return out
	}
	loaders := func(r *diff.Report, swap bool) []string {
		var out []string
		for _, a := range r.Residency {
			for _, c := range a.Loaders {
				o, n := c.Old.Describe(), c.New.Describe()
				if swap {
					o, n = n, o
				}
				out = append(out, a.Agent+" "+c.Tool+" "+o+" "+n)
			}
		}
		return out
	}
	if !slices.Equal(loaders(ab, false), loaders(ba, true)) {
		t.Fatalf("loader changes do not mirror:\n%v\n%v", loaders(ab, false), loaders(ba, true))
	}
	if !slices.Equal(lists(ab, true), lists(ba, false)) || !slices.Equal(lists(ab, false), lists(ba, true)) {
		t.Fatalf("toolset changes do not mirror")
	}
	edges := func(r *diff.Report, change string) []string {
		var out []string
		for _, e := range r.Delegation {
			if e.Change == change {
				out = append(out, e.From+" "+e.To+" "+e.Via)
			}
		}
		sort.Strings(out)
		return out
	}
	if !slices.Equal(edges(ab, "gained"), edges(ba, "lost")) || !slices.Equal(edges(ab, "lost"), edges(ba, "gained")) {
		t.Fatalf("edges do not mirror")
	}
	if (ab.AutoApproval == nil) != (ba.AutoApproval == nil) || (ab.AutoApproval != nil && ab.AutoApproval.New != ba.AutoApproval.Old) {
		t.Fatalf("auto-approval changes do not mirror")
	}
	entries := func(xs []diff.Item) []string {
		var out []string
		for _, x := range xs {
			out = append(out, x.Name)
		}
		return out
	}
	if (ab.Floor == nil) != (ba.Floor == nil) || (ab.Floor != nil && (!slices.Equal(entries(ab.Floor.Dropped), entries(ba.Floor.Added)) || !slices.Equal(entries(ab.Floor.Added), entries(ba.Floor.Dropped)))) {
		t.Fatalf("floor changes do not mirror")
	}
}

// residencyEdit changes one agent's resident key and nothing else: a
// toolset of available into or out of resident, the list reordered, the
// key written where the agent had none, or the key removed.
func residencyEdit(r *rand.Rand, c config) {
	agents := table(c["agents"])
	tools := table(table(agents[pick(r, reach.Sorted(agents))])["tools"])
	avail := strs(tools["available"])
	res, declared := tools["resident"]
	switch {
	case !declared:
		var subset []string
		for _, ts := range avail {
			if r.IntN(2) == 0 {
				subset = append(subset, ts)
			}
		}
		tools["resident"] = anys(subset)
	case r.IntN(4) == 0 && len(avail) > 0:
		delete(tools, "resident")
	case r.IntN(4) == 0:
		l := strs(res)
		r.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
		tools["resident"] = anys(l)
	case len(avail) > 0:
		l := strs(res)
		ts := pick(r, avail)
		if slices.Contains(l, ts) {
			l = slices.DeleteFunc(l, func(s string) bool { return s == ts })
		} else {
			l = append(l, ts)
		}
		tools["resident"] = anys(l)
	}
}

// TestResidencyWidensNothing checks issue 20's property: for every
// generated config (internal/testing/gen, at many sizes, and random edits
// of each), a change of resident alone is reported with nothing widened
// or narrowed, so kokua-compile diff exits 0, both ways; what changed is
// in the residency section, and each of its places is a resident line.
// "Note what residency cannot do: widen anything" (tool-access.md,
// Residency). The one exception is TestResidencyHolder's: a report whose
// only tool changes are names another toolset now holds (holderOnly) is
// a real change of a call's answer and is counted; it must stay rare.
func TestResidencyWidensNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2026))
	checked, listed, holders := 0, 0, 0
	for _, size := range []struct{ agents, toolsets int }{{1, 1}, {1, 4}, {2, 3}, {3, 9}, {5, 12}, {9, 40}, {14, 45}, {30, 90}} {
		manifest := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(size.toolsets)})
		base, ok := load(t, "a.toml", gen.Config(size.agents, size.toolsets), manifest)
		if !ok {
			t.Fatalf("the generated config of %d agents and %d toolsets does not lint clean", size.agents, size.toolsets)
		}
		toolsOf := map[string][]string{}
		var tsNames []string
		for _, ts := range base.ref.Registry {
			tsNames = append(tsNames, ts.Name)
			toolsOf[ts.Name] = ts.Tools
		}
		for range reps(12) {
			a := base
			if r.IntN(2) == 0 {
				if a, ok = edit(t, r, base, manifest, tsNames, toolsOf, "a.toml", 1+r.IntN(3), func() int { return r.IntN(12) }); !ok {
					continue
				}
			}
			b, ok := residencyOnly(t, r, a, manifest)
			if !ok {
				continue
			}
			checked++
			for _, pair := range [][2]generated{{a, b}, {b, a}} {
				rep := diff.Compare(pair[0].side, pair[1].side)
				if holderOnly(rep) {
					holders++
					continue
				}
				if rep.Widened || rep.WidenedCount+rep.NarrowedCount > 0 || !rep.Empty() {
					t.Fatalf("a change of resident alone is reported as power (widened=%v, %d widened, %d narrowed):\n--- A\n%s\n--- B\n%s\n--- report\n%s",
						rep.Widened, rep.WidenedCount, rep.NarrowedCount, pair[0].data, pair[1].data, reportText(t, rep))
				}
				for _, res := range rep.Residency {
					listed++
					var places []diff.Place
					for _, it := range append(slices.Clone(res.Resident.Gained), res.Resident.Lost...) {
						places = append(places, it.At)
					}
					for _, l := range res.Loaders {
						places = append(places, l.At)
					}
					for _, p := range places {
						if !strings.HasSuffix(p.Key, "].resident") || p.Line == 0 {
							t.Fatalf("a residency change points at %s, not at a resident line:\n%s", p, reportText(t, rep))
						}
					}
				}
			}
		}
	}
	// Most edits must be checked, and must change something, or the test
	// proves little.
	if checked < reps(60) || listed < reps(60) || holders > checked/10 {
		t.Errorf("%d residency edits checked, %d residency changes listed, %d holder changes; want at least 60 of each of the first two, and holder changes rare", checked, listed, holders)
	}
}

// holderOnly reports whether a report's tool changes are all names whose
// holder residency changed (see TestResidencyHolder), and there is one.
func holderOnly(r *diff.Report) bool {
	n := 0
	for _, a := range r.Agents {
		for _, c := range append(slices.Clone(a.Widened), a.Narrowed...) {
			if !strings.Contains(c.Because, "holds the name") || !strings.HasSuffix(c.At.Key, "].resident") {
				return false
			}
			n++
		}
	}
	return n > 0
}

// residencyOnly applies one to three residency edits until the result
// lints clean (or gives up).
func residencyOnly(t *testing.T, r *rand.Rand, from generated, m *lint.Manifest) (generated, bool) {
	t.Helper()
	for range 20 {
		var c config
		if err := toml.Unmarshal(from.data, &c); err != nil {
			t.Fatal(err)
		}
		for range 1 + r.IntN(3) {
			residencyEdit(r, c)
		}
		data, err := toml.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if g, ok := load(t, "b.toml", data, m); ok {
			return g, true
		}
	}
	return generated{}, false
}

// TestResidencyHolder checks the one way residency changes the answer a
// call gets. Approval entries gate a tool name, and an entry on a deferred
// toolset waits until that toolset is built; so when two available
// toolsets offer a name and resident moves from the gated one to the
// other, the other's tool holds the name at turn start and runs as its own
// entries say (kokua-run session: "call echo" runs, and asks only once
// t000 is loaded). Tools are compared by toolset and name, so that is two
// changes: t040's echo is now called and runs (widened), t000's is no
// longer called (narrowed), both placed at the resident line. With both
// toolsets resident, the order of available changes which one holds the
// name: the gate stays (the entry is resolved at startup), but another
// toolset's tool answers the call, which is reported too.
func TestResidencyHolder(t *testing.T) {
	// gen's toolsets t000 and t040 both offer echo.
	manifest := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(41)})
	config := func(available, resident string) []byte {
		return fmt.Appendf(nil, "[assistant]\nagent = \"assistant\"\n\n[assistant.tools]\nconfirm = [\"t000.echo\"]\nreview = []\n\n"+
			"[agents.assistant]\ndescription = \"x\"\n\n[agents.assistant.tools]\navailable = %s\nresident = %s\n", available, resident)
	}
	side := func(name string, data []byte) *diff.Side {
		g, ok := load(t, name, data, manifest)
		if !ok {
			t.Fatalf("%s does not lint clean:\n%s", name, data)
		}
		return g.side
	}
	a := side("a.toml", config(`["t000", "t040"]`, `["t000"]`))
	b := side("b.toml", config(`["t000", "t040"]`, `["t040"]`))
	for i, pair := range [][2]*diff.Side{{a, b}, {b, a}} {
		r := diff.Compare(pair[0], pair[1])
		if !r.Widened || r.WidenedCount != 1 || r.NarrowedCount != 1 || !holderOnly(r) {
			t.Fatalf("moving resident between two toolsets offering echo:\n%s", reportText(t, r))
		}
		// a -> b: t040's echo now runs; b -> a: t000's echo now asks, which
		// widens from unavailable too, while t040's is no longer called.
		w, nw := r.Agents[0].Widened[0], r.Agents[0].Narrowed[0]
		wantW, wantN := "t040", "t000"
		if i == 1 {
			wantW, wantN = "t000", "t040"
		}
		// The widened one is called since the other toolset no longer
		// holds the name first; the narrowed one is not, since the other
		// now does.
		for _, c := range []struct {
			c       diff.ToolChange
			ts, why string
		}{
			{w, wantW, fmt.Sprintf("toolset %q no longer holds the name \"echo\" first, so %q's tool of that name is called", wantN, wantW)},
			{nw, wantN, fmt.Sprintf("toolset %q now holds the name \"echo\" first, so %q's tool of that name is not called", wantW, wantN)},
		} {
			if c.c.Tool != "echo" || c.c.Toolset != c.ts || c.c.At.Key != "[agents.assistant.tools].resident" || c.c.At.Line != 13 {
				t.Errorf("the change %+v, want %s's echo at the resident line 13", c.c, c.ts)
			}
			if c.c.Because != c.why {
				t.Errorf("%s's echo: because %q, want %q", c.ts, c.c.Because, c.why)
			}
		}
	}
	c := side("c.toml", config(`["t000", "t040"]`, `["t000", "t040"]`))
	d := side("d.toml", config(`["t040", "t000"]`, `["t000", "t040"]`))
	// With both resident, the order of available decides whose echo a
	// build keeps: another toolset's code answers the call, at the same
	// gate, and that is reported at the available line.
	r := diff.Compare(c, d)
	if r.WidenedCount != 1 || r.NarrowedCount != 1 || len(r.Residency) != 0 || !strings.HasSuffix(r.Agents[0].Widened[0].At.Key, "].available") ||
		r.Agents[0].Widened[0].Toolset != "t040" || r.Agents[0].Narrowed[0].Toolset != "t000" {
		t.Errorf("reordering available with both toolsets resident gives echo to t040:\n%s", reportText(t, r))
	}
}
