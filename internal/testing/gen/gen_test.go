package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/lint"
)

// sizes are the shapes the tests lint: tiny installs, the benchmark's
// shapes, and sizes that are not multiples of anything the generator uses.
var sizes = []struct{ agents, toolsets int }{
	{1, 1}, {1, 3}, {2, 1}, {3, 8}, {7, 15}, {10, 20}, {41, 41}, {100, 200}, {251, 97}, {1000, 200},
}

func lintGenerated(t *testing.T, agents, toolsets int) []diag.Diagnostic {
	t.Helper()
	m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(toolsets)})
	if err := m.Err(); err != nil {
		t.Fatalf("gen.Manifest(%d) does not follow the manifest format: %v", toolsets, err)
	}
	return engine.Run(lint.Source{Name: "config.toml", Data: gen.Config(agents, toolsets)}, m).Diagnostics
}

// TestConfigLintsClean lints generated configs: no error and no info
// finding, and only the shadowed-tool warnings the generator plants on
// purpose (one agent in 250).
func TestConfigLintsClean(t *testing.T) {
	for _, s := range sizes {
		t.Run(fmt.Sprintf("agents=%d,toolsets=%d", s.agents, s.toolsets), func(t *testing.T) {
			ds := lintGenerated(t, s.agents, s.toolsets)
			warnings := 0
			for _, d := range ds {
				if d.Severity == diag.Warning && d.Rule == "shadowed-tool" {
					warnings++
				} else {
					t.Errorf("unexpected finding: %v", d)
				}
			}
			if limit := s.agents/250 + 1; warnings > limit {
				t.Errorf("%d shadowed-tool warnings, want at most %d", warnings, limit)
			}
		})
	}
}

// TestConfigShadows checks that the large config does give the shadow check
// something to report.
func TestConfigShadows(t *testing.T) {
	n := 0
	for _, d := range lintGenerated(t, 1000, 200) {
		if d.Rule == "shadowed-tool" {
			n++
		}
	}
	if n == 0 {
		t.Error("gen.Config(1000, 200) plants no shadowed tool")
	}
}

func TestDeterministic(t *testing.T) {
	for _, s := range sizes {
		if a, b := gen.Config(s.agents, s.toolsets), gen.Config(s.agents, s.toolsets); !bytes.Equal(a, b) {
			t.Errorf("gen.Config(%d, %d) differs between two calls", s.agents, s.toolsets)
		}
		if a, b := gen.Manifest(s.toolsets), gen.Manifest(s.toolsets); !bytes.Equal(a, b) {
			t.Errorf("gen.Manifest(%d) differs between two calls", s.toolsets)
		}
	}
}

// TestShape checks the promised shape: the agent and toolset counts, 3 to
// 8 tools per toolset, some tool names shared, 8 to 15 toolsets per agent.
func TestShape(t *testing.T) {
	var m struct {
		Toolsets []struct {
			Name  string
			Kind  string
			Tools []struct{ Name string }
		}
	}
	if err := json.Unmarshal(gen.Manifest(200), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Toolsets) != 200 || m.Toolsets[0].Name != "t000" || m.Toolsets[199].Name != "t199" {
		t.Fatalf("want toolsets t000..t199, got %d", len(m.Toolsets))
	}
	offered := map[string]int{}
	for _, ts := range m.Toolsets {
		if ts.Kind != "kokua" || len(ts.Tools) < 3 || len(ts.Tools) > 8 {
			t.Errorf("%s: kind %s with %d tools, want kokua with 3 to 8", ts.Name, ts.Kind, len(ts.Tools))
		}
		for _, tool := range ts.Tools {
			offered[tool.Name]++
		}
	}
	sharedNames := 0
	for _, n := range offered {
		if n > 1 {
			sharedNames++
		}
	}
	if sharedNames == 0 {
		t.Error("no tool name is offered by two toolsets")
	}

	cfg := string(gen.Config(1000, 200))
	if n := strings.Count(cfg, "\n[agents."); n != 2000 {
		t.Errorf("%d [agents.*] tables, want 2000 (1000 agents and their tools tables)", n)
	}
	res := engine.Run(lint.Source{Name: "config.toml", Data: []byte(cfg)},
		lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(200)}))
	if res.World == nil {
		t.Fatal("no world built")
	}
	for _, a := range res.Config.Agents {
		if n := len(a.Tools.Available.Items); n < 8 || n > 15 {
			t.Errorf("agent %s holds %d toolsets, want 8 to 15", a.Name, n)
		}
	}
}
