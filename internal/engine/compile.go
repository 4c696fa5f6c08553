package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"

	"github.com/kokua-policy/kokua-policy/kokua"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/prompt"
	"github.com/kokua-policy/kokua-policy/internal/version"
	"github.com/kokua-policy/kokua-policy/policy"
)

// Compile builds the policy of a world (rules.md R189): for every agent
// what it holds, what it can load, and which tools ask whom, and why. The
// world must come from a config that lints without errors; Compile does
// not check it again. cfg and manifest are the files as the policy
// records them (name and digest).
func Compile(w *model.World, cfg, manifest Source) *policy.Document {
	c := compiler{w: w}
	doc := &policy.Document{
		PolicyVersion: policy.Version,
		Compiler:      "kokua-compile " + version.Version,
		Inputs: policy.Inputs{
			Config:   policy.Input{File: cfg.Name, SHA256: sum(cfg.Data)},
			Manifest: policy.Input{File: manifest.Name, SHA256: sum(manifest.Data)},
		},
		EntryAgent: w.Config.EntryAgent.Value,
		TrustOrder: make([]string, 0, len(w.Toolsets)),
		CoreTools:  orEmpty(w.CoreTools),
		AutoApproval: policy.AutoApproval{
			Enabled:        w.Config.Auto.Enabled,
			Reviewers:      orEmpty(w.Config.Auto.Reviewers.Values()),
			TimeoutSeconds: w.Config.Auto.TimeoutSeconds,
			MaxPerTurn:     w.Config.Auto.MaxPerTurn,
		},
		Floor: policy.Floor{Active: w.Config.Auto.Enabled, List: c.list(w.Config.Floor, !w.Config.Auto.Enabled)},
		DefaultTier: policy.Tier{
			Label:   kokua.DefaultTierLabel,
			Source:  kokua.Declared,
			Confirm: c.list(w.Default.Confirm, false),
			Review:  c.list(w.Default.Review, false),
		},
		Composed: policy.Composed{LabelPrefix: kokua.ComposedPrefix, Tier: "default_tier", Possible: w.Composes},
		Toolsets: make(map[string]*policy.Toolset, len(w.Toolsets)),
		Agents:   make(map[string]*policy.Agent, len(w.Agents)),
	}
	if !w.Config.DefaultPair.Set {
		doc.DefaultTier.Source = kokua.Builtin
	}
	for _, t := range w.Toolsets {
		doc.TrustOrder = append(doc.TrustOrder, t.Name)
		doc.Toolsets[t.Name] = c.toolset(t)
	}
	for _, a := range w.Agents {
		doc.Agents[a.Name] = c.agent(a, doc.Toolsets)
	}
	doc.Reviewers = reviewers(w.Config)
	return doc
}

// reviewers are the [reviewers.<name>] tables auto-approval names, as the
// policy records them: what decides how each answers review calls. The
// model and thinking are the ones the reviewer runs with, its own or
// [assistant]'s (R143, R144), with where each comes from; thinking and
// generation are written in one TOML form (tomlpos.Node.Canonical), so
// that the same values read the same whatever form the config gives them.
func reviewers(c *config.Config) map[string]*policy.Reviewer {
	named := c.Auto.Reviewers.Values()
	var out map[string]*policy.Reviewer
	for _, r := range c.Reviews {
		if !slices.Contains(named, r.Name) {
			continue
		}
		if out == nil {
			out = map[string]*policy.Reviewer{}
		}
		model, modelFrom := c.ReviewerModel(r)
		thinking, thinkingFrom := c.ReviewerThinking(r)
		out[r.Name] = &policy.Reviewer{Model: model, ModelSource: modelFrom, SystemMessage: r.SystemMessage.Value,
			Thinking: thinking.Canonical(), ThinkingSource: thinkingFrom, Generation: r.Generation.Canonical(), Position: *position(r.Span)}
	}
	return out
}

func sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// orEmpty keeps a nil list from encoding as null.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type compiler struct {
	w *model.World
}

func (c *compiler) toolset(t *model.Toolset) *policy.Toolset {
	out := &policy.Toolset{Kind: t.Kind, Description: t.Description, Guidance: t.Guidance,
		EntryPointOnly: t.EntryPointOnly, Tools: []policy.Tool{}}
	names := t.Tools
	if !t.Connected {
		// It builds empty and refuses a load, and the toolset stays
		// loadable (R149, R150): its tools are the ones the manifest lists,
		// which a load returns once it connects.
		out.LoadRefusal = "the MCP server is not connected"
		names = nil
		for _, s := range t.Specs {
			if s.Name != kokua.ActivateSkill && !slices.Contains(names, s.Name) {
				names = append(names, s.Name)
			}
		}
	}
	for _, name := range names {
		out.Tools = append(out.Tools, policy.Tool{Name: name, SpecBytes: specBytes(t.Specs, name), Classes: t.ToolClasses(name)})
	}
	return out
}

// coreSpec is a core tool's spec size from the manifest, nil when unknown.
func (c *compiler) coreSpec(tool string) *int { return specBytes(c.w.Manifest.CoreTools, tool) }

// specBytes is a tool's spec size from the manifest, nil when unknown.
func specBytes(specs []*manifest.Tool, tool string) *int {
	for _, s := range specs {
		if s.Name == tool && s.SpecBytes >= 0 {
			n := s.SpecBytes
			return &n
		}
	}
	return nil
}

// list resolves one list of entries. An inactive list (the floor while
// auto-approval is off) is recorded as written, unresolved.
func (c *compiler) list(l config.List, inactive bool) policy.List {
	out := policy.List{Key: l.Path, Builtin: l.Builtin, Entries: []policy.Entry{}, Tools: []string{}}
	seen := map[string]bool{}
	for _, it := range l.Items {
		r := c.w.Resolve(it.Value)
		e := policy.Entry{Text: it.Value, Toolset: r.Entry.Toolset, Tool: r.Entry.Tool,
			Tools: []string{}, ToolsWhenBuilt: []string{}}
		if !l.Builtin {
			e.Position = position(it.Span)
		}
		switch {
		case inactive:
			e.Status = policy.StatusInactive
		case r.Toolset != nil && r.Pending:
			e.Status = policy.StatusPending
			e.ToolsWhenBuilt = orEmpty(r.Tools)
		default:
			e.Status = policy.StatusResolved
			e.Tools = orEmpty(r.Tools)
			for _, t := range r.Tools {
				if !seen[t] {
					seen[t] = true
					out.Tools = append(out.Tools, t)
				}
			}
		}
		out.Entries = append(out.Entries, e)
	}
	return out
}

func position(s diag.Span) *policy.Position {
	return &policy.Position{Line: s.Start.Line, Column: s.Start.Column, EndLine: s.End.Line, EndColumn: s.End.Column}
}

func names(ts []*model.Toolset) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

func (c *compiler) agent(a *model.Agent, toolsets map[string]*policy.Toolset) *policy.Agent {
	out := &policy.Agent{
		GateLabel:        a.Name,
		Entry:            a.Entry,
		Reachable:        a.Reachable,
		DelegatesTo:      orEmpty(a.DelegatesTo.Values()),
		Available:        policy.Available{All: a.All, Expanded: names(a.Avail), Count: len(a.Avail)},
		Resident:         names(a.Resident),
		ResidentDeclared: a.Tools != nil && a.Tools.Resident.State == config.Present,
		Deferred:         names(a.Deferred),
		Skills:           names(a.Skills),
		Shadowed:         []policy.Shadowed{},
		Alerts:           []string{},
	}
	if !a.All {
		out.Available.Declared = []string{}
		if a.Tools != nil {
			out.Available.Declared = a.Tools.Available.Values()
		}
	}
	if len(a.Deferred) > 0 {
		line := prompt.NamesLine(names(a.Deferred))
		out.NamesLine = &line
	}
	out.Tools, out.Shadowed = present(toolsets, out, func(t string) bool { return slices.Contains(out.Resident, t) }, nil, len(out.Deferred) > 0, c.coreSpec)
	out.CoreTools = []string{}
	for _, t := range out.Tools {
		if t.Toolset == kokua.Core {
			out.CoreTools = append(out.CoreTools, t.Name)
		}
	}
	for _, s := range out.Shadowed {
		out.Alerts = append(out.Alerts, a.Name+": "+s.Name+" from '"+s.Toolset+"' is shadowed by '"+s.By+"' (the earlier resident toolset keeps the name).")
	}
	out.ToolBlock = c.toolBlock(out, toolsets)

	p := a.Policy
	out.Approval = policy.Approval{Source: kokua.Inherited, Table: p.Table()}
	if p.Agent != nil {
		confirm, review := c.list(p.Confirm, false), c.list(p.Review, false)
		out.Approval = policy.Approval{Source: kokua.Declared, Table: p.Table(), Confirm: &confirm, Review: &review}
	}
	return out
}

// toolBlock sizes the tool specs sent on every round, as resident and as
// if everything available were resident (R192-R195); nil when the manifest
// does not give every size.
func (c *compiler) toolBlock(a *policy.Agent, toolsets map[string]*policy.Toolset) *policy.ToolBlock {
	resident, ok := total(a.Tools)
	if !ok {
		return nil
	}
	allTools, _ := present(toolsets, a, func(string) bool { return true }, nil, false, c.coreSpec)
	all, ok := total(allTools)
	if !ok || all == 0 {
		return nil
	}
	saved := math.Round((1-float64(resident)/float64(all))*1000) / 10
	return &policy.ToolBlock{ResidentBytes: resident, ResidentTools: len(a.Tools),
		AllResidentBytes: all, AllResidentTools: len(allTools), SavedPercent: saved}
}

func total(tools []policy.Tool) (int, bool) {
	n := 0
	for _, t := range tools {
		// A sum that would overflow is as unknown as a missing size; the
		// size itself is refused by policy.Document.Validate.
		if t.SpecBytes == nil || *t.SpecBytes < 0 || n > math.MaxInt-*t.SpecBytes {
			return 0, false
		}
		n += *t.SpecBytes
	}
	return n, true
}

// present is policy's presentation of an agent's tools (package prompt):
// a compiled agent lists the tools a session of it presents.
var present = prompt.Presentation.(func(toolsets map[string]*policy.Toolset, a *policy.Agent, resident func(string) bool,
	preloaded []string, loaders bool, coreSpec func(string) *int) ([]policy.Tool, []policy.Shadowed))
