package lint

import "testing"

// TestUnusedSectionOnlyComments (issue 38): a toolset's section that no
// agent declares is unused-section only when it sets something: a header
// over settings all commented out, as Kokua's own examples write
// [github_backup], is no finding, so a migrated example passes
// --fail-on warning; a key or a sub-table is still one.
func TestUnusedSectionOnlyComments(t *testing.T) {
	const head = "[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant.tools]\navailable = [\"memory\", \"config\", \"time\"]\n\n"
	for _, c := range []struct {
		name, section string
		unused        bool
	}{
		{"only comments", "[github_backup]\n# repo = \"me/kokua-state\"\n# branch = \"main\"\n", false},
		{"empty", "[github_backup]\n", false},
		{"a key", "[github_backup]\nrepo = \"me/kokua-state\"\n", true},
		{"a key and comments", "[github_backup]\n# the repository\nrepo = \"me/kokua-state\"\n", true},
		{"a sub-table", "[github_backup]\n# nothing here\n[github_backup.schedule]\n", true},
	} {
		res := Lint(Source{Name: "config.toml", Data: []byte(head + c.section)}, DefaultManifest())
		got := false
		for _, d := range res.Diagnostics {
			got = got || d.Rule == "unused-section"
			if d.Rule != "unused-section" {
				t.Errorf("%s: another finding: %s", c.name, d.Text())
			}
		}
		if got != c.unused {
			t.Errorf("%s: unused-section %v, want %v", c.name, got, c.unused)
		}
	}
}
