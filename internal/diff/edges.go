package diff

import (
	"slices"
	"sort"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// delegatesKey is the key path of an agent's delegates_to.
func delegatesKey(agent string) string {
	return config.KeyPath([]string{"agents", agent}, "delegates_to")
}

// delegatesSpan is where an agent writes delegates_to.
func (s *Side) delegatesSpan(agent string) diag.Span {
	if a := s.agent(agent); a != nil && a.DelegatesTo.State == config.Present {
		return a.DelegatesTo.Key
	}
	return diag.Span{}
}

// edgeSet is a graph's edges, for a lookup each: looking each edge of one
// side up in the other's list cost a diff the square of its edges.
func edgeSet(g *reach.Graph) map[reach.Edge]bool {
	set := make(map[reach.Edge]bool, len(g.Edges))
	for _, e := range g.Edges {
		set[e] = true
	}
	return set
}

// compareEdges lists the edges gained, then those lost, each with what it
// carries. A gained edge widens when its target's reach holds a tool at a
// level above what its source could cause on the old side.
func compareEdges(o, n *Side) []EdgeChange {
	out := []EdgeChange{}
	old, now := edgeSet(o.Graph), edgeSet(n.Graph)
	for _, e := range n.Graph.Edges {
		if old[e] {
			continue
		}
		c := EdgeChange{From: e.From, To: e.To, Via: e.Via, Change: "gained", At: edgePlace(n, e),
			Carries: carried(n.Graph, e.To), New: []Reached{}}
		// What the agent could cause before: nothing when it was not
		// live; and an edge from an agent that is not live carries
		// nothing it can cause.
		before := map[reach.Key]reach.Reached{}
		if live(o.Graph, e.From) {
			before = o.Graph.Reach(e.From)
		}
		for _, x := range c.Carries {
			if live(n.Graph, e.From) && x.Answer.Level > before[reach.Key{Toolset: x.Toolset, Tool: x.Tool}].Level {
				c.New = append(c.New, x)
			}
		}
		c.Widened = len(c.New) > 0
		out = append(out, c)
	}
	for _, e := range o.Graph.Edges {
		if now[e] {
			continue
		}
		out = append(out, EdgeChange{From: e.From, To: e.To, Via: e.Via, Change: "lost", At: edgePlace(o, e),
			Carries: carried(o.Graph, e.To), New: []Reached{}})
	}
	return out
}

// edgePlace is the delegates_to item, or the capabilities toolset that
// lets an agent compose.
func edgePlace(s *Side, e reach.Edge) Place {
	if e.Via == kokua.ComposeSubagent {
		return s.availablePlace(e.From, kokua.Capabilities)
	}
	return s.delegatePlace(e.From, e.To)
}

// carried is an agent's reach as a sorted list, without the loaders:
// they come with residency and carry no power of their own.
func carried(g *reach.Graph, agent string) []Reached {
	r := g.Reach(agent)
	out := make([]Reached, 0, len(r))
	for _, k := range reach.SortedKeys(r) {
		if !isLoader(r[k].Answer) {
			out = append(out, Reached{Toolset: k.Toolset, Tool: k.Tool, By: r[k].By, Answer: r[k].Answer})
		}
	}
	return out
}

// unprotectedTools are the tools some live agent can reach on the new
// side that no reviewer could answer on the old side and one could on the
// new; the loaders are not counted (see isLoader).
func unprotectedTools(o, n *reach.Graph) []string {
	seen := map[reach.Key]bool{}
	for _, a := range n.Agents {
		for k, ans := range answers(n, a.Name) {
			if !isLoader(ans) && o.Protected(k) && !n.Protected(k) {
				seen[k] = true
			}
		}
	}
	return keyNames(seen)
}

// compareFloor lists the floor entries dropped and added, by their text.
func compareFloor(o, n *Side) *FloorChange {
	od, nd := o.Policy.Document(), n.Policy.Document()
	texts := func(d *policy.Document) []string {
		var out []string
		for _, e := range d.Floor.List.Entries {
			out = append(out, e.Text)
		}
		return out
	}
	ot, nt := texts(od), texts(nd)
	c := &FloorChange{OldActive: od.Floor.Active, NewActive: nd.Floor.Active, Dropped: []Item{}, Added: []Item{}, Unprotected: []string{}}
	for i, e := range od.Floor.List.Entries {
		if !slices.Contains(nt, ot[i]) {
			c.Dropped = append(c.Dropped, Item{Name: e.Text, At: o.entryPlace(od.Floor.List.Key, e.Position)})
		}
	}
	for i, e := range nd.Floor.List.Entries {
		if !slices.Contains(ot, nt[i]) {
			c.Added = append(c.Added, Item{Name: e.Text, At: n.entryPlace(nd.Floor.List.Key, e.Position)})
		}
	}
	if len(c.Dropped)+len(c.Added) == 0 && !(od.AutoApproval.Enabled && nd.AutoApproval.Enabled && len(unprotectedTools(o.Graph, n.Graph)) > 0) {
		return nil
	}
	return c
}

// keyNames are a set of tools as people read them, toolset.tool, in
// order: by toolset, then tool.
func keyNames(set map[reach.Key]bool) []string {
	keys := reach.SortedKeys(set)
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].Toolset < keys[j].Toolset })
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}
