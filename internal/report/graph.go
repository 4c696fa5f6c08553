package report

import (
	"slices"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// Drawing sizes, in SVG user units.
const (
	nodeHeight = 44
	rowGap     = 16
	layerGap   = 90
	margin     = 12
	charWidth  = 7.2
	minWidth   = 120
	maxChars   = 40
)

// Node is an agent placed in the drawing.
type Node struct {
	Agent         *reach.Agent
	X, Y, W, H    float64
	TextX, TextY  float64
	Label, Detail string
	// Lines are the node's summary (reach's Lines), for its tooltip.
	Lines []string
}

// Link is an edge placed in the drawing, as a cubic curve.
type Link struct {
	Edge  reach.Edge
	Path  string
	Label string
}

// Drawing is the reach graph laid out in layers: the layer of an agent is
// the length of the longest delegation path to it from an agent nothing
// delegates to, so every edge points to a later layer (delegation is
// acyclic; an agent on a cycle, which the linter reports, is placed after
// the agents it can be placed after). Layers are columns, left to right;
// in a layer, agents are ordered by the mean place of the agents that
// delegate to them, then by name.
type Drawing struct {
	Width, Height float64
	Nodes         []Node
	Links         []Link
}

// Draw lays out a graph.
func Draw(g *reach.Graph) *Drawing {
	n := len(g.Agents)
	index := make(map[string]int, n)
	for i, a := range g.Agents {
		index[a.Name] = i
	}
	in := make([][]int, n)
	out := make([][]int, n)
	var edges []reach.Edge
	for _, e := range g.Edges {
		f, okf := index[e.From]
		t, okt := index[e.To]
		if !okf || !okt || f == t {
			continue
		}
		in[t] = append(in[t], f)
		out[f] = append(out[f], t)
		edges = append(edges, e)
	}
	// Longest path by Kahn's order; what a cycle leaves is placed after
	// the layers of its placed predecessors.
	layer := make([]int, n)
	deg := make([]int, n)
	for i := range in {
		deg[i] = len(in[i])
	}
	var queue []int
	for i := range n {
		if deg[i] == 0 {
			queue = append(queue, i)
		}
	}
	done := make([]bool, n)
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		done[i] = true
		for _, t := range out[i] {
			layer[t] = max(layer[t], layer[i]+1)
			if deg[t]--; deg[t] == 0 {
				queue = append(queue, t)
			}
		}
	}
	for i := range n {
		if !done[i] {
			for _, f := range in[i] {
				if done[f] {
					layer[i] = max(layer[i], layer[f]+1)
				}
			}
		}
	}
	depth := 0
	for _, l := range layer {
		depth = max(depth, l+1)
	}
	layers := make([][]int, depth)
	for i := range n {
		layers[layer[i]] = append(layers[layer[i]], i)
	}
	// Order each layer by the mean place of its predecessors (names are
	// in order already, so ties keep name order).
	place := make([]float64, n)
	for _, l := range layers {
		mean := make(map[int]float64, len(l))
		for _, i := range l {
			sum, k := 0.0, 0
			for _, f := range in[i] {
				if layer[f] < layer[i] {
					sum += place[f]
					k++
				}
			}
			if k > 0 {
				mean[i] = sum / float64(k)
			} else {
				mean[i] = -1
			}
		}
		slices.SortStableFunc(l, func(a, b int) int {
			switch {
			case mean[a] < mean[b]:
				return -1
			case mean[a] > mean[b]:
				return 1
			}
			return 0
		})
		for k, i := range l {
			place[i] = float64(k)
		}
	}
	d := &Drawing{Nodes: make([]Node, n)}
	x := float64(margin)
	tallest := 0
	for _, l := range layers {
		w := float64(minWidth)
		for _, i := range l {
			a := g.Agents[i]
			label := clip(a.Title())
			lines := a.Lines()
			d.Nodes[i] = Node{Agent: a, Label: label, Lines: lines, Detail: clip(lines[0])}
			w = max(w, float64(utf8.RuneCountInString(label))*charWidth+16, float64(utf8.RuneCountInString(d.Nodes[i].Detail))*charWidth*0.9+16)
		}
		for k, i := range l {
			nd := &d.Nodes[i]
			nd.X, nd.Y, nd.W, nd.H = x, float64(margin+k*(nodeHeight+rowGap)), w, nodeHeight
			nd.TextX, nd.TextY = x+8, nd.Y+18
		}
		tallest = max(tallest, len(l))
		x += w + layerGap
	}
	d.Width = x - layerGap + margin
	d.Height = float64(2*margin + tallest*(nodeHeight+rowGap) - rowGap)
	if n == 0 {
		d.Width, d.Height = 2*margin, 2*margin
	}
	for _, e := range edges {
		f, t := &d.Nodes[index[e.From]], &d.Nodes[index[e.To]]
		x1, y1 := f.X+f.W, f.Y+f.H/2
		x2, y2 := t.X, t.Y+t.H/2
		if t.X <= f.X { // a back edge of a cycle: leave from the left
			x1 = f.X
			x2 = t.X + t.W
		}
		mid := (x1 + x2) / 2
		d.Links = append(d.Links, Link{Edge: e, Label: g.EdgeLabel(e),
			Path: "M" + num(x1) + " " + num(y1) + " C" + num(mid) + " " + num(y1) + " " + num(mid) + " " + num(y2) + " " + num(x2) + " " + num(y2)})
	}
	return d
}

// clip shortens a label for its box (the full text is in the tooltip);
// control and bidirectional characters show as escapes.
func clip(s string) string {
	s = printable.String(s)
	if utf8.RuneCountInString(s) <= maxChars {
		return s
	}
	r := []rune(s)
	return string(r[:maxChars-1]) + "…"
}
