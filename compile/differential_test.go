package compile_test

// The differential test: the plain reference evaluator of internal/testing/reference
// and the compiled policy must give the same answer for every (agent, tool)
// pair of every golden lint case that lints clean and of a few hundred
// generated configs.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/testing/reference"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// diffMadeUpTool is a name no toolset provides.
const diffMadeUpTool = "no_such_tool_anywhere"

// diffRuntimeAnswer maps the runtime's decisions onto the reference's
// answers.
var diffRuntimeAnswer = map[policy.Decision]string{
	policy.Unavailable: reference.Unavailable,
	policy.NotLoaded:   reference.Loadable,
	policy.Run:         reference.Run,
	policy.Confirm:     reference.Confirm,
	policy.Review:      reference.Review,
}

// diffCase is one config to compare on.
type diffCase struct {
	name     string
	config   []byte
	manifest []byte // nil for the embedded default install
}

// diffCompile lints a case and, when it has no error, compiles it and
// loads the policy. ok is false for a config that lints with errors.
func diffCompile(t *testing.T, c diffCase) (p *policy.Policy, ok bool) {
	t.Helper()
	m := lint.DefaultManifest()
	if c.manifest != nil {
		m = lint.LoadManifest(lint.Source{Name: "manifest.json", Data: c.manifest})
	}
	res := engine.Run(lint.Source{Name: "config.toml", Data: c.config}, m)
	if res.HasErrors() || res.World == nil {
		return nil, false
	}
	doc := engine.Compile(res.World, engine.Source{Name: "config.toml", Data: c.config},
		engine.Source{Name: m.Source.Name, Data: m.Source.Data})
	data, err := policy.Marshal(doc)
	if err != nil {
		t.Fatalf("%s: marshal: %v", c.name, err)
	}
	p, err = policy.Parse(c.name, data)
	if err != nil {
		t.Fatalf("%s: the compiled policy does not load: %v\n%s", c.name, err, c.config)
	}
	return p, true
}

// diffCompare checks every (agent, tool) pair of one case, counting the
// reference's answers into seen. It returns the number of pairs compared.
func diffCompare(t *testing.T, c diffCase, p *policy.Policy, seen map[string]int) int {
	t.Helper()
	m := c.manifest
	if m == nil {
		m = manifest.DefaultManifest()
	}
	ref, err := reference.New(c.config, m)
	if errors.Is(err, reference.ErrNumberRange) {
		t.Logf("%s: left out: %v", c.name, err)
		return 0
	}
	if err != nil {
		t.Fatalf("%s: the reference cannot read it: %v", c.name, err)
	}
	// Every tool name of every toolset in the manifest, the core tools and
	// a made-up name.
	var man manifestFile
	if err := json.Unmarshal(m, &man); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	var tools []string
	for _, ts := range man.Toolsets {
		for _, tool := range ts.Tools {
			if !slices.Contains(tools, tool.Name) {
				tools = append(tools, tool.Name)
			}
		}
	}
	for _, tool := range append(append([]string{}, coreTools...), diffMadeUpTool) {
		if !slices.Contains(tools, tool) {
			tools = append(tools, tool)
		}
	}

	var agents []string
	for _, a := range ref.Agents {
		agents = append(agents, a.Name)
	}
	var compiled []string
	for name := range p.Document().Agents {
		compiled = append(compiled, name)
	}
	sort.Strings(compiled)
	if strings.Join(agents, ",") != strings.Join(compiled, ",") {
		t.Errorf("%s: the reference sees agents %v, the policy %v\n%s", c.name, agents, compiled, c.config)
		return 0
	}

	// A composed label answers only where some agent startup builds can
	// compose; otherwise it is an unknown agent, and every call is denied.
	composes := ref.Composes()
	if got := p.Document().Composed.Possible; got != composes {
		t.Errorf("%s: the reference says a composed worker can exist: %v; the policy's composed.possible is %v\n%s", c.name, composes, got, c.config)
	}
	if !composes {
		for _, tool := range tools {
			if ans := p.Decide(kokua.ComposedPrefix+"x", tool, policy.Turn{}); ans.Decision != policy.Denied {
				t.Errorf("%s: no agent can compose, yet composed:x may call %q: %s (%s)", c.name, tool, ans.Decision, ans.Reason.Summary)
				break
			}
		}
	}

	pairs, disagreements := 0, 0
	for _, agent := range agents {
		for _, tool := range tools {
			pairs++
			want := ref.Answer(agent, tool)
			seen[want]++
			ans := p.Decide(agent, tool, policy.Turn{})
			got, known := diffRuntimeAnswer[ans.Decision]
			if !known {
				got = string(ans.Decision)
			}
			if got == want {
				continue
			}
			disagreements++
			if disagreements > 5 {
				continue
			}
			manifestNote := "the embedded default manifest"
			if c.manifest != nil {
				manifestNote = "manifest:\n" + string(c.manifest)
			}
			t.Errorf("%s: agent %q, tool %q: reference says %s, compiled policy says %s (toolset %q; reason: %s)\nconfig:\n%s\n%s",
				c.name, agent, tool, want, ans.Decision, ans.Toolset, ans.Reason.Summary, c.config, manifestNote)
		}
	}
	if disagreements > 5 {
		t.Errorf("%s: %d more disagreements not shown", c.name, disagreements-5)
	}
	return pairs
}

// TestDifferentialGolden compares on every golden lint case that lints
// with no error.
func TestDifferentialGolden(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "lint", "*"))
	if err != nil {
		t.Fatal(err)
	}
	compared, pairs, seen := 0, 0, map[string]int{}
	for _, dir := range dirs {
		cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
		if err != nil {
			continue
		}
		c := diffCase{name: filepath.Base(dir), config: cfg}
		if data, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err == nil {
			c.manifest = data
		}
		p, ok := diffCompile(t, c)
		if !ok {
			continue
		}
		compared++
		pairs += diffCompare(t, c, p, seen)
	}
	if compared < 20 {
		t.Fatalf("only %d golden cases lint clean; expected many more", compared)
	}
	t.Logf("%d golden cases compared, %d pairs; answers %v", compared, pairs, seen)
}

// TestDifferentialGenerated compares on configs from a seeded generator.
func TestDifferentialGenerated(t *testing.T) {
	t.Parallel()
	const generated = 250
	defaults := diffDefaultPool(t)
	kept, pairs, seen := 0, 0, map[string]int{}
	for seed := uint64(1); seed <= generated; seed++ {
		g := &diffGen{rng: rand.New(rand.NewPCG(seed, 0x6b6f6b7561))}
		c := g.generate(defaults)
		c.name = fmt.Sprintf("generated seed %d", seed)
		p, ok := diffCompile(t, c)
		if !ok {
			continue
		}
		kept++
		pairs += diffCompare(t, c, p, seen)
	}
	if kept < 100 {
		t.Fatalf("only %d of %d generated configs lint clean; the generator must give at least 100", kept, generated)
	}
	for _, answer := range []string{reference.Unavailable, reference.Loadable, reference.Run, reference.Confirm, reference.Review} {
		if seen[answer] == 0 {
			t.Errorf("no generated pair was answered %s: the generator misses a whole kind of answer", answer)
		}
	}
	t.Logf("%d of %d generated configs lint clean and were compared, %d pairs; answers %v", kept, generated, pairs, seen)
}

// diffToolset is a toolset the generator may install.
type diffToolset struct {
	Name           string
	Kind           string
	EntryPointOnly bool
	Connected      bool
	Tools          []string
}

// diffDefaultPool is the embedded default install's toolsets.
func diffDefaultPool(t *testing.T) []diffToolset {
	var man manifestFile
	if err := json.Unmarshal(manifest.DefaultManifest(), &man); err != nil {
		t.Fatal(err)
	}
	var out []diffToolset
	for _, ts := range man.Toolsets {
		d := diffToolset{Name: ts.Name, Kind: ts.Kind, EntryPointOnly: ts.EntryPointOnly, Connected: true}
		for _, tool := range ts.Tools {
			d.Tools = append(d.Tools, tool.Name)
		}
		out = append(out, d)
	}
	return out
}

// diffGeneratedPool is what a generated manifest draws from: tool names
// shared across toolsets (read_file, search, create_issue, write_file),
// two skills (one with no script), a plugin and two MCP servers.
var diffGeneratedPool = []diffToolset{
	{Name: "compute", Kind: "kokua", Tools: []string{"calculate", "execute_python", "run_command"}},
	{Name: "config", Kind: "kokua", Tools: []string{"read_config", "update_config"}},
	{Name: "fs", Kind: "kokua", Tools: []string{"list_directory", "read_file"}},
	{Name: "fs_write", Kind: "kokua", Tools: []string{"write_file", "edit_file"}},
	{Name: "mcp", Kind: "kokua", Tools: []string{"add_mcp_server", "remove_mcp_server"}},
	{Name: "memory", Kind: "kokua", Tools: []string{"store_memory", "search_memories"}},
	{Name: "messaging", Kind: "kokua", Tools: []string{"send_message", "list_agents"}},
	{Name: "skills", Kind: "kokua", EntryPointOnly: true, Tools: []string{"author_skill", "add_skill_script"}},
	{Name: "time", Kind: "kokua", Tools: []string{"get_current_date_and_time"}},
	{Name: "web", Kind: "kokua", Tools: []string{"web_search", "get_webpage", "search"}},
	{Name: "notes", Kind: "plugin", Tools: []string{"search", "read_file", "list_notes"}},
	{Name: "tickets", Kind: "plugin", Tools: []string{"create_issue", "close_issue"}},
	{Name: "weekly-digest", Kind: "skill", Tools: []string{"weekly_digest__collect_notes"}},
	{Name: "trip-planner", Kind: "skill", Tools: []string{"trip_planner__book", "trip_planner__search"}},
	{Name: "haiku", Kind: "skill"},
	{Name: "files", Kind: "mcp", Tools: []string{"read_file", "write_file", "search_files"}},
	{Name: "tracker", Kind: "mcp", Tools: []string{"create_issue", "search"}},
}

var diffAgentNames = []string{"assistant", "researcher", "coder", "introspector", "planner", "writer", "tester", "archivist"}

// diffGen writes one random config (and maybe a manifest).
type diffGen struct {
	rng      *rand.Rand
	toolsets []diffToolset // registered, manifest order (MCP: config order)
	servers  []string      // [[mcp.server]] names, in config order
	entry    string
	agents   []*diffAgent
}

type diffAgent struct {
	name        string
	delegates   []string
	noTable     bool
	all         bool
	available   []string
	residentSet bool
	resident    []string
	confirm     []string
	review      []string
	hasConfirm  bool
	hasReview   bool
}

func (g *diffGen) chance(p float64) bool { return g.rng.Float64() < p }

func (g *diffGen) find(name string) *diffToolset {
	for i := range g.toolsets {
		if g.toolsets[i].Name == name {
			return &g.toolsets[i]
		}
	}
	return nil
}

// expansion is what an agent's availability holds, as the generator
// believes it (trust order does not matter to it).
func (g *diffGen) expansion(a *diffAgent) []string {
	if !a.all {
		return a.available
	}
	var out []string
	for _, t := range g.toolsets {
		if t.EntryPointOnly && a.name != g.entry {
			continue
		}
		out = append(out, t.Name)
	}
	return out
}

// subset draws a random subset of list, in a random order.
func (g *diffGen) subset(list []string, p float64) []string {
	out := []string{}
	for _, i := range g.rng.Perm(len(list)) {
		if g.chance(p) {
			out = append(out, list[i])
		}
	}
	return out
}

func (g *diffGen) generate(defaults []diffToolset) diffCase {
	var c diffCase
	useDefault := g.chance(0.4)
	if useDefault {
		g.toolsets = defaults
	} else {
		for _, t := range diffGeneratedPool {
			if t.Name == "skills" || t.Name == "time" || g.chance(0.65) {
				t.Connected = t.Kind != "mcp" || g.chance(0.9)
				g.toolsets = append(g.toolsets, t)
			}
		}
		g.rng.Shuffle(len(g.toolsets), func(i, j int) { g.toolsets[i], g.toolsets[j] = g.toolsets[j], g.toolsets[i] })
		for _, t := range g.toolsets {
			if t.Kind == "mcp" {
				g.servers = append(g.servers, t.Name)
			}
		}
		c.manifest = g.manifest()
	}
	var names []string
	for _, t := range g.toolsets {
		names = append(names, t.Name)
	}

	// Agents, the first being the entry agent, and a delegation graph
	// whose edges only go from an earlier agent to a later one (no cycle).
	n := 2 + g.rng.IntN(7)
	perm := g.rng.Perm(len(diffAgentNames))
	for i := 0; i < n; i++ {
		g.agents = append(g.agents, &diffAgent{name: diffAgentNames[perm[i]]})
	}
	g.entry = g.agents[0].name
	if g.chance(0.1) {
		g.entry = "boss"
		g.agents[0].name = "boss"
	}
	for i := 1; i < n; i++ {
		if g.chance(0.85) {
			p := g.agents[g.rng.IntN(i)]
			p.delegates = append(p.delegates, g.agents[i].name)
		}
	}
	if n > 2 && g.chance(0.3) {
		from := g.rng.IntN(n - 1)
		to := from + 1 + g.rng.IntN(n-1-from)
		if !slices.Contains(g.agents[from].delegates, g.agents[to].name) {
			g.agents[from].delegates = append(g.agents[from].delegates, g.agents[to].name)
		}
	}

	// Availability and residency.
	for _, a := range g.agents {
		switch {
		case a != g.agents[0] && g.chance(0.08):
			a.noTable = true
			continue
		case g.chance(0.2):
			a.all = true
			a.residentSet = true
			a.resident = g.subset(g.expansion(a), 0.3)
		default:
			for _, name := range g.subset(names, 0.3) {
				if name == "skills" && a.name != g.entry && !g.chance(0.05) {
					continue
				}
				a.available = append(a.available, name)
			}
			if g.chance(0.5) {
				a.residentSet = true
				a.resident = g.subset(a.available, 0.6)
			}
		}
	}

	// Which core tools exist, as far as the generator can tell.
	var core []string
	for _, a := range g.agents {
		if len(a.delegates) > 0 && !slices.Contains(core, "spawn_subagent") {
			core = append(core, "spawn_subagent")
		}
		if a.residentSet && len(a.resident) < len(g.expansion(a)) && !slices.Contains(core, "load_tools") {
			core = append(core, "available_tools", "load_tools")
		}
	}
	for _, t := range g.toolsets {
		if t.Kind == "skill" && !slices.Contains(core, "activate_skill") {
			core = append(core, "activate_skill")
		}
	}

	// Approval pairs: declared on some agents from their own availability,
	// the default pair from every agent's.
	var union []string
	for _, a := range g.agents {
		for _, name := range g.expansion(a) {
			if !slices.Contains(union, name) {
				union = append(union, name)
			}
		}
	}
	for _, a := range g.agents {
		if a.noTable || g.chance(0.55) {
			continue
		}
		a.hasConfirm, a.hasReview = true, true
		switch g.rng.IntN(4) {
		case 0:
			a.hasConfirm = false
		case 1:
			a.hasReview = false
		}
		a.confirm, a.review = g.pair(g.expansion(a), core)
	}
	writeDefault := !useDefault || !g.chance(0.25)
	var defConfirm, defReview []string
	hasDefConfirm, hasDefReview := true, true
	if writeDefault {
		if g.chance(0.15) {
			hasDefConfirm = false
		}
		if g.chance(0.15) {
			hasDefReview = false
		}
		defConfirm, defReview = g.pair(union, core)
	} else if g.chance(0.6) {
		// The built-in pair needs skills, mcp, config, compute and
		// fs_write somewhere: "all" on the entry agent gives them.
		e := g.agents[0]
		e.all, e.available, e.residentSet = true, nil, true
		e.resident = g.subset(g.expansion(e), 0.3)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "# R5-R14, R28-R42, R51-R63, R72-R83: generated for the differential test.\n")
	if g.entry != "assistant" || g.chance(0.5) {
		fmt.Fprintf(&b, "[assistant]\nagent = %s\n\n", strconv.Quote(g.entry))
	}
	if writeDefault {
		b.WriteString("[assistant.tools]\n")
		if hasDefConfirm {
			fmt.Fprintf(&b, "confirm = %s\n", diffList(defConfirm))
		}
		if hasDefReview {
			fmt.Fprintf(&b, "review = %s\n", diffList(defReview))
		}
		b.WriteString("\n")
	}
	for _, a := range g.agents {
		fmt.Fprintf(&b, "[agents.%s]\n", a.name)
		if len(a.delegates) > 0 {
			fmt.Fprintf(&b, "delegates_to = %s\n", diffList(a.delegates))
		} else if !a.noTable && g.chance(0.1) {
			b.WriteString("delegates_to = []\n")
		}
		if a.noTable {
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "\n[agents.%s.tools]\n", a.name)
		if a.all {
			b.WriteString("available = \"all\"\n")
		} else {
			fmt.Fprintf(&b, "available = %s\n", diffList(a.available))
		}
		if a.residentSet {
			fmt.Fprintf(&b, "resident = %s\n", diffList(a.resident))
		}
		if a.hasConfirm {
			fmt.Fprintf(&b, "confirm = %s\n", diffList(a.confirm))
		}
		if a.hasReview {
			fmt.Fprintf(&b, "review = %s\n", diffList(a.review))
		}
		b.WriteString("\n")
	}
	for _, s := range g.servers {
		fmt.Fprintf(&b, "[[mcp.server]]\nname = %s\nurl = %s\n\n", strconv.Quote(s), strconv.Quote("https://"+s+".example.net/mcp"))
	}
	c.config = []byte(b.String())
	return c
}

// pair draws a confirm and a review list from toolsets the scope allows,
// each list from its own share of them so the two rarely overlap.
func (g *diffGen) pair(scope, core []string) (confirm, review []string) {
	confirm, review = []string{}, []string{}
	shuffled := g.subset(scope, 1)
	half := len(shuffled) / 2
	for i, name := range shuffled {
		if !g.chance(0.5) {
			continue
		}
		e := g.entry1(name)
		if e == "" {
			continue
		}
		if i < half {
			confirm = append(confirm, e)
		} else {
			review = append(review, e)
		}
	}
	if len(core) > 0 && g.chance(0.3) {
		var e string
		switch g.rng.IntN(4) {
		case 0:
			e = "core"
		case 1:
			e = "core.*"
		default:
			e = "core." + core[g.rng.IntN(len(core))]
		}
		if g.chance(0.5) {
			confirm = append(confirm, e)
		} else {
			review = append(review, e)
		}
	}
	return confirm, review
}

// entry1 writes one entry on a toolset: bare, with .*, or naming a tool.
func (g *diffGen) entry1(name string) string {
	t := g.find(name)
	if t == nil || len(t.Tools) == 0 {
		return ""
	}
	switch g.rng.IntN(6) {
	case 0, 1:
		return name
	case 2:
		return name + ".*"
	}
	return name + "." + t.Tools[g.rng.IntN(len(t.Tools))]
}

// manifest writes the generated install as manifest JSON.
func (g *diffGen) manifest() []byte {
	type tool struct {
		Name string `json:"name"`
	}
	type toolset struct {
		Name           string `json:"name"`
		Kind           string `json:"kind"`
		Description    string `json:"description"`
		EntryPointOnly bool   `json:"entry_point_only,omitempty"`
		Connected      *bool  `json:"connected,omitempty"`
		Tools          []tool `json:"tools"`
	}
	out := struct {
		Version  int       `json:"manifest_version"`
		Source   string    `json:"source"`
		Toolsets []toolset `json:"toolsets"`
	}{Version: 1, Source: "generated by the differential test"}
	for _, t := range g.toolsets {
		ts := toolset{Name: t.Name, Kind: t.Kind, Description: "The " + t.Name + " toolset.",
			EntryPointOnly: t.EntryPointOnly, Tools: []tool{}}
		if t.Kind == "mcp" && !t.Connected {
			f := false
			ts.Connected = &f
		}
		for _, name := range t.Tools {
			ts.Tools = append(ts.Tools, tool{Name: name})
		}
		out.Toolsets = append(out.Toolsets, ts)
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		panic(err)
	}
	return data
}

// diffList writes a TOML list of strings.
func diffList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// manifestFile is what the test reads of a manifest: the tool names.
type manifestFile struct {
	Toolsets []struct {
		Name           string `json:"name"`
		Kind           string `json:"kind"`
		EntryPointOnly bool   `json:"entry_point_only"`
		Tools          []struct {
			Name string `json:"name"`
		} `json:"tools"`
	} `json:"toolsets"`
}

var coreTools = []string{"spawn_subagent", "activate_skill", "available_tools", "load_tools"}
