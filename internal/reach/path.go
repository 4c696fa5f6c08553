package reach

// Paths is Closure with the way to each agent: for the agent and every
// agent it can make run, the names from it to that agent along the edges
// first met (breadth first, so a shortest one), the agent itself first.
// The agents come in Closure's order.
func (g *Graph) Paths(name string) (order []string, paths map[string][]string) {
	if g.byName[name] == nil {
		return nil, nil
	}
	out := map[string][]string{}
	for _, e := range g.Edges {
		out[e.From] = append(out[e.From], e.To)
	}
	order = []string{name}
	paths = map[string][]string{name: {name}}
	for i := 0; i < len(order); i++ {
		from := order[i]
		for _, to := range out[from] {
			if g.byName[to] == nil {
				continue
			}
			if _, seen := paths[to]; seen {
				continue
			}
			p := make([]string, len(paths[from]), len(paths[from])+1)
			copy(p, paths[from])
			paths[to] = append(p, to)
			order = append(order, to)
		}
	}
	return order, paths
}
