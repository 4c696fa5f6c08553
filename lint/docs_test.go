package lint

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

var fence = regexp.MustCompile("(?s)```(toml|json|text)\n(.*?)```")

// TestRuleDocs checks every rule's page docs/rules/<id>.md: it states the
// rule's severity, phase and rules.md numbers, its ## Fix section says what
// kokua-lint --fix does for it (checkFixDocs), and its example's output is
// exactly what the linter prints for the example's config (and manifest,
// when the page gives one).
func TestRuleDocs(t *testing.T) {
	for _, r := range rules.All() {
		t.Run(r.ID, func(t *testing.T) {
			path := filepath.Join("..", "docs", "rules", r.ID+".md")
			page, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("rule %s has no doc page: %v", r.ID, err)
			}
			text := string(page)
			if !strings.HasPrefix(text, "# "+r.ID+"\n") {
				t.Errorf("%s should open with the heading # %s", path, r.ID)
			}
			for _, want := range append([]string{r.Severity.String(), string(r.Phase)}, r.Refs...) {
				if !strings.Contains(text, want) {
					t.Errorf("%s does not mention %q", path, want)
				}
			}
			checkFixDocs(t, path, text, r)
			// A block after <!-- test: FILE --> is that golden file.
			golden.DocBlocks(t, filepath.Join("..", ""), page, path)
			_, example, ok := strings.Cut(text, "\n## Example\n")
			if !ok {
				t.Fatalf("%s has no ## Example section", path)
			}
			blocks := map[string]string{}
			for _, m := range fence.FindAllStringSubmatch(example, -1) {
				if _, seen := blocks[m[1]]; !seen {
					blocks[m[1]] = m[2]
				}
			}
			if blocks["toml"] == "" || blocks["text"] == "" {
				t.Fatalf("%s: the example needs a ```toml config and the ```text output", path)
			}
			m := DefaultManifest()
			if js, ok := blocks["json"]; ok {
				m = LoadManifest(Source{Name: "manifest.json", Data: []byte(js)})
			}
			cfg := []byte(blocks["toml"])
			res := Lint(Source{Name: "config.toml", Data: cfg}, m)
			var got bytes.Buffer
			if err := Write(&got, "human", res.Diagnostics, WriteOptions{Sources: map[string][]byte{"config.toml": cfg, m.Source.Name: m.Source.Data}}); err != nil {
				t.Fatal(err)
			}
			if got.String() != blocks["text"] {
				t.Errorf("%s: the example's output is not what kokua-lint prints:\n--- printed\n%s--- documented\n%s", path, got.String(), blocks["text"])
			}
			if !strings.Contains(got.String(), "["+r.ID+"]") {
				t.Errorf("%s: the example does not trigger %s", path, r.ID)
			}
			for _, d := range res.Diagnostics {
				for _, f := range d.Fixes {
					if d.Rule == r.ID && !r.Fixes.Allows(f.Safe) {
						t.Errorf("%s: the example gets a fix %q (safe: %v), but the rule declares fixes %q", path, f.Title, f.Safe, r.Fixes)
					}
				}
			}
		})
	}
}

// safety is how a rule page names the safety of its fixes: in bold, as
// rules.Fixes.String() writes it.
var safety = regexp.MustCompile(`\*\*(safe|unsafe|safe and unsafe)\*\*`)

// checkFixDocs holds a rule page's ## Fix section to the fixes the rule
// declares (rules.Rule.Fixes). A rule with fixes says what kokua-lint --fix
// does and names their safety in bold, exactly as Fixes.String() does and
// nothing else; one with unsafe fixes names --unsafe-fixes, which they
// need. A rule with none does not speak of --fix at all, so a page cannot
// promise a fix the rule does not make.
func checkFixDocs(t *testing.T, path, text string, r *rules.Rule) {
	t.Helper()
	_, section, ok := strings.Cut(text, "\n## Fix\n")
	if !ok {
		t.Errorf("%s has no ## Fix section", path)
		return
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	named := map[string]bool{}
	for _, m := range safety.FindAllStringSubmatch(section, -1) {
		named[m[1]] = true
	}
	if r.Fixes == 0 {
		if strings.Contains(section, "--fix") || strings.Contains(section, "--unsafe-fixes") || len(named) > 0 {
			t.Errorf("%s: rule %s attaches no fixes, but its ## Fix section speaks of --fix or names a safety", path, r.ID)
		}
		return
	}
	want := r.Fixes.String()
	if !strings.Contains(section, "`kokua-lint --fix") {
		t.Errorf("%s: rule %s attaches %s fixes, but its ## Fix section does not say what `kokua-lint --fix` does", path, r.ID, want)
	}
	if len(named) != 1 || !named[want] {
		t.Errorf("%s: the ## Fix section should name the fixes' safety as **%s**, and no other; it names %v", path, want, slices.Sorted(maps.Keys(named)))
	}
	if r.Fixes&rules.UnsafeFixes != 0 && !strings.Contains(section, "--unsafe-fixes") {
		t.Errorf("%s: rule %s attaches unsafe fixes, which only --unsafe-fixes makes, and its ## Fix section does not say so", path, r.ID)
	}
}
