// Package reference is a deliberately plain evaluator of Kokua's tool
// access, written straight from rules.md for the differential tests of the
// compiler and the runtime; only tests import it. It reads config.toml and
// the manifest itself and answers what one agent may do with one tool at
// the start of an attended turn in which nothing has been loaded yet. It
// shares no code with the linter or the compiler (no config, model, entry,
// rules or lint package): every fact is recomputed here with loops over
// slices, clarity over speed.
package reference

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// The answers of the reference evaluator.
const (
	Unavailable = "unavailable" // no toolset or core tool the agent has provides it
	Loadable    = "loadable"    // only a deferred toolset provides it
	Run         = "run"         // held at turn start, gated by nothing
	Confirm     = "confirm"     // held, and the call asks the user
	Review      = "review"      // held, and the call goes to the reviewer, then the user
)

// The four core tools (R36).
var refCoreTools = []string{"spawn_subagent", "activate_skill", "available_tools", "load_tools"}

// The built-in default pair, used when [assistant.tools] is absent (R9).
var (
	refBuiltinConfirm = []string{"skills.add_skill_script", "mcp.add_mcp_server", "config.update_config"}
	refBuiltinReview  = []string{"compute.run_command", "compute.execute_python", "fs_write"}
)

// refToolset is one registered toolset.
type refToolset struct {
	Name           string
	Kind           string // kokua, plugin, skill or mcp
	EntryPointOnly bool
	Tools          []string // what one build returns, without activate_skill (R41, R174)
	// Disconnected marks an MCP server the manifest marks not connected:
	// resident, it builds empty; deferred, "A deferred MCP server that is
	// not connected refuses to load, rather than loading empty", and "the
	// toolset stays loadable" (tool-access.md, "What a load costs"), so
	// Tools are what its load gives once it connects (R149, R150).
	Disconnected bool
}

// refAgent is one [agents.<name>] table, as written.
type refAgent struct {
	Name         string
	DelegatesTo  []string
	AvailableAll bool     // available = "all"
	Available    []string // the list, as written (when not "all")
	ResidentSet  bool     // the resident key is written
	Resident     []string
	PairDeclared bool // the tools table writes confirm or review (R11)
	Confirm      []string
	Review       []string
}

// Evaluator is a config read against a manifest.
type Evaluator struct {
	Entry    string
	Registry []*refToolset // in trust order (R51)
	Agents   []*refAgent   // in name order
	// DefaultConfirm and DefaultReview are [assistant.tools]'s pair, or the
	// built-in pair when that table is absent (R9).
	DefaultConfirm []string
	DefaultReview  []string
	// AutoApproval is [security.auto_approval].enabled; Floor is
	// [security].never_auto_approve, or its default (R86).
	AutoApproval bool
	Floor        []string

	// loadedViews are the gates of an agent that has loaded one toolset,
	// by agent and toolset, once worked out (AnswerLoaded).
	loadedViews map[[2]string]*refView

	views map[string]*refView // each agent's view, once worked out
}

// refManifestFile is the manifest's JSON, only the fields the rules need.
type refManifestFile struct {
	Toolsets []struct {
		Name           string `json:"name"`
		Kind           string `json:"kind"`
		EntryPointOnly bool   `json:"entry_point_only"`
		Connected      *bool  `json:"connected"`
		Tools          []struct {
			Name string `json:"name"`
		} `json:"tools"`
	} `json:"toolsets"`
}

// ErrNumberRange is returned for a config holding an integer or float
// beyond 64 bits. It is valid TOML 1.0, which Kokua reads, but go-toml,
// the reference's plain TOML reader, does not; no tool-access key takes
// such a value, so no comparison is lost by leaving these configs out.
var ErrNumberRange = errors.New("a number beyond 64 bits, which the reference's TOML reader does not read")

// New reads a config and a manifest. The config must be one that
// lints without errors: the reference checks nothing.
func New(configData, manifestData []byte) (*Evaluator, error) {
	var doc map[string]any
	if err := toml.Unmarshal(configData, &doc); err != nil {
		if msg := err.Error(); strings.Contains(msg, "64-bit") || strings.Contains(msg, "out of range") {
			return nil, fmt.Errorf("config: %w: %w", ErrNumberRange, err)
		}
		return nil, fmt.Errorf("config: %w", err)
	}
	var man refManifestFile
	if err := json.Unmarshal(manifestData, &man); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	r := &Evaluator{Entry: "assistant"}

	assistant := refTable(doc["assistant"])
	if name, ok := assistant["agent"].(string); ok {
		r.Entry = name
	}
	if tools, ok := assistant["tools"]; ok {
		t := refTable(tools)
		r.DefaultConfirm = refStrings(t["confirm"])
		r.DefaultReview = refStrings(t["review"])
	} else {
		r.DefaultConfirm = refBuiltinConfirm
		r.DefaultReview = refBuiltinReview
	}

	// The registry in trust order: Kokua's own, plugins, skills (each in
	// manifest order), then MCP servers in config order (R51, R165, R166).
	for _, kind := range []string{"kokua", "plugin", "skill"} {
		for _, mt := range man.Toolsets {
			if mt.Kind != kind {
				continue
			}
			t := &refToolset{Name: mt.Name, Kind: mt.Kind, EntryPointOnly: mt.EntryPointOnly}
			for _, tool := range mt.Tools {
				if tool.Name != "activate_skill" {
					t.Tools = append(t.Tools, tool.Name)
				}
			}
			r.Registry = append(r.Registry, t)
		}
	}
	for _, server := range refTables(refTable(doc["mcp"])["server"]) {
		name, _ := server["name"].(string)
		t := &refToolset{Name: name, Kind: "mcp"}
		// The manifest entry of the same name supplies the tools; a server
		// with none builds empty (R166, R174), and one marked disconnected
		// builds empty now (see refToolset.Disconnected). A server the
		// manifest does not describe is taken as not connected, the reading
		// of docs/readings.md ("An MCP server the manifest marks
		// disconnected (or does not describe)"): a load of it is refused.
		t.Disconnected = true
		for _, mt := range man.Toolsets {
			if mt.Kind == "mcp" && mt.Name == name {
				t.Disconnected = mt.Connected != nil && !*mt.Connected
				for _, tool := range mt.Tools {
					t.Tools = append(t.Tools, tool.Name)
				}
			}
		}
		r.Registry = append(r.Registry, t)
	}

	r.AutoApproval, r.Floor = refSecurity(doc)

	agents := refTable(doc["agents"])
	for _, name := range refSortedKeys(agents) {
		table := refTable(agents[name])
		a := &refAgent{Name: name, DelegatesTo: refStrings(table["delegates_to"])}
		if tools, ok := table["tools"]; ok {
			t := refTable(tools)
			if s, ok := t["available"].(string); ok && s == "all" {
				a.AvailableAll = true
			} else {
				a.Available = refStrings(t["available"])
			}
			if v, ok := t["resident"]; ok {
				a.ResidentSet = true
				a.Resident = refStrings(v)
			}
			_, hasConfirm := t["confirm"]
			_, hasReview := t["review"]
			if hasConfirm || hasReview {
				a.PairDeclared = true
				a.Confirm = refStrings(t["confirm"])
				a.Review = refStrings(t["review"])
			}
		}
		r.Agents = append(r.Agents, a)
	}
	return r, nil
}

func refTable(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func refTables(v any) []map[string]any {
	var out []map[string]any
	switch list := v.(type) {
	case []map[string]any:
		out = list
	case []any:
		for _, x := range list {
			if m, ok := x.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

func refStrings(v any) []string {
	list, _ := v.([]any)
	out := []string{}
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func refSortedKeys(m map[string]any) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

func (r *Evaluator) agent(name string) *refAgent {
	for _, a := range r.Agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

func (r *Evaluator) toolset(name string) *refToolset {
	for _, t := range r.Registry {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// availability is the agent's available list without repeats, or its
// "all" expansion: every registered toolset in trust order, except an
// entry_point_only toolset on any agent but the entry agent (R51, R52, R61).
func (r *Evaluator) availability(a *refAgent) []string {
	var out []string
	if a.AvailableAll {
		for _, t := range r.Registry {
			if t.EntryPointOnly && a.Name != r.Entry {
				continue
			}
			out = append(out, t.Name)
		}
		return out
	}
	for _, name := range a.Available {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// skillAgentSkills are the skills the entry agent holds through its
// SkillAgent: every skill when its availability has the skills toolset,
// otherwise the skills it names (R42). No other agent has any.
func (r *Evaluator) skillAgentSkills(a *refAgent) []string {
	var out []string
	if a.Name != r.Entry {
		return out
	}
	avail := r.availability(a)
	for _, t := range r.Registry {
		if t.Kind == "skill" && (slices.Contains(avail, "skills") || slices.Contains(avail, t.Name)) {
			out = append(out, t.Name)
		}
	}
	return out
}

// resident is what the agent holds from its first turn: its resident list,
// or every available toolset when it writes none (R58). Skills the entry
// agent holds through SkillAgent are held that way instead (A18).
func (r *Evaluator) resident(a *refAgent) []string {
	var out []string
	skills := r.skillAgentSkills(a)
	for _, name := range r.availability(a) {
		if slices.Contains(skills, name) {
			continue
		}
		if !a.ResidentSet || slices.Contains(a.Resident, name) {
			out = append(out, name)
		}
	}
	return out
}

// deferred is available minus resident (R56), again leaving out the skills
// the entry agent holds through SkillAgent.
func (r *Evaluator) deferred(a *refAgent) []string {
	var out []string
	skills := r.skillAgentSkills(a)
	resident := r.resident(a)
	for _, name := range r.availability(a) {
		if !slices.Contains(skills, name) && !slices.Contains(resident, name) {
			out = append(out, name)
		}
	}
	return out
}

// reachable is the entry agent and every agent its delegates_to reach,
// transitively (R173).
func (r *Evaluator) reachable() []string {
	out := []string{r.Entry}
	for i := 0; i < len(out); i++ {
		a := r.agent(out[i])
		if a == nil {
			continue
		}
		for _, d := range a.DelegatesTo {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// builtAtStartup is B: the resident toolsets of every reachable agent and
// the skills the entry agent's SkillAgent holds (R77).
func (r *Evaluator) builtAtStartup() []string {
	var out []string
	for _, name := range r.reachable() {
		a := r.agent(name)
		if a == nil {
			continue
		}
		held := append(r.resident(a), r.skillAgentSkills(a)...)
		for _, t := range held {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// ownBuilt are the toolsets an agent's own turn start has built: its
// resident toolsets and the skills SkillAgent holds for it (R65, R80).
func (r *Evaluator) ownBuilt(a *refAgent) []string {
	return append(r.resident(a), r.skillAgentSkills(a)...)
}

// coreToolsExisting are the core tools that exist anywhere in the config
// (R36, R39).
func (r *Evaluator) coreToolsExisting() []string {
	var out []string
	for _, tool := range refCoreTools {
		exists := false
		for _, a := range r.Agents {
			switch tool {
			case "spawn_subagent":
				exists = exists || len(a.DelegatesTo) > 0
			case "available_tools", "load_tools":
				exists = exists || len(r.deferred(a)) > 0
			}
		}
		if tool == "activate_skill" {
			for _, t := range r.Registry {
				exists = exists || t.Kind == "skill"
			}
		}
		if exists {
			out = append(out, tool)
		}
	}
	return out
}

// coreToolsHeld are the core tools the agent holds (R36, R37, R63):
// spawn_subagent when it delegates, activate_skill when it holds a skill
// (the entry agent through SkillAgent, a worker as a resident toolset), and
// the two loaders when it defers something.
func (r *Evaluator) coreToolsHeld(a *refAgent) []string {
	var out []string
	if len(a.DelegatesTo) > 0 {
		out = append(out, "spawn_subagent")
	}
	holdsSkill := len(r.skillAgentSkills(a)) > 0
	for _, name := range r.resident(a) {
		if t := r.toolset(name); t != nil && t.Kind == "skill" {
			holdsSkill = true
		}
	}
	if holdsSkill {
		out = append(out, "activate_skill")
	}
	if len(r.deferred(a)) > 0 {
		out = append(out, "available_tools", "load_tools")
	}
	return out
}

// heldAtStart are the tool names the agent holds at turn start, with
// nothing loaded (R185): its resident toolsets' tools, its core tools, and
// the scripts of the skills its SkillAgent holds.
func (r *Evaluator) heldAtStart(a *refAgent) []string {
	var out []string
	for _, name := range append(r.resident(a), r.skillAgentSkills(a)...) {
		if t := r.toolset(name); t != nil {
			out = append(out, r.builtTools(t)...)
		}
	}
	return append(out, r.coreToolsHeld(a)...)
}

// pair is the agent's approval policy: its own pair when its tools table
// writes confirm or review, else the default pair (R9-R11).
func (r *Evaluator) pair(a *refAgent) (confirm, review []string) {
	if a.PairDeclared {
		return a.Confirm, a.Review
	}
	return r.DefaultConfirm, r.DefaultReview
}

// resolve maps one entry to the tool names it gates for an agent at the
// start of its turn (R28, R38, R72, R77-R80). An entry on a toolset not
// built at startup is pending and gates nothing until that toolset's
// build; the agent's own turn-start toolsets have been built for it to
// hold them, and every build resolves the entries naming it (R80).
func (r *Evaluator) resolve(entry string, ownBuilt []string) []string {
	toolsetName, tool, hasTool := strings.Cut(entry, ".")
	if toolsetName == "core" {
		if !hasTool || tool == "*" {
			return r.coreToolsExisting()
		}
		if slices.Contains(r.coreToolsExisting(), tool) {
			return []string{tool}
		}
		return nil
	}
	if !slices.Contains(r.builtAtStartup(), toolsetName) && !slices.Contains(ownBuilt, toolsetName) {
		return nil
	}
	t := r.toolset(toolsetName)
	if t == nil {
		return nil
	}
	if !hasTool || tool == "*" {
		return r.builtTools(t)
	}
	if slices.Contains(r.builtTools(t), tool) {
		return []string{tool}
	}
	return nil
}

// builtTools is what a build of the toolset returns at startup: nothing for
// a disconnected MCP server, which "Resident, ... builds empty"
// (tool-access.md, "What a load costs").
func (r *Evaluator) builtTools(t *refToolset) []string {
	if t.Disconnected {
		return nil
	}
	return t.Tools
}

// Composes reports whether a composed worker can exist. compose_subagent
// is in capabilities, and "only an agent whose availability includes
// capabilities holds it" (R43); startup builds only the entry agent and the
// workers it reaches (R173, A3), so an agent nothing reaches never
// composes. Without a composer, "composed:<label>" names no agent.
func (r *Evaluator) Composes() bool {
	for _, name := range r.reachable() {
		if a := r.agent(name); a != nil && slices.Contains(r.availability(a), "capabilities") {
			return true
		}
	}
	return false
}

// refView is what one agent's answers depend on, worked out once.
type refView struct {
	held     []string // tool names held at turn start
	loadable []string // tool names its deferred toolsets provide
	confirm  []string // tool names its confirm list gates now
	review   []string // tool names its review list gates now
}

func (r *Evaluator) view(a *refAgent) *refView {
	if v := r.views[a.Name]; v != nil {
		return v
	}
	v := &refView{held: r.heldAtStart(a)}
	for _, name := range r.deferred(a) {
		if t := r.toolset(name); t != nil {
			v.loadable = append(v.loadable, t.Tools...)
		}
	}
	confirm, review := r.pair(a)
	own := r.ownBuilt(a)
	for _, e := range confirm {
		v.confirm = append(v.confirm, r.resolve(e, own)...)
	}
	for _, e := range review {
		v.review = append(v.review, r.resolve(e, own)...)
	}
	if r.views == nil {
		r.views = map[string]*refView{}
	}
	r.views[a.Name] = v
	return v
}

// Answer says what the agent may do with the tool (a bare name) at the
// start of an attended turn in which nothing has been loaded (R14, R56,
// R63, R67, R185, R187). A name held at start wins over a deferred
// toolset offering the same name; entries match names (R35), so a held
// name is gated whichever toolset an entry named.
func (r *Evaluator) Answer(agentName, tool string) string {
	a := r.agent(agentName)
	if a == nil {
		return Unavailable
	}
	v := r.view(a)
	switch {
	case !slices.Contains(v.held, tool) && slices.Contains(v.loadable, tool):
		return Loadable
	case !slices.Contains(v.held, tool):
		return Unavailable
	case slices.Contains(v.confirm, tool):
		return Confirm
	case slices.Contains(v.review, tool):
		return Review
	}
	return Run
}
