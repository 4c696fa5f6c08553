package diff_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/lint"
)

// serverConfig is the config of the manifest tests. assistant (the entry
// agent) delegates to coder; loner is reached by nobody, so what only it
// holds (memory) no agent can call, and no agent holds github. Nothing is gated, and nobody
// holds capabilities, so there are no composed workers.
const serverConfig = `[assistant.tools]
confirm = []
review = []

[agents.assistant]
delegates_to = ["coder"]

[agents.assistant.tools]
available = ["time", "wiki"]

[agents.coder.tools]
available = ["fs", "compute"]

[agents.loner.tools]
available = ["memory"]

[[mcp.server]]
name = "wiki"
url = "https://wiki.example/mcp"
token_env = "WIKI_TOKEN"

[[mcp.server]]
name = "github"
url = "https://api.github.com/mcp"
token_env = "GH_TOKEN"
`

// jsonManifest is a manifest as JSON values, for editing.
type jsonManifest map[string]any

// serverManifest is the embedded default install with the two servers of
// serverConfig described and connected.
func serverManifest(t testing.TB) jsonManifest {
	t.Helper()
	var m jsonManifest
	if err := json.Unmarshal(manifest.DefaultManifest(), &m); err != nil {
		t.Fatal(err)
	}
	m["toolsets"] = append(m["toolsets"].([]any),
		map[string]any{"name": "wiki", "kind": "mcp", "description": "-", "connected": true,
			"tools": []any{map[string]any{"name": "read_page"}, map[string]any{"name": "edit_page"}}},
		map[string]any{"name": "github", "kind": "mcp", "description": "-", "connected": true,
			"tools": []any{map[string]any{"name": "read_issue"}}})
	return m
}

// toolset is one toolset of the manifest.
func (m jsonManifest) toolset(t testing.TB, name string) map[string]any {
	t.Helper()
	for _, ts := range m["toolsets"].([]any) {
		if ts.(map[string]any)["name"] == name {
			return ts.(map[string]any)
		}
	}
	t.Fatalf("no toolset %q", name)
	return nil
}

// tool is one tool of a toolset of the manifest.
func (m jsonManifest) tool(t testing.TB, toolset, name string) map[string]any {
	t.Helper()
	for _, x := range m.toolset(t, toolset)["tools"].([]any) {
		if x.(map[string]any)["name"] == name {
			return x.(map[string]any)
		}
	}
	t.Fatalf("no tool %q in %q", name, toolset)
	return nil
}

// addTool adds a tool to a toolset.
func (m jsonManifest) addTool(t testing.TB, toolset string, tool map[string]any) {
	ts := m.toolset(t, toolset)
	ts["tools"] = append(ts["tools"].([]any), tool)
}

func (m jsonManifest) load(t testing.TB, name string) *lint.Manifest {
	t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	lm := lint.LoadManifest(lint.Source{Name: name, Data: data})
	if err := lm.Err(); err != nil {
		t.Fatal(err)
	}
	return lm
}

// configSide compiles a config against a manifest.
func configSide(t testing.TB, name, config string, m *lint.Manifest) *diff.Side {
	t.Helper()
	s, res, err := diff.Load(lint.Source{Name: name, Data: []byte(config)}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		t.Fatalf("%s does not lint clean: %v", name, res.Diagnostics)
	}
	return s
}

// agentWidened counts the tool changes listed under the agents and the
// edges: what WidenedCount counts before the manifest.
func agentWidened(r *diff.Report) int {
	n := 0
	for _, a := range r.Agents {
		n += len(a.Widened)
	}
	for _, e := range r.Delegation {
		if e.Widened {
			n++
		}
	}
	return n
}

// TestManifestGrades: each change of the manifest or of an MCP server is
// reported and graded by the power it changes, each case named with its
// grade. widened is what the change adds to WidenedCount beyond the
// agents' own tool changes: a tool added to a toolset an agent holds is
// counted once, as the agent's.
func TestManifestGrades(t *testing.T) {
	tests := []struct {
		name string
		// edit changes the new side's manifest; config its config.
		edit   func(t testing.TB, m jsonManifest)
		config func(string) string
		// section is "tools", "toolsets" or "servers"; key the toolset
		// and tool, or server and field.
		section, key string
		grade        reach.Grade
		widened      int
		// shown are texts the human report must hold (both values of a
		// server change).
		shown []string
	}{
		{name: "exec added to a tool the entry agent calls: high",
			edit: func(t testing.TB, m jsonManifest) {
				m.tool(t, "time", "convert_time")["classes"] = []string{"exec"}
			},
			section: "tools", key: "time convert_time", grade: reach.High, widened: 1,
			shown: []string{"time: convert_time: classes none -> exec; assistant can call it"}},
		{name: "egress added to a tool a worker calls: high",
			edit: func(t testing.TB, m jsonManifest) {
				m.tool(t, "compute", "calculate")["classes"] = []string{"egress"}
			},
			section: "tools", key: "compute calculate", grade: reach.High, widened: 1},
		{name: "private-data added to a tool some agent calls: medium",
			edit: func(t testing.TB, m jsonManifest) {
				m.tool(t, "time", "convert_time")["classes"] = []string{"private-data"}
			},
			section: "tools", key: "time convert_time", grade: reach.Medium, widened: 1},
		{name: "exec added to a tool no agent can call: info",
			edit: func(t testing.TB, m jsonManifest) {
				m.tool(t, "memory", "store_memory")["classes"] = []string{"private-data", "exec"}
			},
			section: "tools", key: "memory store_memory", grade: reach.Info,
			shown: []string{"memory: store_memory: classes private-data -> exec, private-data; no agent can call it"}},
		{name: "exec cleared from a tool a worker calls: high, judged by both sides",
			edit: func(t testing.TB, m jsonManifest) {
				m.tool(t, "compute", "run_command")["classes"] = []string{}
			},
			section: "tools", key: "compute run_command", grade: reach.High,
			shown: []string{"classes exec -> none", "by both sides' classes"}},
		{name: "private-data cleared from a tool no agent can call: medium, a later grant is graded by what is left",
			edit: func(t testing.TB, m jsonManifest) {
				m.toolset(t, "memory")["classes"] = []string{}
			},
			section: "tools", key: "memory list_memories", grade: reach.Medium,
			shown: []string{"a later change that grants it is graded by the classes left"}},
		{name: "an exec tool added to a toolset the entry agent holds: high, counted once",
			edit: func(t testing.TB, m jsonManifest) {
				m.addTool(t, "time", map[string]any{"name": "set_clock", "classes": []string{"exec"}})
			},
			section: "tools", key: "time set_clock", grade: reach.High,
			shown: []string{"[high] set_clock: unavailable -> runs unasked", `the manifest now lists "set_clock" in toolset "time"`}},
		{name: "an unclassed tool added to a toolset a worker holds: medium, counted once",
			edit: func(t testing.TB, m jsonManifest) {
				m.addTool(t, "fs", map[string]any{"name": "stat_file", "classes": []string{}})
			},
			section: "tools", key: "fs stat_file", grade: reach.Medium},
		{name: "a tool of an MCP server added: its kind's classes make it high",
			edit: func(t testing.TB, m jsonManifest) {
				m.addTool(t, "wiki", map[string]any{"name": "delete_page"})
			},
			section: "tools", key: "wiki delete_page", grade: reach.High},
		{name: "a tool added to a toolset no agent can call: info",
			edit: func(t testing.TB, m jsonManifest) {
				m.addTool(t, "github", map[string]any{"name": "delete_repo"})
			},
			section: "tools", key: "github delete_repo", grade: reach.Info},
		{name: "a tool removed from a toolset a worker holds: a narrowing, ungraded",
			edit: func(t testing.TB, m jsonManifest) {
				ts := m.toolset(t, "compute")
				ts["tools"] = ts["tools"].([]any)[:1]
			},
			section: "tools", key: "compute run_command", grade: reach.NoGrade},
		{name: "a server the entry agent holds disconnected: a narrowing, ungraded",
			edit: func(t testing.TB, m jsonManifest) {
				m.toolset(t, "wiki")["connected"] = false
			},
			section: "toolsets", key: "wiki disconnected", grade: reach.NoGrade},
		{name: "a server no agent can call disconnected: info",
			edit: func(t testing.TB, m jsonManifest) {
				m.toolset(t, "github")["connected"] = false
			},
			section: "toolsets", key: "github disconnected", grade: reach.Info},
		{name: "a url moved to another host, for a server the entry agent calls: high, both values shown",
			config: func(c string) string {
				return strings.Replace(c, "https://wiki.example/mcp", "https://wiki.attacker.example/mcp", 1)
			},
			section: "servers", key: "wiki url", grade: reach.High,
			shown: []string{`"https://wiki.example/mcp" -> "https://wiki.attacker.example/mcp", another host answers`}},
		{name: "a url moved to another port: high",
			config: func(c string) string {
				return strings.Replace(c, "https://wiki.example/mcp", "https://wiki.example:8443/mcp", 1)
			},
			section: "servers", key: "wiki url", grade: reach.High},
		{name: "a url downgraded to http: high",
			config: func(c string) string {
				return strings.Replace(c, "https://wiki.example/mcp", "http://wiki.example/mcp", 1)
			},
			section: "servers", key: "wiki url", grade: reach.High},
		{name: "a url whose path alone changed: medium, the same host answers",
			config: func(c string) string {
				return strings.Replace(c, "https://wiki.example/mcp", "https://wiki.example/v2/mcp", 1)
			},
			section: "servers", key: "wiki url", grade: reach.Medium,
			shown: []string{"the same host answers at another path"}},
		{name: "a url moved for a server no agent can call: info",
			config: func(c string) string {
				return strings.Replace(c, "https://api.github.com/mcp", "https://gh.attacker.example/mcp", 1)
			},
			section: "servers", key: "github url", grade: reach.Info},
		{name: "token_env changed, for a server the entry agent calls: high, both names shown",
			config:  func(c string) string { return strings.Replace(c, `"WIKI_TOKEN"`, `"ADMIN_TOKEN"`, 1) },
			section: "servers", key: "wiki token_env", grade: reach.High,
			shown: []string{`MCP server wiki token_env: "WIKI_TOKEN" -> "ADMIN_TOKEN"`}},
		{name: "token_env removed: high",
			config:  func(c string) string { return strings.Replace(c, "token_env = \"WIKI_TOKEN\"\n", "", 1) },
			section: "servers", key: "wiki token_env", grade: reach.High,
			shown: []string{`token_env: "WIKI_TOKEN" -> unset`}},
		{name: "an MCP server added with a token, given to a worker, its tools unknown to the manifest: high, url shown",
			config:  func(c string) string { return addServer(c, "coder", "GITHUB_TOKEN") },
			section: "servers", key: "evil url", grade: reach.High,
			shown: []string{`MCP server evil url: unset -> "https://evil.example.net/mcp", a server added; coder can call it`,
				"toolset evil (mcp) added: no tools; coder can call it"}},
		{name: "an MCP server added with a token, given to a worker: its token_env high, shown",
			config:  func(c string) string { return addServer(c, "coder", "GITHUB_TOKEN") },
			section: "servers", key: "evil token_env", grade: reach.High,
			shown: []string{`MCP server evil token_env: unset -> "GITHUB_TOKEN", the server is sent another credential; coder can call it`}},
		{name: "an MCP server added that the manifest marks not connected, given to the entry agent: high",
			edit: func(_ testing.TB, m jsonManifest) {
				m["toolsets"] = append(m["toolsets"].([]any), map[string]any{"name": "evil", "kind": "mcp", "description": "-", "connected": false,
					"tools": []any{map[string]any{"name": "delete_repo"}}})
			},
			config: func(c string) string {
				return addServer(c, "assistant", "GITHUB_TOKEN")
			},
			section: "servers", key: "evil url", grade: reach.High},
		{name: "an MCP server added without a token, given to a worker: high for its url",
			config:  func(c string) string { return addServer(c, "coder", "") },
			section: "servers", key: "evil url", grade: reach.High},
		{name: "an MCP server added that no agent names: info",
			config:  func(c string) string { return addServer(c, "", "GITHUB_TOKEN") },
			section: "servers", key: "evil token_env", grade: reach.Info},
		{name: "an MCP server an agent calls removed with its name: a narrowing, ungraded",
			config: func(c string) string {
				c = strings.Replace(c, `available = ["time", "wiki"]`, `available = ["time"]`, 1)
				return strings.Replace(c, "[[mcp.server]]\nname = \"wiki\"\nurl = \"https://wiki.example/mcp\"\ntoken_env = \"WIKI_TOKEN\"\n\n", "", 1)
			},
			section: "toolsets", key: "wiki removed", grade: reach.NoGrade},
		{name: "token_env changed for a server no agent can call: info",
			config:  func(c string) string { return strings.Replace(c, `"GH_TOKEN"`, `"ADMIN_TOKEN"`, 1) },
			section: "servers", key: "github token_env", grade: reach.Info},
	}
	oldM := serverManifest(t).load(t, "old.json")
	old := configSide(t, "old.toml", serverConfig, oldM)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := serverManifest(t)
			if tt.edit != nil {
				tt.edit(t, m)
			}
			config := serverConfig
			if tt.config != nil {
				config = tt.config(config)
			}
			newM := m.load(t, "new.json")
			r := diff.Compare(old, configSide(t, "new.toml", config, newM))
			text := reportText(t, r)
			found := false
			var grade reach.Grade
			switch tt.section {
			case "tools":
				for _, c := range r.Manifest.Tools {
					if c.Toolset+" "+c.Tool == tt.key {
						found, grade = true, c.Grade
					}
				}
			case "toolsets":
				for _, c := range r.Manifest.Toolsets {
					if c.Toolset+" "+c.Change == tt.key {
						found, grade = true, c.Grade
					}
				}
			case "servers":
				for _, c := range r.Manifest.Servers {
					if c.Server+" "+c.Field == tt.key {
						found, grade = true, c.Grade
					}
				}
			}
			if !found || grade != tt.grade {
				t.Fatalf("%s %q: found %v, grade %v, want %v\n%s", tt.section, tt.key, found, grade, tt.grade, text)
			}
			if r.Grade < tt.grade {
				t.Errorf("the report's grade %v is below the change's %v", r.Grade, tt.grade)
			}
			if got := r.WidenedCount - agentWidened(r); got != tt.widened {
				t.Errorf("the manifest adds %d to widened_count, want %d\n%s", got, tt.widened, text)
			}
			for _, s := range tt.shown {
				if !strings.Contains(text, s) {
					t.Errorf("the report lacks %q:\n%s", s, text)
				}
			}
			// --fail-on follows the grade: at it fails, above it passes.
			for _, f := range []struct {
				flag string
				at   reach.Grade
			}{{"critical", reach.Critical}, {"high", reach.High}, {"medium", reach.Medium}} {
				if want := r.Grade >= f.at; r.Fails(f.flag) != want {
					t.Errorf("--fail-on %s: fails %v, want %v (grade %v)", f.flag, r.Fails(f.flag), want, r.Grade)
				}
			}
			if tt.grade >= reach.Medium && (r.Digest == "" || len(r.ManifestLines()) == 0) {
				t.Errorf("a %v change leaves no digest line (digest %q)", tt.grade, r.Digest)
			}
			if !strings.HasPrefix(text, "old.toml -> new.toml: ") || !strings.Contains(strings.SplitN(text, "\n", 2)[0], "the manifest differs") && tt.edit != nil {
				t.Errorf("the headline does not say the manifest differs:\n%s", text)
			}
		})
	}
}

// addServer adds the MCP server evil (https://evil.example.net/mcp) to
// serverConfig, with a token_env unless token is "", named in agent's
// available unless agent is "".
func addServer(c, agent, token string) string {
	if agent != "" {
		list := map[string]string{"coder": `available = ["fs", "compute"]`, "assistant": `available = ["time", "wiki"]`}[agent]
		c = strings.Replace(c, list, strings.TrimSuffix(list, "]")+`, "evil"]`, 1)
	}
	c += "\n[[mcp.server]]\nname = \"evil\"\nurl = \"https://evil.example.net/mcp\"\n"
	if token != "" {
		c += "token_env = \"" + token + "\"\n"
	}
	return c
}

// TestTokenEnvAdded: a token_env written where there was none, for a
// server the entry agent calls, is high and names the variable; its
// value is never read.
func TestTokenEnvAdded(t *testing.T) {
	m := serverManifest(t).load(t, "manifest.json")
	without := strings.Replace(serverConfig, "token_env = \"WIKI_TOKEN\"\n", "", 1)
	t.Setenv("WIKI_TOKEN", "s3cr3t-value")
	r := diff.Compare(configSide(t, "old.toml", without, m), configSide(t, "new.toml", serverConfig, m))
	text := reportText(t, r)
	if len(r.Manifest.Servers) != 1 || r.Manifest.Servers[0].Grade != reach.High || !r.Fails("high") {
		t.Fatalf("want one high server change:\n%s", text)
	}
	if !strings.Contains(text, `MCP server wiki token_env: unset -> "WIKI_TOKEN"`) || strings.Contains(text, "s3cr3t") {
		t.Errorf("the report does not show the variable's name alone:\n%s", text)
	}
	if !strings.Contains(strings.SplitN(text, "\n", 2)[0], "1 high; 0 widened, 0 narrowed; 1 MCP server change") {
		t.Errorf("headline: %s", strings.SplitN(text, "\n", 2)[0])
	}
}

// TestURLPasswordHidden: a url's password is never shown, in any format.
func TestURLPasswordHidden(t *testing.T) {
	m := serverManifest(t).load(t, "manifest.json")
	withPass := strings.Replace(serverConfig, "https://wiki.example/mcp", "https://bot:hunter2@wiki.attacker.example/mcp", 1)
	r := diff.Compare(configSide(t, "old.toml", serverConfig, m), configSide(t, "new.toml", withPass, m))
	for _, format := range diff.Formats.Names() {
		var b strings.Builder
		if err := diff.Write(&b, format, r); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "hunter2") {
			t.Errorf("%s shows the password:\n%s", format, b.String())
		}
		if !strings.Contains(b.String(), "wiki.attacker.example") {
			t.Errorf("%s does not show the new host:\n%s", format, b.String())
		}
	}
	if r.Grade != reach.High {
		t.Errorf("grade %v, want high", r.Grade)
	}
}

// TestClearedClassesGradeAsBefore is issue 35's pull request: it clears
// the classes of an MCP server and gives the coder that server. Graded
// with one manifest (the new one on both sides), it is medium and passes
// --fail-on high; each side graded with its own, the new tools are
// judged by the classes the base gave them, which make critical risk
// paths (the lethal combination among them: the coder reads the user's
// files, and the server both feeds it content and carries data out), and
// the run fails.
func TestClearedClassesGradeAsBefore(t *testing.T) {
	base := serverManifest(t)
	cleared := serverManifest(t)
	cleared.toolset(t, "github")["classes"] = []string{}
	oldM, newM := base.load(t, "old.json"), cleared.load(t, "new.json")
	pr := strings.Replace(serverConfig, `available = ["fs", "compute"]`, `available = ["fs", "compute", "github"]`, 1)

	blind := diff.Compare(configSide(t, "old.toml", serverConfig, newM), configSide(t, "new.toml", pr, newM))
	if blind.Grade != reach.Medium || blind.Fails("high") {
		t.Fatalf("with one manifest the change grades %v; the test's premise is medium\n%s", blind.Grade, reportText(t, blind))
	}

	r := diff.Compare(configSide(t, "old.toml", serverConfig, oldM), configSide(t, "new.toml", pr, newM))
	text := reportText(t, r)
	if r.Grade != reach.Critical || !r.Fails("high") || !r.Fails("critical") {
		t.Fatalf("grade %v, want critical and a failed --fail-on high\n%s", r.Grade, text)
	}
	lethal := false
	for _, c := range r.Risks {
		lethal = lethal || c.Path.Lethal && c.Grade == reach.Critical
	}
	if !lethal {
		t.Errorf("no critical lethal combination among the new risk paths:\n%s", text)
	}
	if got := toolGradeIn(r, "coder", "read_issue"); got != reach.High {
		t.Errorf("the coder's new read_issue grades %v, want high (egress, as the base judges it)\n%s", got, text)
	}
	var change *diff.ManifestTool
	for i, c := range r.Manifest.Tools {
		if c.Toolset == "github" && c.Tool == "read_issue" {
			change = &r.Manifest.Tools[i]
		}
	}
	if change == nil || change.Change != "classes" || change.Grade != reach.High || len(change.NewClasses) != 0 ||
		strings.Join(change.Callers, ",") != "coder" {
		t.Errorf("the cleared classes are not a high change for the coder: %+v\n%s", change, text)
	}
	if !strings.Contains(strings.SplitN(text, "\n", 2)[0], "the manifest differs") {
		t.Errorf("the headline does not say the manifest differs:\n%s", text)
	}
}

// TestManifestDigestOnly: two manifests that differ in nothing an agent
// can do (a toolset's description) are still named in the headline of
// every format, with nothing graded.
func TestManifestDigestOnly(t *testing.T) {
	a := serverManifest(t)
	b := serverManifest(t)
	b.toolset(t, "time")["description"] = "Tell the time, and nothing more."
	r := diff.Compare(configSide(t, "old.toml", serverConfig, a.load(t, "old.json")), configSide(t, "new.toml", serverConfig, b.load(t, "new.json")))
	if !r.Manifest.Differs || r.Grade != reach.NoGrade || r.Widened || !r.Empty() || r.Fails("any") {
		t.Fatalf("differs %v, grade %v, widened %v, empty %v", r.Manifest.Differs, r.Grade, r.Widened, r.Empty())
	}
	for _, format := range diff.Formats.Names() {
		var out strings.Builder
		if err := diff.Write(&out, format, r); err != nil {
			t.Fatal(err)
		}
		want := "the manifest differs"
		if format == "json" {
			want = `"differs": true`
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s does not say the manifest differs:\n%s", format, out.String())
		}
	}
	same := diff.Compare(configSide(t, "old.toml", serverConfig, a.load(t, "m.json")), configSide(t, "new.toml", serverConfig, a.load(t, "m.json")))
	if same.Manifest.Differs || strings.Contains(reportText(t, same), "manifest") {
		t.Errorf("one manifest on both sides is reported:\n%s", reportText(t, same))
	}
}

// TestManifestDigestLines: the digest lines name the toolset, tool or
// server, both values and the callers, so that the label accepted for one
// change does not accept another.
func TestManifestDigestLines(t *testing.T) {
	m := serverManifest(t).load(t, "manifest.json")
	old := configSide(t, "old.toml", serverConfig, m)
	digest := func(config string) (string, []string) {
		r := diff.Compare(old, configSide(t, "new.toml", config, m))
		return r.Digest, r.ManifestLines()
	}
	d1, l1 := digest(strings.Replace(serverConfig, "https://wiki.example/mcp", "https://a.example/mcp", 1))
	d2, _ := digest(strings.Replace(serverConfig, "https://wiki.example/mcp", "https://b.example/mcp", 1))
	d3, _ := digest(strings.Replace(serverConfig, `"WIKI_TOKEN"`, `"B_TOKEN"`, 1))
	want := `mcp-server "wiki" url "https://wiki.example/mcp" -> "https://a.example/mcp" callers ["assistant"] high`
	if len(l1) != 1 || l1[0] != want {
		t.Errorf("lines %q, want [%q]", l1, want)
	}
	if d1 == "" || d1 == d2 || d1 == d3 || d2 == d3 {
		t.Errorf("digests %q, %q, %q are not distinct", d1, d2, d3)
	}
}

// caseManifests are the manifests of a golden case's two sides: its
// old.manifest.json and new.manifest.json, or its manifest.json for both,
// or def, each named by its base name.
func caseManifests(t testing.TB, dir string, def *lint.Manifest) (oldM, newM *lint.Manifest) {
	t.Helper()
	read := func(name string, or *lint.Manifest) *lint.Manifest {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return or
		}
		m := lint.LoadManifest(lint.Source{Name: name, Data: data})
		if err := m.Err(); err != nil {
			t.Fatal(err)
		}
		return m
	}
	both := read("manifest.json", def)
	return read("old.manifest.json", both), read("new.manifest.json", both)
}

// TestManifestGoldenGrades holds the golden cases of the manifest and MCP
// servers to their grades and exit codes, apart from their goldens.
func TestManifestGoldenGrades(t *testing.T) {
	tests := []struct {
		name    string
		grade   reach.Grade
		failsOn string // the highest --fail-on the case fails
	}{
		// The cleared classes still grade: the base's judge the coder's
		// new tools, with the lethal combination among the risk paths.
		{"manifest-classes-cleared", reach.Critical, "critical"},
		// Another host, and a credential sent to it: high, widening nothing.
		{"mcp-server-moved", reach.High, "high"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(golden.Root(t), "testdata", "diff", tt.name)
			om, nm := caseManifests(t, dir, lint.DefaultManifest())
			r := diff.Compare(side(t, filepath.Join(dir, "old.toml"), om), side(t, filepath.Join(dir, "new.toml"), nm))
			if r.Grade != tt.grade {
				t.Errorf("grade %v, want %v\n%s", r.Grade, tt.grade, reportText(t, r))
			}
			for i, f := range diff.FailOn[:3] {
				if want := i >= slicesIndex(diff.FailOn, tt.failsOn); r.Fails(f) != want {
					t.Errorf("--fail-on %s: fails %v, want %v", f, r.Fails(f), want)
				}
			}
			if !r.Fails("any") {
				t.Error("--fail-on any passes")
			}
		})
	}
}

func slicesIndex(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// TestServerConnected: an MCP server the manifest marks connected, where
// the base marked it not, gives its tools to the agents that hold it:
// graded as their widened tools are (an MCP server's tools are
// untrusted-input and egress, so high), listed under each agent with the
// manifest as the cause, and counted there once. A server no agent holds
// connected is info.
func TestServerConnected(t *testing.T) {
	before := serverManifest(t)
	before.toolset(t, "wiki")["connected"] = false
	before.toolset(t, "github")["connected"] = false
	r := diff.Compare(configSide(t, "old.toml", serverConfig, before.load(t, "old.json")),
		configSide(t, "new.toml", serverConfig, serverManifest(t).load(t, "new.json")))
	text := reportText(t, r)
	grades := map[string]reach.Grade{}
	for _, c := range r.Manifest.Toolsets {
		grades[c.Toolset+" "+c.Change] = c.Grade
	}
	if grades["wiki connected"] != reach.High || grades["github connected"] != reach.Info || len(grades) != 2 {
		t.Errorf("toolset changes %v, want wiki connected high and github connected info\n%s", grades, text)
	}
	if r.WidenedCount != agentWidened(r) || r.WidenedCount != 2 || !r.Widened || !r.Fails("high") {
		t.Errorf("widened_count %d, the agents' %d; want the two wiki tools, counted once\n%s", r.WidenedCount, agentWidened(r), text)
	}
	if !strings.Contains(text, `the MCP server "wiki" is now connected (the manifest) (new.json toolsets["wiki"].connected)`) {
		t.Errorf("the agent's tool changes do not name the manifest as the cause:\n%s", text)
	}
}

// TestServerNewlyCalled: a server declared with no caller in one pull
// request and named in an agent's available in the next is graded when
// the second names it: the agent now connects to its url with its
// token, and when the manifest lists none of its tools nothing else in
// the report shows it. A server whose tools the manifest lists is graded
// by the tools the agent gains instead.
func TestServerNewlyCalled(t *testing.T) {
	m := serverManifest(t).load(t, "manifest.json")
	r := diff.Compare(configSide(t, "old.toml", addServer(serverConfig, "", "GITHUB_TOKEN"), m),
		configSide(t, "new.toml", addServer(serverConfig, "coder", "GITHUB_TOKEN"), m))
	text := reportText(t, r)
	got := map[string]reach.Grade{}
	for _, c := range r.Manifest.Servers {
		got[c.Server+" "+c.Field] = c.Grade
	}
	if got["evil url"] != reach.High || got["evil token_env"] != reach.High || len(got) != 2 || !r.Fails("high") || r.Digest == "" {
		t.Errorf("server changes %v, want evil's url and token_env high:\n%s", got, text)
	}
	if want := `MCP server evil url: "https://evil.example.net/mcp", unchanged, newly called (the manifest lists none of its tools); coder can call it`; !strings.Contains(text, want) {
		t.Errorf("the report lacks %q:\n%s", want, text)
	}
	gh := diff.Compare(configSide(t, "old.toml", serverConfig, m),
		configSide(t, "new.toml", strings.Replace(serverConfig, `available = ["fs", "compute"]`, `available = ["fs", "compute", "github"]`, 1), m))
	if len(gh.Manifest.Servers) != 0 || gh.Grade < reach.High || toolGradeIn(gh, "coder", "read_issue") != reach.High {
		t.Errorf("github given to the coder: %d server changes, graded %v; want its tool graded high instead, and no server change:\n%s", len(gh.Manifest.Servers), gh.Grade, reportText(t, gh))
	}
}
