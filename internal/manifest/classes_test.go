package manifest

import (
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/kokua"
)

// TestClasses: a toolset's and a tool's classes are read as written, each
// a name kokua.Classes lists, once; anything else is one problem at the
// value, naming the classes.
func TestClasses(t *testing.T) {
	for _, c := range []struct {
		name, toolset, tool string
		want, wantTool      []kokua.Class
		set, toolSet        bool
		problem             string
	}{
		{name: "none written"},
		{name: "toolset", toolset: `"classes": ["exec", "egress"],`, want: []kokua.Class{kokua.Exec, kokua.Egress}, set: true},
		{name: "empty clears", toolset: `"classes": [],`, want: []kokua.Class{}, set: true},
		{name: "tool", tool: `, "classes": ["self-modify"]`, wantTool: []kokua.Class{kokua.SelfModify}, toolSet: true},
		{name: "unknown", toolset: `"classes": ["shell"],`, problem: `toolset "t" has class "shell"; the classes are untrusted-input, exec, write, self-modify, persist, egress, private-data`},
		{name: "twice", tool: `, "classes": ["exec", "exec"]`, problem: `has class "exec" twice`},
		{name: "not a string", toolset: `"classes": [1],`, problem: `classes[0] must be a string, not a number`},
		{name: "not an array", toolset: `"classes": "exec",`, problem: `classes must be an array, not a string`},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := `{"manifest_version": 1, "toolsets": [{"name": "t", "kind": "kokua", "description": "d", ` + c.toolset +
				` "tools": [{"name": "x"` + c.tool + `}]}]}`
			m, problems := Load("m.json", []byte(doc))
			if c.problem != "" {
				if m != nil || len(problems) != 1 || !strings.Contains(problems[0].Message, c.problem) {
					t.Fatalf("got %v; want one problem saying %q", problems, c.problem)
				}
				return
			}
			if m == nil {
				t.Fatalf("refused: %v", problems)
			}
			ts := m.Toolsets[0]
			if ts.ClassesSet != c.set || !slices.Equal(ts.Classes, c.want) || ts.Tools[0].ClassesSet != c.toolSet || !slices.Equal(ts.Tools[0].Classes, c.wantTool) {
				t.Errorf("toolset %v (%v), tool %v (%v)", ts.Classes, ts.ClassesSet, ts.Tools[0].Classes, ts.Tools[0].ClassesSet)
			}
		})
	}
}

// TestDefaultClasses: the embedded manifest tags the toolsets
// docs/manifest.md gives a reason for, and every tag is a class.
func TestDefaultClasses(t *testing.T) {
	m, problems := Load(DefaultManifestName, DefaultManifest())
	if m == nil {
		t.Fatal(problems)
	}
	tagged := map[string][]kokua.Class{}
	for _, ts := range m.Toolsets {
		if ts.ClassesSet {
			tagged[ts.Name] = ts.Classes
		}
		for _, tool := range ts.Tools {
			if tool.ClassesSet {
				tagged[ts.Name+"."+tool.Name] = tool.Classes
			}
		}
	}
	want := map[string][]kokua.Class{
		"web":                    {kokua.UntrustedInput, kokua.Egress},
		"compute.execute_python": {kokua.Exec},
		"compute.run_command":    {kokua.Exec},
		"fs_write":               {kokua.Write, kokua.SelfModify},
		"skills":                 {kokua.SelfModify},
		"mcp":                    {kokua.SelfModify},
		"config.update_config":   {kokua.SelfModify},
		"scheduling":             {kokua.Persist},
		"github_backup":          {kokua.Egress, kokua.PrivateData},
		"fs":                     {kokua.PrivateData},
		"memory":                 {kokua.PrivateData},
		"conversations":          {kokua.PrivateData},
		"documents":              {kokua.PrivateData},
	}
	if len(tagged) != len(want) {
		t.Errorf("tagged %v; want %v", tagged, want)
	}
	for k, v := range want {
		if !slices.Equal(tagged[k], v) {
			t.Errorf("%s: %v, want %v", k, tagged[k], v)
		}
	}
}
