package model

import (
	"fmt"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// Build derives the world of a config and a manifest. It never fails: what
// cannot be derived (an unreadable availability, an unknown name) is left
// out, and the rules report why.
func Build(cfg *config.Config, m *manifest.Manifest) *World {
	w := &World{Config: cfg, Manifest: m, agents: make(map[string]*Agent, len(cfg.Agents)),
		Built: map[string]bool{}}
	w.register()
	w.agentsFromConfig()
	w.reach()
	// Compose exists only for an agent that declares capabilities and that
	// startup builds: one nothing delegates to never runs, so it never
	// calls compose_subagent (R43, R77, A3).
	w.Composes = len(w.Builders(kokua.Capabilities)) > 0
	w.core()
	return w
}

// homesOf lists the toolsets whose builds return a tool of that name, in
// trust order, and core for a core tool. Only an entry that names no tool
// asks (a mistake's help), so the table is made on the first question.
func (w *World) homesOf(tool string) []string {
	w.homesOnce.Do(w.homes)
	return w.toolHome[tool]
}

// homes makes homesOf's table. Most names have one home: their lists are
// cut from one array, each capped so that a second home is appended to a
// copy.
func (w *World) homes() {
	n := len(w.CoreTools)
	for _, t := range w.Toolsets {
		n += len(t.Tools)
	}
	w.toolHome = make(map[string][]string, n)
	one := make([]string, 0, n)
	add := func(tool, home string, again bool) {
		homes := w.toolHome[tool]
		switch {
		case len(homes) == 0:
			one = append(one, home)
			w.toolHome[tool] = one[len(one)-1 : len(one) : len(one)]
		case again || homes[len(homes)-1] != home:
			w.toolHome[tool] = append(homes, home)
		}
	}
	// A build that returns a name twice gives it one home.
	for _, t := range w.Toolsets {
		for _, tool := range t.Tools {
			add(tool, t.Name, false)
		}
	}
	for _, c := range w.CoreTools {
		add(c, kokua.Core, true)
	}
}

func (w *World) register() {
	// Every toolset a provider offers, the manifest's and the config's MCP
	// servers', made in one array that never grows, so pointers into it
	// hold.
	all := make([]Toolset, 0, len(w.Manifest.Toolsets)+len(w.Config.MCPServers))
	var described map[string]*manifest.Toolset
	for _, mt := range w.Manifest.Toolsets {
		if mt.Kind != kokua.KindMCP {
			all = append(all, fromManifest(mt))
			continue
		}
		if described == nil {
			described = map[string]*manifest.Toolset{}
		}
		if described[mt.Name] == nil {
			described[mt.Name] = mt
		}
	}
	named := make(map[string]bool, len(w.Config.MCPServers))
	for _, s := range w.Config.MCPServers {
		all = append(all, Toolset{Name: s.Name.Value, Kind: kokua.KindMCP, Provider: kokua.ProviderLabel(kokua.KindMCP),
			Description: s.Description.Value, Span: s.Name.Span})
		t := &all[len(all)-1]
		if s.Description.State != config.Present {
			t.Description = fmt.Sprintf("Tools from the MCP server at %s.", s.URL.Value)
		}
		if mt := described[t.Name]; mt != nil {
			t.Connected = mt.Connected
			t.Guidance = mt.Guidance
			t.Specs = mt.Tools
			t.Classes, t.ClassesSet = mt.Classes, mt.ClassesSet
			if t.Connected {
				t.Tools, t.builds = mt.Names(), mt
			}
		} else {
			w.UndescribedMCP = append(w.UndescribedMCP, t)
		}
		named[t.Name] = true
	}
	for _, mt := range w.Manifest.Toolsets {
		if mt.Kind == kokua.KindMCP && !named[mt.Name] {
			w.StaleMCP = append(w.StaleMCP, mt)
		}
	}

	// Registration order (R24) decides which of two same-named toolsets is
	// registered; trust order (R51) is the registry's own order. Within a
	// kind, toolsets keep the order the manifest, then the config, gives.
	w.Candidates = make([]Candidate, 0, len(all))
	w.toolsets = make(map[string]*Toolset, len(all))
	for _, kind := range kokua.RegistrationOrder() {
		for i := range all {
			t := &all[i]
			if t.Kind != kind {
				continue
			}
			w.Candidates = append(w.Candidates, Candidate{Name: t.Name, Kind: t.Kind, ProviderLabel: t.Provider,
				Description: t.Description, Span: t.Span})
			if _, reserved := kokua.Reserved(t.Name); reserved || w.toolsets[t.Name] != nil {
				continue
			}
			w.toolsets[t.Name] = t
		}
	}
	w.Toolsets = make([]*Toolset, 0, len(w.toolsets))
	for _, kind := range kokua.TrustOrder() {
		for i := range all {
			if t := &all[i]; t.Kind == kind && w.toolsets[t.Name] == t {
				t.Trust = len(w.Toolsets)
				w.Toolsets = append(w.Toolsets, t)
			}
		}
	}
}

func fromManifest(mt *manifest.Toolset) Toolset {
	return Toolset{Name: mt.Name, Kind: mt.Kind, Provider: mt.Provider, Description: mt.Description,
		Guidance: mt.Guidance, EntryPointOnly: mt.EntryPointOnly, Connected: true,
		Tools: mt.Names(), Specs: mt.Tools, Classes: mt.Classes, ClassesSet: mt.ClassesSet,
		Workflow: mt.Workflow, Settings: mt.Settings, Span: mt.Span, builds: mt}
}

func (w *World) agentsFromConfig() {
	cfg := w.Config
	w.Default = &Policy{Label: kokua.DefaultTierLabel, Confirm: cfg.DefaultPair.Confirm, Review: cfg.DefaultPair.Review}
	for _, ca := range cfg.Agents {
		a := &Agent{Agent: ca, Entry: ca.Name == cfg.EntryAgent.Value}
		w.Agents = append(w.Agents, a)
		w.agents[a.Name] = a
		if a.Entry {
			w.EntryAgent = a
		}
		w.availability(a)
		if a.DeclaresPair() {
			a.Policy = &Policy{Label: a.Name, Agent: a, Confirm: a.Tools.Confirm, Review: a.Tools.Review}
		} else {
			a.Policy = w.Default
		}
	}
	for _, a := range w.Agents {
		for _, d := range a.DelegatesTo.Items {
			if t := w.agents[d.Value]; t != nil {
				a.Delegates = append(a.Delegates, t)
			}
		}
	}
}

// availability fills Avail, Resident, Deferred and Skills (R42, R51-R58).
func (w *World) availability(a *Agent) {
	a.Known = !a.OldTools
	if a.Tools == nil {
		return
	}
	av := a.Tools.Available
	if !av.Usable {
		a.Known = false
		return
	}
	n := len(av.Items)
	if av.All {
		n = len(w.Toolsets)
	}
	a.avail, a.Avail = make(map[string]bool, n), make([]*Toolset, 0, n)
	add := func(t *Toolset) {
		if t != nil && !a.avail[t.Name] {
			a.avail[t.Name] = true
			a.Avail = append(a.Avail, t)
		}
	}
	if av.All {
		a.All = true
		for _, t := range w.Toolsets {
			if !t.EntryPointOnly || a.Entry {
				add(t)
			}
		}
	} else {
		for _, it := range av.Items {
			if t := w.toolsets[it.Value]; t != nil && (!t.EntryPointOnly || a.Entry) {
				add(t)
			}
		}
	}
	if len(a.Avail) == 0 {
		a.Avail = nil
	}

	// The entry agent holds skills through SkillAgent: every skill when it
	// declares the skills toolset, otherwise the ones it names (R42, A18).
	viaSkillAgent := func(t *Toolset) bool { return a.Entry && t.Kind == kokua.KindSkill }
	if a.Entry {
		every := a.avail["skills"]
		for _, t := range w.Toolsets {
			if t.Kind == kokua.KindSkill && (every || a.avail[t.Name]) {
				a.Skills = append(a.Skills, t)
				a.avail[t.Name] = true
			}
		}
	}

	resident := map[string]bool{}
	declared := a.Tools.Resident.State == config.Present
	for _, it := range a.Tools.Resident.Items {
		resident[it.Value] = true
	}
	// Both lists are cut from one array: Resident from its start, Deferred
	// after it.
	split := make([]*Toolset, 0, len(a.Avail))
	for _, t := range a.Avail {
		if !viaSkillAgent(t) && (!declared || resident[t.Name]) {
			split = append(split, t)
		}
	}
	if len(split) > 0 {
		a.Resident = split[:len(split):len(split)]
	}
	split = split[len(split):]
	for _, t := range a.Avail {
		if !viaSkillAgent(t) && declared && !resident[t.Name] {
			split = append(split, t)
		}
	}
	if len(split) > 0 {
		a.Deferred = split
	}
}

// reach marks the entry agent and every worker reachable from it, and
// collects B, the toolsets startup builds (R77, R173).
func (w *World) reach() {
	if w.EntryAgent == nil {
		return
	}
	stack := []*Agent{w.EntryAgent}
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if a.Reachable {
			continue
		}
		a.Reachable = true
		for _, t := range a.Resident {
			w.Built[t.Name] = true
		}
		for _, t := range a.Skills {
			w.Built[t.Name] = true
		}
		stack = append(stack, a.Delegates...)
	}
}

// core decides which core tools exist (R36).
func (w *World) core() {
	exists := map[string]bool{}
	for _, a := range w.Agents {
		if len(a.DelegatesTo.Items) > 0 {
			exists[kokua.SpawnSubagent] = true
		}
		if len(a.Deferred) > 0 {
			exists[kokua.AvailableTools] = true
			exists[kokua.LoadTools] = true
		}
	}
	for _, t := range w.Toolsets {
		if t.Kind == kokua.KindSkill {
			exists[kokua.ActivateSkill] = true
		}
	}
	for _, c := range kokua.CoreTools() {
		if exists[c] {
			w.CoreTools = append(w.CoreTools, c)
		}
	}
}
