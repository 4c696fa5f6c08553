package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// testManifest registers, in manifest order, a plugin before Kokua's own
// toolsets, a skill, and an MCP server's tools, to show that trust order
// regroups them (R51, R165).
const testManifest = `{"manifest_version": 1, "toolsets": [
 {"name": "zplug", "kind": "plugin", "description": "A plugin.", "tools": [{"name": "read_file"}]},
 {"name": "fs", "kind": "kokua", "description": "Reads.", "tools": [{"name": "list_directory"}, {"name": "read_file"}]},
 {"name": "skills", "kind": "kokua", "description": "Authoring.", "entry_point_only": true, "tools": [{"name": "author_skill"}, {"name": "add_skill_script"}]},
 {"name": "compute", "kind": "kokua", "description": "Run.", "tools": [{"name": "calculate"}, {"name": "execute_python"}]},
 {"name": "planning", "kind": "kokua", "description": "Plans.", "tools": []},
 {"name": "weekly-digest", "kind": "skill", "description": "A skill.", "tools": [{"name": "activate_skill"}, {"name": "weekly_digest__collect"}]},
 {"name": "files", "kind": "mcp", "description": "ignored", "tools": [{"name": "read_file"}]}
]}`

func world(t *testing.T, toml string) *World {
	t.Helper()
	m, problems := manifest.Load("m.json", []byte(testManifest))
	if len(problems) > 0 {
		t.Fatalf("manifest: %v", problems)
	}
	c, err := config.Load("c.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	return Build(c, m)
}

func names(ts []*Toolset) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return strings.Join(out, ",")
}

const base = `
[[mcp.server]]
name = "files"
url = "http://files.example"

[agents.assistant]
delegates_to = ["worker"]
[agents.assistant.tools]
available = "all"
resident = ["fs", "compute"]

[agents.worker.tools]
available = "all"
resident = ["files", "fs"]

[agents.lonely.tools]
available = ["compute", "planning", "compute"]
`

func TestTrustOrderAndExpansion(t *testing.T) {
	w := world(t, base)
	if got, want := names(w.Toolsets), "fs,skills,compute,planning,zplug,weekly-digest,files"; got != want {
		t.Errorf("trust order %s, want %s (R51)", got, want)
	}
	tests := []struct {
		agent                             string
		avail, resident, deferred, skills string
	}{
		// The entry agent's "all" includes skills, and holds every skill through SkillAgent (R42, A18).
		{"assistant", "fs,skills,compute,planning,zplug,weekly-digest,files", "fs,compute", "skills,planning,zplug,files", "weekly-digest"},
		// A worker's "all" leaves out the entry-point-only skills toolset but keeps each skill (R52).
		{"worker", "fs,compute,planning,zplug,weekly-digest,files", "fs,files", "compute,planning,zplug,weekly-digest", ""},
		// A list is deduplicated, keeping the first (R61); no resident list makes all resident (R58).
		{"lonely", "compute,planning", "compute,planning", "", ""},
	}
	for _, tt := range tests {
		a := w.Agent(tt.agent)
		if got := names(a.Avail); got != tt.avail {
			t.Errorf("%s: available %s, want %s", tt.agent, got, tt.avail)
		}
		if got := names(a.Resident); got != tt.resident {
			t.Errorf("%s: resident %s, want %s (available order, R57)", tt.agent, got, tt.resident)
		}
		if got := names(a.Deferred); got != tt.deferred {
			t.Errorf("%s: deferred %s, want %s", tt.agent, got, tt.deferred)
		}
		if got := names(a.Skills); got != tt.skills {
			t.Errorf("%s: SkillAgent skills %s, want %s", tt.agent, got, tt.skills)
		}
	}
}

func TestReachAndStartupBuilds(t *testing.T) {
	w := world(t, base)
	for name, want := range map[string]bool{"assistant": true, "worker": true, "lonely": false} {
		if got := w.Agent(name).Reachable; got != want {
			t.Errorf("%s reachable = %v, want %v", name, got, want)
		}
	}
	var built []string
	for n := range w.Built {
		built = append(built, n)
	}
	slices.Sort(built)
	// lonely holds compute and planning resident, but nothing reaches it (R77, A3).
	if got, want := strings.Join(built, ","), "compute,files,fs,weekly-digest"; got != want {
		t.Errorf("B = %s, want %s", got, want)
	}
	if got, want := strings.Join(w.CoreTools, ","), "spawn_subagent,activate_skill,available_tools,load_tools"; got != want {
		t.Errorf("core tools %s, want %s (R36)", got, want)
	}
}

func TestCoreToolsExistOnlyWhenEarned(t *testing.T) {
	w := world(t, `
[agents.assistant.tools]
available = ["fs"]
`)
	// No delegation, nothing deferred; the manifest's skill still makes activate_skill exist.
	if got := strings.Join(w.CoreTools, ","); got != "activate_skill" {
		t.Errorf("core tools %q, want activate_skill only (R36)", got)
	}
}

func TestResolve(t *testing.T) {
	w := world(t, base)
	tests := []struct {
		entry   string
		status  Status
		tools   string
		pending bool
		hint    string // Homes or Close, joined
	}{
		{"fs", Matched, "list_directory,read_file", false, ""},
		{"fs.*", Matched, "list_directory,read_file", false, ""},
		{"compute.execute_python", Matched, "execute_python", false, ""},
		{"skills.add_skill_script", Matched, "add_skill_script", true, ""},
		{"weekly-digest", Matched, "weekly_digest__collect", false, ""},
		{"core", Matched, "spawn_subagent,activate_skill,available_tools,load_tools", false, ""},
		{"core.load_tools", Matched, "load_tools", false, ""},
		{"execute_python", BareTool, "", false, "compute.execute_python"},
		{"activate_skill", BareTool, "", false, "core.activate_skill"},
		{"computr", UnknownToolset, "", false, "compute"},
		{"compute.sub.x", BadGrammar, "", false, ""},
		{"compute.exec*", BadGrammar, "", false, ""},
		{"compute.execute_pythn", NoSuchTool, "", false, "execute_python"},
		{"fs.calculate", NoSuchTool, "", false, "compute.calculate"},
		{"weekly-digest.activate_skill", NoSuchTool, "", false, "core.activate_skill"},
		{"planning", NoTools, "", true, ""},
		{"core.nope", NoSuchTool, "", false, ""},
	}
	for _, tt := range tests {
		r := w.Resolve(tt.entry)
		hint := strings.Join(append(append([]string(nil), r.Homes...), r.Close...), ",")
		if r.Status != tt.status || strings.Join(r.Tools, ",") != tt.tools || r.Pending != tt.pending || hint != tt.hint {
			t.Errorf("Resolve(%q) = status %d tools %v pending %v hint %q; want %d %q %v %q",
				tt.entry, r.Status, r.Tools, r.Pending, hint, tt.status, tt.tools, tt.pending, tt.hint)
		}
		// A pending entry is resolved by its toolset's first build (R79);
		// every other one, core included, at startup (R78).
		if want := map[bool]When{false: AtStartup, true: AtBuild}[tt.pending]; r.Resolved() != want {
			t.Errorf("Resolve(%q).Resolved() = %d, want %d", tt.entry, r.Resolved(), want)
		}
	}
}

func TestPolicies(t *testing.T) {
	w := world(t, `
[assistant.tools]
confirm = ["fs"]

[agents.assistant.tools]
available = ["fs", "compute"]

[agents.coder.tools]
available = ["compute"]
confirm = ["compute"]

[agents.reader.tools]
available = ["fs"]
`)
	if p := w.Agent("coder").Policy; p.Agent == nil || p.Label != "coder" || len(p.Review.Items) != 0 || p.Review.State != config.Absent {
		t.Errorf("coder declares confirm only: its own pair, review empty (R11), got %+v", p)
	}
	if p := w.Agent("reader").Policy; p != w.Default || p.Label != kokua.DefaultTierLabel {
		t.Errorf("reader declares neither list: inherits [assistant.tools] (R11)")
	}
	if got := len(w.Policies()); got != 2 {
		t.Errorf("%d policies, want the default tier and coder's", got)
	}
}

// TestBuildersAndComposable: only agents Kokua builds, the entry agent and
// the workers it reaches, can load a toolset, and a composed worker only
// when one of those holds capabilities, never with capabilities or an
// entry_point_only toolset (R77, R173, R43, R206). World.Composes counts
// the same composers: an agent nothing reaches never composes.
func TestBuildersAndComposable(t *testing.T) {
	const m = `{"manifest_version": 1, "toolsets": [
 {"name": "fs", "kind": "kokua", "description": "Reads.", "tools": [{"name": "read_file"}]},
 {"name": "skills", "kind": "kokua", "description": "Authoring.", "entry_point_only": true, "tools": [{"name": "author_skill"}]},
 {"name": "capabilities", "kind": "kokua", "description": "Compose.", "tools": [{"name": "compose_subagent"}]}
]}`
	build := func(toml string) *World {
		mf, problems := manifest.Load("m.json", []byte(m))
		if len(problems) > 0 {
			t.Fatalf("manifest: %v", problems)
		}
		c, err := config.Load("c.toml", []byte(toml))
		if err != nil {
			t.Fatal(err)
		}
		return Build(c, mf)
	}
	agentNames := func(as []*Agent) string {
		var out []string
		for _, a := range as {
			out = append(out, a.Name)
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct {
		name, toml        string
		toolset           string
		loaders, builders string
		composable        bool
		composes          bool
	}{
		{"unreachable holder and composer", `
[agents.assistant.tools]
available = ["fs"]
resident = []
[agents.ops.tools]
available = ["fs", "capabilities"]
`, "fs", "assistant,ops", "assistant", false, false},
		{"reachable composer", `
[agents.assistant]
delegates_to = ["ops"]
[agents.assistant.tools]
available = ["skills"]
[agents.ops.tools]
available = ["capabilities"]
`, "fs", "", "", true, true},
		{"composed workers never get skills", `
[agents.assistant.tools]
available = ["skills", "capabilities"]
`, "skills", "assistant", "assistant", false, true},
		{"composed workers never get capabilities", `
[agents.assistant.tools]
available = ["capabilities"]
`, "capabilities", "assistant", "assistant", false, true},
	} {
		w := build(c.toml)
		if got := agentNames(w.Loaders(c.toolset)); got != c.loaders {
			t.Errorf("%s: Loaders(%s) = %q, want %q", c.name, c.toolset, got, c.loaders)
		}
		if got := agentNames(w.Builders(c.toolset)); got != c.builders {
			t.Errorf("%s: Builders(%s) = %q, want %q", c.name, c.toolset, got, c.builders)
		}
		if got := w.Composable(c.toolset); got != c.composable {
			t.Errorf("%s: Composable(%s) = %v, want %v", c.name, c.toolset, got, c.composable)
		}
		if w.Composes != c.composes {
			t.Errorf("%s: Composes = %v, want %v", c.name, w.Composes, c.composes)
		}
	}
}

// TestCandidateProvider: an MCP server is told apart by its table's line,
// other providers by their label (R115, R116).
func TestCandidateProvider(t *testing.T) {
	w := world(t, base)
	var got []string
	for _, c := range w.Candidates {
		if c.Name == "files" || c.Name == "fs" {
			got = append(got, c.Provider())
		}
	}
	want := []string{"the MCP server in [[mcp.server]] at line 3", "the built-in toolset"}
	if !slices.Equal(got, want) {
		t.Errorf("providers = %q, want %q", got, want)
	}
}
