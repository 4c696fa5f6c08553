package policy_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
	"github.com/kokua-policy/kokua-policy/policy"
)

// FuzzResealed mutates valid policies the way an attacker who can write
// the file would, and seals each again so that its digest is valid: the
// fuzzer's bytes choose a golden policy and a series of edits of its
// decoded tree (a value set to null, a member removed, a name swapped for
// another name of the document or a missing one, an array emptied or
// grown, a number set to an extreme). Parse must either refuse the result
// with ErrShape or ErrVersion, or give a policy every query of which
// answers without panicking: Decide for every agent and label with every
// tool, sessions with every load, and preloads.
func FuzzResealed(f *testing.F) {
	bases := goldenPolicies(f)
	f.Add([]byte{0})
	f.Add([]byte{1, 0, 10, 3, 0, 20, 5})
	f.Add([]byte{5, 1, 200, 7, 2, 33, 1, 9, 40, 2})
	f.Add([]byte("trust_order resident skills"))
	f.Fuzz(func(t *testing.T, script []byte) {
		if len(script) == 0 {
			return
		}
		base := bases[int(script[0])%len(bases)]
		doc := policytest.Decoded(t, base)
		m := mutator{names: namesOf(doc)}
		m.nodes = m.collect(doc, nil)
		for i := 1; i+2 < len(script) && i < 64; i += 3 {
			m.apply(script[i], script[i+1], script[i+2])
		}
		data := seal(t, doc)
		p, err := policy.Parse("fuzz", data)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("Parse panicked: %v", err)
			}
			if !errors.Is(err, policy.ErrShape) && !errors.Is(err, policy.ErrVersion) {
				t.Fatalf("a resealed policy is refused as neither ErrShape nor ErrVersion: %v", err)
			}
			return
		}
		query(t, p)
	})
}

// goldenPolicies reads every golden policy the compile tests keep.
func goldenPolicies(t testing.TB) [][]byte {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "compile", "*", "want.json"))
	slices.Sort(paths)
	var out [][]byte
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	if len(out) == 0 {
		t.Fatal("no golden policies")
	}
	return out
}

// seal writes a tree with the digest of its content.
func seal(t *testing.T, v any) []byte {
	d, ok := v.(map[string]any)
	if !ok {
		out, _ := json.Marshal(v)
		return out
	}
	delete(d, "digest")
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	digest, err := policy.DigestOf(out)
	if err != nil {
		t.Fatalf("a tree encoding/json wrote has no digest: %v", err)
	}
	d["digest"] = digest
	if out, err = json.Marshal(d); err != nil {
		t.Fatal(err)
	}
	return out
}

// namesOf gathers the names a policy uses (its agents and toolsets), and
// adds names it does not define, for the mutator to swap in.
func namesOf(v any) []string {
	names := []string{"ghost", "core", "all", "", "composed:x", "[assistant.tools]", "a.b", "declared", "inherited", "pending", "resolved", "inactive", "skill", "mcp"}
	if d, ok := v.(map[string]any); ok {
		for _, member := range []string{"agents", "toolsets"} {
			if m, ok := d[member].(map[string]any); ok {
				for name := range m {
					names = append(names, name)
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// node is a place in a decoded tree: a member of an object or an element
// of an array.
type node struct {
	parent any // map[string]any or *[]any
	key    string
	i      int
}

type mutator struct {
	names []string
	nodes []node
}

// collect lists every place in the tree, in a fixed order.
func (m *mutator) collect(v any, out []node) []node {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = append(out, node{parent: x, key: k})
			out = m.collect(x[k], out)
		}
	case []any:
		p := &x
		for i := range x {
			out = append(out, node{parent: p, i: i})
			out = m.collect(x[i], out)
		}
	}
	return out
}

func (n node) get() any {
	if obj, ok := n.parent.(map[string]any); ok {
		return obj[n.key]
	}
	a := *n.parent.(*[]any)
	if n.i < len(a) {
		return a[n.i]
	}
	return nil
}

func (n node) set(v any) {
	if obj, ok := n.parent.(map[string]any); ok {
		if _, still := obj[n.key]; still {
			obj[n.key] = v
		}
		return
	}
	if a := *n.parent.(*[]any); n.i < len(a) {
		a[n.i] = v
	}
}

var extremes = []json.Number{"-1", "0", "1", "2147483648", "9223372036854775807", "-9223372036854775808", "1073741825", "1e3"}

// apply makes one edit: at chooses the place, op the edit and arg its
// value.
func (m *mutator) apply(at, op, arg byte) {
	if len(m.nodes) == 0 {
		return
	}
	n := m.nodes[(int(at)*7919+int(arg))%len(m.nodes)]
	name := m.names[int(arg)%len(m.names)]
	switch op % 9 {
	case 0:
		n.set(nil)
	case 1: // remove a member
		if obj, ok := n.parent.(map[string]any); ok {
			delete(obj, n.key)
		}
	case 2: // a string becomes another name
		if _, ok := n.get().(string); ok {
			n.set(name)
		}
	case 3: // an array gains a name
		if a, ok := n.get().([]any); ok {
			n.set(append(a, name))
		}
	case 4:
		if _, ok := n.get().([]any); ok {
			n.set([]any{})
		}
	case 5:
		if _, ok := n.get().(json.Number); ok {
			n.set(extremes[int(arg)%len(extremes)])
		}
	case 6:
		if b, ok := n.get().(bool); ok {
			n.set(!b)
		}
	case 7: // an object member moves under a name of the document
		if obj, ok := n.parent.(map[string]any); ok && name != n.key {
			if _, taken := obj[name]; !taken {
				obj[name] = obj[n.key]
				delete(obj, n.key)
			}
		}
	case 8: // a value is copied from another place
		other := m.nodes[int(arg)%len(m.nodes)]
		n.set(clone(other.get()))
	}
}

// clone copies a decoded value, so that a copy never makes a cycle.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = clone(e)
		}
		return out
	}
	return v
}

// query asks an accepted policy everything a host can, and checks what
// must hold of every policy: Decide for every agent, the composed label
// and an unknown one, with every tool of every toolset bare and qualified,
// attended and not (an unattended turn denies exactly what an attended one
// gates); a fresh session of every agent answers every call as Decide
// does; once it has loaded every toolset, and after preloading every
// toolset, no call of a name the session does not hold runs or asks. A
// policy with the content of a golden one (the same digest) answers every
// question as the reference evaluator does from the golden case's config.
func query(t *testing.T, p *policy.Policy) {
	t.Helper()
	d := p.Document()
	labels := []string{"composed:x", "[assistant.tools]", "ghost"}
	for name := range d.Agents {
		labels = append(labels, name)
	}
	slices.Sort(labels)
	var tools []string
	for _, ts := range d.TrustOrder {
		for _, tool := range d.Toolsets[ts].Tools {
			tools = append(tools, tool.Name, ts+"."+tool.Name)
		}
	}
	tools = append(tools, "core.load_tools", "load_tools", "ghost.x", "", "no_such_tool")
	for _, label := range labels {
		for _, tool := range tools {
			a := p.Decide(label, tool, policy.Turn{})
			u := p.Decide(label, tool, policy.Turn{Unattended: true})
			want := a.Decision
			if want == policy.Confirm || want == policy.Review {
				want = policy.Denied
			}
			if u.Decision != want {
				t.Fatalf("%s calls %q: %s in an attended turn, %s in an unattended one", label, tool, a.Decision, u.Decision)
			}
		}
	}
	callable := map[policy.Decision]bool{policy.Run: true, policy.Confirm: true, policy.Review: true}
	holds := func(s *policy.Session, tool string) bool {
		name := tool[strings.Index(tool, ".")+1:]
		return slices.ContainsFunc(s.Tools(), func(x policy.Tool) bool { return x.Name == name })
	}
	for name := range d.Agents {
		s, err := p.NewSession(name)
		if err != nil {
			t.Fatalf("a declared agent has no session: %v", err)
		}
		for _, tool := range tools {
			for _, turn := range []policy.Turn{{}, {Unattended: true}} {
				if got, want := s.Decide(tool, turn), p.Decide(name, tool, turn); got != want {
					t.Fatalf("%s calls %q in a fresh session: the session says %+v, Decide %+v", name, tool, got, want)
				}
			}
		}
		for _, ts := range append(slices.Clone(d.TrustOrder), "ghost", "core") {
			_ = s.Load(ts)
		}
		for _, tool := range tools {
			if a := s.Decide(tool, policy.Turn{}); callable[a.Decision] && !holds(s, tool) {
				t.Fatalf("%s, having loaded everything, may call %q (%s), a name it does not hold", name, tool, a.Decision)
			}
		}
		_ = s.NamesLine()
		_ = s.Loadable()
		ps, _, err := p.Preload(name, append(slices.Clone(d.TrustOrder), "ghost"))
		if err != nil {
			t.Fatalf("a declared agent cannot be preloaded: %v", err)
		}
		for _, tool := range tools {
			if a := ps.Decide(tool, policy.Turn{}); callable[a.Decision] && !holds(ps, tool) {
				t.Fatalf("%s, having preloaded everything, may call %q (%s), a name it does not hold", name, tool, a.Decision)
			}
		}
		_ = ps.NamesLine()
	}
	if c, ok := goldenByDigest(t)[d.Digest]; ok {
		golden := c
		golden.p = p
		seen := map[string]int{}
		for _, name := range labels {
			if _, declared := d.Agents[name]; !declared {
				continue
			}
			rs := golden.ref.NewSession(name)
			s, err := p.NewSession(name)
			if err != nil {
				t.Fatal(err)
			}
			if !sessionCompare(t, golden, name, []string{"a fresh session"}, s, rs, seen) {
				return
			}
			for _, ts := range golden.toolsets {
				s.Load(ts)
				rs.Load(ts)
				if !sessionCompare(t, golden, name, []string{"loads of every toolset up to " + ts}, s, rs, seen) {
					return
				}
			}
		}
	}
}

var (
	goldenOnce  sync.Once
	goldenCases map[string]sessionCase
)

// goldenByDigest are the compile golden cases, by the digest of their
// policies.
func goldenByDigest(t testing.TB) map[string]sessionCase {
	goldenOnce.Do(func() {
		goldenCases = map[string]sessionCase{}
		for _, c := range sessionGolden(t) {
			goldenCases[c.p.Document().Digest] = c
		}
	})
	return goldenCases
}
