package kokua

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		text          string
		toolset, tool string
		fault         EntryFault
		whole         bool
	}{
		{"fs_write", "fs_write", "", EntryOK, true},
		{"fs_write.*", "fs_write", "", EntryOK, true},
		{"compute.execute_python", "compute", "execute_python", EntryOK, false},
		{"core", "core", "", EntryOK, true},
		{"core.load_tools", "core", "load_tools", EntryOK, false},
		{"compute.sub.execute_python", "", "", TooManyDots, false},
		{"*", "*", "", BadStar, false},
		{"*.run_command", "*", "run_command", BadStar, false},
		{"comp*.execute_python", "comp*", "execute_python", BadStar, false},
		{"compute.exec*", "compute", "exec*", BadStar, false},
		{"compute.", "compute", "", EmptyTool, false},
		{".x", "", "x", EmptyToolset, false},
		{"", "", "", EmptyToolset, false},
	}
	for _, tt := range tests {
		e := ParseEntry(tt.text)
		if e.Toolset != tt.toolset || e.Tool != tt.tool || e.Fault != tt.fault || e.Whole() != tt.whole {
			t.Errorf("ParseEntry(%q) = %+v whole=%v, want toolset %q tool %q fault %d whole %v",
				tt.text, e, e.Whole(), tt.toolset, tt.tool, tt.fault, tt.whole)
		}
	}
}

// TestOverlap follows R87 and R88: the same toolset with one side whole,
// or the same tool, overlaps by text; two tools of one toolset do not.
func TestOverlap(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"mcp.add_mcp_server", "mcp", true},
		{"mcp.*", "mcp.add_mcp_server", true},
		{"skills.add_skill_script", "skills.add_skill_script", true},
		{"core", "core.load_tools", true},
		{"mcp.add_mcp_server", "mcp.remove_mcp_server", false},
		{"fs.read_file", "files", false},
		{"comp*.x", "comp*.x", false},
	}
	for _, tt := range tests {
		if got := EntriesOverlap(ParseEntry(tt.a), ParseEntry(tt.b)); got != tt.want {
			t.Errorf("EntriesOverlap(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
