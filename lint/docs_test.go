package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/rules"
)

var fence = regexp.MustCompile("(?s)```(toml|json|text)\n(.*?)```")

// TestRuleDocs checks every rule's page docs/rules/<id>.md: it states the
// rule's severity, phase and rules.md numbers, and its example's output is
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
		})
	}
}
