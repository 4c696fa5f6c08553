package config

import "testing"

func TestKeyPath(t *testing.T) {
	tests := []struct {
		table []string
		key   string
		want  string
	}{
		{[]string{"agents", "coder", "tools"}, "confirm", "[agents.coder.tools].confirm"},
		{[]string{"agents", "composed:x"}, "tools", `[agents."composed:x"].tools`},
		{[]string{"mcp", "server"}, "url", "[[mcp.server]].url"},
		{[]string{"security"}, "a b", `[security]."a b"`},
	}
	for _, tt := range tests {
		if got := KeyPath(tt.table, tt.key); got != tt.want {
			t.Errorf("KeyPath(%v, %q) = %s, want %s", tt.table, tt.key, got, tt.want)
		}
	}
}
