package diff

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"slices"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Side is one side of a comparison: a compiled policy, read from a policy
// file or compiled on the fly from a config.
type Side struct {
	// Name is the file as the user named it; the report's first line names
	// it. Its places name the config each line and column is in: this
	// file, or the config a policy file records.
	Name   string
	Policy *policy.Policy
	Graph  *reach.Graph
	// Config is the config the policy was compiled from, nil for a policy
	// file. With it, a change points at the line of the very item that
	// caused it; a policy records the positions of approval entries only.
	Config *config.Config
	// ManifestNote, when set, says how the side's manifest was chosen
	// otherwise than asked (a manifest not tracked at the base revision);
	// the report's headline repeats it.
	ManifestNote string
	// edges are the graph's first edge from one agent to another, made at
	// the first question (edge).
	edges map[[2]string]reach.Edge
}

// edge is the graph's first edge from one agent to another: one lookup,
// where a path's returned result once looked through every edge.
func (s *Side) edge(from, to string) (reach.Edge, bool) {
	if s.edges == nil {
		s.edges = make(map[[2]string]reach.Edge, len(s.Graph.Edges))
		for _, e := range s.Graph.Edges {
			if _, ok := s.edges[[2]string{e.From, e.To}]; !ok {
				s.edges[[2]string{e.From, e.To}] = e
			}
		}
	}
	e, ok := s.edges[[2]string{from, to}]
	return e, ok
}

// IsPolicy reports whether the bytes are a compiled policy (a JSON object)
// rather than a config.toml, which can never start with '{'.
func IsPolicy(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n\ufeff"), []byte("{"))
}

// Load reads one side: a compiled policy is verified with policy.Parse,
// or, given a key, with policy.ParseVerified, which refuses it unless key
// signed it; a config is linted against the manifest and compiled, exactly
// as kokua-compile would, and the key does not apply to it. The lint's
// result comes back for a config, nil for a policy; a config with an error
// is not compiled (the side is nil, the error nil: the diagnostics say
// why).
func Load(src lint.Source, m *lint.Manifest, key ed25519.PublicKey) (*Side, *engine.Linted, error) {
	if IsPolicy(src.Data) {
		p, err := ParsePolicy(src, key)
		if err != nil {
			return nil, nil, err
		}
		return &Side{Name: src.Name, Policy: p, Graph: reach.New(p)}, nil, nil
	}
	res := engine.Run(src, m)
	if res.HasErrors() || res.World == nil {
		return nil, res, nil
	}
	doc := engine.Compile(res.World, src, m.Source)
	// What kokua-compile refuses to write (compile.Write), diff refuses to
	// grade, with the same reason: a policy no runtime would load.
	if err := doc.Validate(); err != nil {
		return nil, res, fmt.Errorf("compiling %s: no runtime would load its policy: %w", src.Name, err)
	}
	data, err := policy.Marshal(doc)
	if err != nil {
		return nil, res, fmt.Errorf("compiling %s: %w", src.Name, err)
	}
	p, err := policy.Parse(src.Name, data)
	if err != nil {
		return nil, res, fmt.Errorf("compiling %s: %w", src.Name, err)
	}
	return &Side{Name: src.Name, Policy: p, Graph: reach.New(p), Config: res.Config}, res, nil
}

// ParsePolicy verifies a compiled policy, and its signature when key is
// not nil (policy.ParseVerified).
func ParsePolicy(src lint.Source, key ed25519.PublicKey) (*policy.Policy, error) {
	if key != nil {
		return policy.ParseVerified(src.Name, src.Data, key)
	}
	return policy.Parse(src.Name, src.Data)
}

// toolsKey is the key path of a key of an agent's tools table.
func toolsKey(agent, key string) string {
	return config.KeyPath([]string{"agents", agent, "tools"}, key)
}

// configFile is the name of the config this side's places are in: the
// config as the user named it, or for a compiled policy the config it was
// compiled from, as the policy records it (inputs.config.file, a base
// name), since every line and column a policy records is one of that
// config. A policy that records no name is named by its own file.
func (s *Side) configFile() string {
	if f := s.Policy.Document().Inputs.Config.File; s.Config == nil && f != "" {
		return f
	}
	return s.Name
}

// manifestFile is the name of the manifest this side was compiled
// against, as the policy records it.
func (s *Side) manifestFile() string {
	if f := s.Policy.Document().Inputs.Manifest.File; f != "" {
		return f
	}
	return s.Name
}

// place is a place in this side's config: the span when it is known, and
// the key path always.
func (s *Side) place(key string, span diag.Span) Place {
	p := Place{File: s.configFile(), Key: key}
	if !span.IsZero() {
		p.Line, p.Column = span.Start.Line, span.Start.Column
	}
	return p
}

// entryPlace is where the policy says an approval entry is written.
func (s *Side) entryPlace(key string, pos *policy.Position) Place {
	p := Place{File: s.configFile(), Key: key}
	if pos != nil {
		p.Line, p.Column = pos.Line, pos.Column
	}
	return p
}

func (s *Side) agent(name string) *config.Agent {
	if s.Config == nil {
		return nil
	}
	return s.Config.Agent(name)
}

// item finds a string in a list, or the list itself.
func item(l config.List, value string) diag.Span {
	for _, it := range l.Items {
		if it.Value == value {
			return it.Span
		}
	}
	if !l.Key.IsZero() {
		return l.Key
	}
	return l.Span
}

// availablePlace is where an agent's availability names a toolset: the
// item, or the value "all".
func (s *Side) availablePlace(agent, toolset string) Place {
	key := toolsKey(agent, "available")
	a := s.agent(agent)
	switch {
	case a == nil || a.Tools == nil:
		if a != nil {
			return s.place(key, a.Span)
		}
		return s.place(key, diag.Span{})
	case a.Tools.Available.All:
		return s.place(key, a.Tools.Available.Str.Span)
	}
	return s.place(key, item(a.Tools.Available.List, toolset))
}

// declaresResident reports whether the side's agent writes a resident
// key; without one, every available toolset is resident.
func (s *Side) declaresResident(agent string) bool {
	if s.Config != nil {
		a := s.agent(agent)
		return a != nil && a.Tools != nil && a.Tools.Resident.State == config.Present
	}
	a := s.Policy.Document().Agents[agent]
	return a != nil && a.ResidentDeclared
}

// residentKeyPlace is the line of an agent's resident key.
func (s *Side) residentKeyPlace(agent string) Place {
	key := toolsKey(agent, "resident")
	if a := s.agent(agent); a != nil && a.Tools != nil && a.Tools.Resident.State == config.Present {
		if !a.Tools.Resident.Key.IsZero() {
			return s.place(key, a.Tools.Resident.Key)
		}
		return s.place(key, a.Tools.Resident.Span)
	}
	return s.place(key, diag.Span{})
}

// residencyPlace is where a toolset's move into resident (on the new side)
// or out of it (on the old side) is written, s being that side and other
// the side it is compared with: the resident item naming it; when s writes
// no resident key (so every available toolset is resident), the other
// side's resident line, whose writing or removing made the change; when
// neither writes one, the available item, since the toolset came or went
// with availability.
func (s *Side) residencyPlace(other *Side, agent, toolset string) Place {
	switch {
	case s.declaresResident(agent):
		a := s.agent(agent)
		if a == nil {
			return s.place(toolsKey(agent, "resident"), diag.Span{})
		}
		return s.place(toolsKey(agent, "resident"), item(a.Tools.Resident, toolset))
	case other.declaresResident(agent):
		return other.residentKeyPlace(agent)
	}
	return s.availablePlace(agent, toolset)
}

// delegatePlace is where an agent's delegates_to names a worker.
func (s *Side) delegatePlace(from, to string) Place {
	key := config.KeyPath([]string{"agents", from}, "delegates_to")
	if a := s.agent(from); a != nil {
		return s.place(key, item(a.DelegatesTo, to))
	}
	return s.place(key, diag.Span{})
}

// agentPlace is where an agent's table starts.
func (s *Side) agentPlace(name string) Place {
	key := config.TablePath([]string{"agents", name})
	if a := s.agent(name); a != nil {
		return s.place(key, a.Span)
	}
	return s.place(key, diag.Span{})
}

// autoPlace is [security.auto_approval].enabled.
func (s *Side) autoPlace() Place {
	key := "[security.auto_approval].enabled"
	if s.Config != nil {
		return s.place(key, s.Config.Auto.EnabledAt)
	}
	return s.place(key, diag.Span{})
}

// entryAgentPlace is [assistant].agent.
func (s *Side) entryAgentPlace() Place {
	key := "[assistant].agent"
	if s.Config != nil {
		return s.place(key, s.Config.EntryAgent.Span)
	}
	return s.place(key, diag.Span{})
}

// floorPlace is where the floor entry holding a tool is written, or the
// floor's key.
func (s *Side) floorPlace(tool string) Place {
	d := s.Policy.Document()
	for _, e := range d.Floor.List.Entries {
		if slices.Contains(reach.FloorEntryTools(d, e), tool) {
			return s.entryPlace(d.Floor.List.Key, e.Position)
		}
	}
	return Place{File: s.configFile(), Key: d.Floor.List.Key}
}

// listPlace is where an approval list is written, by its key path: the
// key's line for a config side, the key alone otherwise (or for a list
// the file does not write).
func (s *Side) listPlace(key string) Place {
	if s.Config == nil {
		return s.place(key, diag.Span{})
	}
	lists := []config.List{s.Config.DefaultPair.Confirm, s.Config.DefaultPair.Review, s.Config.Floor}
	for _, a := range s.Config.Agents {
		if a.Tools != nil {
			lists = append(lists, a.Tools.Confirm, a.Tools.Review)
		}
	}
	for _, l := range lists {
		if l.Path == key && l.State == config.Present {
			if !l.Key.IsZero() {
				return s.place(key, l.Key)
			}
			return s.place(key, l.Span)
		}
	}
	return s.place(key, diag.Span{})
}

// pairPlace is where an agent's declared pair is written: its confirm key,
// or its review key when it writes only that.
func (s *Side) pairPlace(agent string) Place {
	confirm := s.listPlace(toolsKey(agent, "confirm"))
	if confirm.Line == 0 {
		if review := s.listPlace(toolsKey(agent, "review")); review.Line > 0 {
			return review
		}
	}
	return confirm
}

// autoKeyPlace is a key of [security.auto_approval].
func (s *Side) autoKeyPlace(key string) Place {
	path := "[security.auto_approval]." + key
	if s.Config != nil {
		if n := s.Config.Root.Get("security").Get("auto_approval").Get(key); n != nil {
			return s.place(path, n.Key())
		}
	}
	return s.place(path, diag.Span{})
}

// reviewerPlace is a key of [reviewers.<name>], or the table's name when
// the key is not written; a policy side records the table's position.
func (s *Side) reviewerPlace(name, key string) Place {
	path := config.KeyPath([]string{"reviewers", name}, key)
	if s.Config != nil {
		t := s.Config.Root.Get("reviewers").Get(name)
		if n := t.Get(key); n != nil {
			return s.place(path, n.Key())
		}
		if t != nil {
			return s.place(path, t.Key())
		}
		return s.place(path, diag.Span{})
	}
	if r := s.Policy.Document().Reviewers[name]; r != nil {
		return Place{File: s.configFile(), Line: r.Position.Line, Column: r.Position.Column, Key: path}
	}
	return s.place(path, diag.Span{})
}

// assistantPlace is a key of [assistant], whose model and thinking a
// reviewer that sets none runs with; the key alone on a policy side,
// which records no position for it.
func (s *Side) assistantPlace(key string) Place {
	path := "[assistant]." + key
	if s.Config != nil {
		if n := s.Config.Root.Get("assistant").Get(key); n != nil {
			return s.place(path, n.Key())
		}
	}
	return s.place(path, diag.Span{})
}

// agentToolsSpan is where an agent's tools table is written.
func (s *Side) agentToolsSpan(agent string) diag.Span {
	if a := s.agent(agent); a != nil && a.Tools != nil {
		return a.Tools.Span
	}
	return diag.Span{}
}
