package policy

// SlowDecide answers as Decide does, but by the path a session takes
// (decide, with nothing loaded) instead of the precomputed answers, for a
// label Decide knows; ok is false for one it does not.
func (p *Policy) SlowDecide(label, tool string, turn Turn) (a Answer, ok bool) {
	v := p.view(label)
	if v == nil {
		return Answer{}, false
	}
	a, r := p.decide(v, label, tool, turn, nil)
	a.Reason = r
	return a, true
}

// Qualifying lists the toolsets whose qualified names the index answers
// for a label, as it visits them.
func (p *Policy) Qualifying(label string) []string {
	if v := p.view(label); v != nil {
		return p.qualifying(v)
	}
	return nil
}
