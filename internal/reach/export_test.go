package reach

// RiskSearches is how many views of g the risk search searches, of all
// of them: the others pass work on, or read no untrusted content.
func RiskSearches(g *Graph) (searched, views int) {
	x := newRiskIndex(g, true)
	x.done = make([]*viewResult, len(g.Agents))
	for i := range g.Agents {
		x.result(i)
	}
	return x.searches, len(g.Agents)
}
