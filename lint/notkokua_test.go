package lint

import (
	"strings"
	"testing"
)

// TestNoAdviceThatOverwrites (issue 38): a file that is not a Kokua config
// is named for what it is, and no-agents' help never tells its owner to
// overwrite it (`kokua config init --force`); a Kokua config that declares
// no agents keeps R114's advice, which names both ways.
func TestNoAdviceThatOverwrites(t *testing.T) {
	overwrites := func(help string) bool {
		return strings.Contains(help, "--force") || strings.Contains(help, "overwrite") || strings.Contains(help, "config init")
	}
	tests := []struct {
		name, data string
		// says is what the message must say the file is.
		says string
		// help must be in the help line.
		help string
		// kokua: the file is a Kokua config, which keeps R114's advice.
		kokua bool
	}{
		{"empty", "", "the file is empty", "[agents.<name>]", false},
		{"blank lines", "\n\n  \n", "the file is empty", "[agents.<name>]", false},
		{"only comments", "# a config to come\n\n# more\n", "the file holds only comments", "below the comments", false},
		{"Cargo's config.toml", "[build]\ntarget = \"x86_64\"\n", "none of Kokua's tables (it has [build])", "--only-kokua", false},
		{"Hugo's config.toml with [security]", "baseURL = \"x\"\n[security]\nenableInlineShortcodes = true\n", "none of Kokua's tables (it has [baseURL], [security])", "--only-kokua", false},
		{"a policy test file", "[[expect]]\nname = \"n\"\nagent = \"a\"\ntool = \"web\"\ndecision = \"runs\"\n", "a policy test file", "kokua-compile test CONFIG x.toml", false},
		{"Kokua's [assistant] alone", "[assistant]\nagent = \"assistant\"\n", "the config declares no agents", "kokua config init --force", true},
	}
	for _, tt := range tests {
		res := Lint(Source{Name: "x.toml", Data: []byte(tt.data)}, DefaultManifest())
		var found bool
		for _, d := range res.Diagnostics {
			if d.Rule != "no-agents" {
				continue
			}
			found = true
			if !strings.Contains(d.Message, tt.says) {
				t.Errorf("%s: the message %q does not say %q", tt.name, d.Message, tt.says)
			}
			if !strings.Contains(d.Suggestion, tt.help) {
				t.Errorf("%s: the help %q does not say %q", tt.name, d.Suggestion, tt.help)
			}
			if !tt.kokua && overwrites(d.Suggestion) {
				t.Errorf("%s: the help advises overwriting a file that is not a Kokua config: %q", tt.name, d.Suggestion)
			}
		}
		if !found {
			t.Errorf("%s: no no-agents finding: %v", tt.name, res.Diagnostics)
		}
		if res.Kokua != tt.kokua {
			t.Errorf("%s: Kokua %v, want %v", tt.name, res.Kokua, tt.kokua)
		}
	}
}
