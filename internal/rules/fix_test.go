package rules

import (
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// TestRewritesKeepAValidString: a rewrite keeps the form of the string it
// replaces, a literal one literal, unless the candidate cannot be written
// so (a single quote, a line feed, a character a basic string escapes):
// then it is written as an escaped basic string, and the file reads back
// the candidate. Each rewrite is local (diag.Fix.Local) and has the
// safety asked for.
func TestRewritesKeepAValidString(t *testing.T) {
	for _, c := range []struct {
		value, candidate, want string
	}{
		{`'fs_writ'`, "fs_write", `'fs_write'`},
		{`"fs_writ"`, "fs_write", `"fs_write"`},
		{`'fs_writ'`, "it's", `"it's"`},
		{`'fs_writ'`, `back\slash`, `"back\\slash"`},
		{`'fs_writ'`, "two\nlines", `"two\nlines"`},
		{`"fs_writ"`, "it's", `"it's"`},
	} {
		for _, safe := range []bool{true, false} {
			doc := "x = " + c.value + "\n"
			cfg, err := config.Load("config.toml", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			p := &Pass{Input: &Input{ConfigFile: "config.toml", Config: cfg}}
			fixes := p.rewrites(cfg.Root.Get("x").Span(), safe, c.candidate)
			if len(fixes) != 1 || len(fixes[0].Edits) != 1 {
				t.Fatalf("%s -> %q: %v", c.value, c.candidate, fixes)
			}
			f := fixes[0]
			if f.Edits[0].New != c.want || f.Safe != safe || !f.Local || f.Title != "Write "+c.want {
				t.Errorf("%s -> %q: %+v, want %s, safe %v, local", c.value, c.candidate, f, c.want, safe)
			}
			e := f.Edits[0]
			root, err := tomlpos.Parse("config.toml", []byte(doc[:e.Start]+e.New+doc[e.End:]))
			if err != nil || root.Get("x").Str != c.candidate {
				t.Errorf("%s -> %q: the file does not read back the candidate: %v", c.value, c.candidate, err)
			}
		}
	}
	// A span that is not a string gets no rewrite.
	cfg, _ := config.Load("config.toml", []byte("x = 1\n"))
	p := &Pass{Input: &Input{ConfigFile: "config.toml", Config: cfg}}
	if got := p.rewrites(cfg.Root.Get("x").Span(), true, "a"); got != nil {
		t.Errorf("a number rewritten: %v", got)
	}
}
