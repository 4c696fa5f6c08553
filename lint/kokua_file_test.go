package lint

import "testing"

// TestIsKokuaConfig: the files pre-commit hands the hooks under the name
// config.toml, Kokua's and other programs', and which are Kokua's, as
// IsKokuaConfig and Lint's Result.Kokua both say.
func TestIsKokuaConfig(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"empty", "", false},
		{"comments only", "# nothing yet\n", false},
		{"cargo", "[build]\ntarget = \"x86_64-unknown-linux-gnu\"\n\n[target.x86_64-unknown-linux-gnu]\nlinker = \"clang\"\n\n[alias]\nb = \"build\"\n", false},
		{"hugo", "baseURL = \"https://example.org/\"\ntitle = \"Site\"\n\n[params]\nauthor = \"me\"\n\n[markup.goldmark.renderer]\nunsafe = true\n", false},
		{"hugo with security", "[security]\nenableInlineShortcodes = false\n[security.exec]\nallow = ['^go$']\n", false},
		{"assistant", "[assistant]\nagent = \"assistant\"\n", true},
		{"agents dotted", "agents.coder.description = \"x\"\n", true},
		{"reviewers", "[reviewers.strict]\nmodel = \"m\"\n", true},
		{"mcp servers", "[[mcp.server]]\nname = \"x\"\n", true},
		{"old tools table", "[tools]\nenabled = [\"fs\"]\n", true},
		{"security floor", "[security]\nnever_auto_approve = []\n", true},
		{"security auto approval", "[security.auto_approval]\nenabled = true\n", true},
		{"broken kokua", "[assistant]\nagent = \n", true},
		{"broken kokua table header", "[agents.coder.tools]\navailable = [\n", true},
		// issue 21: an unclosed Kokua header was "not a Kokua config".
		{"unclosed kokua header", "[assistant\nagent = \"assistant\"\n", true},
		{"unclosed kokua header, CRLF", "[agents\r\n", true},
		{"unclosed other header", "[assistants\nx = 1\n", false},
		{"unclosed hugo security header", "[security\nexec = 1\n", false},
		{"broken other", "[build]\ntarget = \n", false},
		{"broken hugo security", "[security]\nexec = \n", false},
	} {
		src := Source{Name: "config.toml", Data: []byte(c.text)}
		if got := IsKokuaConfig(src); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if got := Lint(src, DefaultManifest()).Kokua; got != c.want {
			t.Errorf("%s: Result.Kokua %v, want %v", c.name, got, c.want)
		}
	}
}
