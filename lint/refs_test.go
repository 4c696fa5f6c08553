package lint

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/rules"
)

// The documents a user reads: README.md and every page under docs/.
func userDocs(t *testing.T) map[string]string {
	t.Helper()
	docs := map[string]string{}
	err := filepath.WalkDir(filepath.Join("..", "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".md", ".json", ".yaml":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		docs[filepath.ToSlash(strings.TrimPrefix(p, ".."+string(filepath.Separator)))] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs["README.md"] = string(b)
	return docs
}

var (
	specNumber = regexp.MustCompile(`\b[RA][0-9]{1,3}\b`)
	sourceLine = regexp.MustCompile(`Source:\s+\S`)
)

// semanticsEntries are the numbers docs/semantics.md defines: one
// "#### R118" heading each, whose anchor is #r118, and a text that ends
// by saying where the fact comes from.
func semanticsEntries(t *testing.T, page string) map[string]bool {
	t.Helper()
	defined := map[string]bool{}
	heading := regexp.MustCompile(`(?m)^#{2,4} `)
	for _, m := range regexp.MustCompile(`(?m)^#### ([RA][0-9]{1,3})\n`).FindAllStringSubmatchIndex(page, -1) {
		n := page[m[2]:m[3]]
		if defined[n] {
			t.Errorf("docs/semantics.md defines %s twice", n)
		}
		defined[n] = true
		body := page[m[1]:]
		if next := heading.FindStringIndex(body); next != nil {
			body = body[:next[0]]
		}
		if !sourceLine.MatchString(body) {
			t.Errorf("docs/semantics.md: %s does not say where it comes from (Source: ...)", n)
		}
	}
	return defined
}

// TestEveryNumberDefined checks that every rules.md number a user is shown,
// in a finding's refs (the rules' Refs, which --list-rules and SARIF print
// too), in README.md or on a page under docs/, has its entry in
// docs/semantics.md, the page the rule pages and the SARIF help link to.
func TestEveryNumberDefined(t *testing.T) {
	docs := userDocs(t)
	defined := semanticsEntries(t, docs["docs/semantics.md"])
	if len(defined) == 0 {
		t.Fatal("docs/semantics.md defines no number")
	}
	shown := map[string][]string{}
	for _, r := range rules.All() {
		for _, ref := range r.Refs {
			shown[ref] = append(shown[ref], "the Refs of rule "+r.ID)
		}
	}
	for name, text := range docs {
		for _, n := range specNumber.FindAllString(text, -1) {
			if !slices.Contains(shown[n], name) {
				shown[n] = append(shown[n], name)
			}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(shown)) {
		if !defined[n] {
			t.Errorf("%s is shown in %s but docs/semantics.md has no entry #### %s", n, strings.Join(shown[n], ", "), n)
		}
	}
	// The SARIF help (kokua-lint --list-rules --format sarif, and every
	// SARIF log) links each number to its entry.
	for _, r := range rules.All() {
		d := sarifRule(r.ID, r.Severity, r.Phase, r.Summary, r.Refs)
		for _, ref := range r.Refs {
			if want := SARIFSemanticsURI + "#" + strings.ToLower(ref); !strings.Contains(*d.Help.Markdown, "("+want+")") {
				t.Errorf("rule %s: the SARIF help does not link %s to %s:\n%s", r.ID, ref, want, *d.Help.Markdown)
			}
		}
		if len(r.Refs) > 0 && !strings.Contains(*d.Help.Text, SARIFSemanticsURI) {
			t.Errorf("rule %s: the SARIF help text does not name %s", r.ID, SARIFSemanticsURI)
		}
	}
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
	fencedMD  = regexp.MustCompile("(?ms)^ *```.*?^ *```")
	// A path a page names: a run of path characters with a slash in it.
	namedPath = regexp.MustCompile(`[A-Za-z0-9_.<>*-]+(?:/[A-Za-z0-9_.<>*-]*)+`)
	// rules.md on its own, not docs/rules/<id>.md: the catalogue the
	// project was specified from, which is not in the repository.
	bareRulesMD = regexp.MustCompile(`(?:^|[^A-Za-z0-9_/-])rules\.md\b`)
)

// anchors are the fragment names GitHub gives a page's headings.
func anchors(page string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, m := range mdHeading.FindAllStringSubmatch(fencedMD.ReplaceAllString(page, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// repoRoots are the names a repository path may start with: the
// repository's top-level entries, and the packages under internal/ (a
// path like config/schema.go names a package that moved there).
func repoRoots(t *testing.T) map[string]bool {
	t.Helper()
	roots := map[string]bool{}
	for _, dir := range []string{"..", filepath.Join("..", "internal")} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			roots[e.Name()] = true
		}
	}
	delete(roots, ".git")
	return roots
}

// notRepoPaths are paths the pages name that are, by design, not files of
// this repository: the reader's own files, and paths relative to a package.
var notRepoPaths = map[string]string{
	".github/workflows/kokua-lint.yml":        "the workflow a user adds to their repository",
	".github/workflows/kokua-policy.yml":      "the workflow a user adds to their repository",
	"testdata/fuzz/":                          "go test's seed folder, in each package with a fuzz target",
	"testdata/fuzz/<target>/":                 "go test's seed folder, in each package with a fuzz target",
	"testdata/formats/<case>/want.sarif.json": "lint's golden cases, lint/testdata/formats",
	"testdata/formats/mixed-severities":       "lint's golden case, lint/testdata/formats",
}

// TestDocReferencesResolve checks README.md and the pages under docs/:
// every relative link leads to a file of the repository (and its #anchor to
// a heading of that page), every repository path a page names exists (from
// the repository's root or from the page's folder), and no page or schema
// under docs/ sends the reader to rules.md, which is not in the repository.
func TestDocReferencesResolve(t *testing.T) {
	docs := userDocs(t)
	roots := repoRoots(t)
	headings := map[string]map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		text := docs[name]
		lines := func(i int) int { return strings.Count(text[:i], "\n") + 1 }
		// The schemas' descriptions are what an editor shows on hover.
		for _, m := range bareRulesMD.FindAllStringIndex(text, -1) {
			t.Errorf("%s:%d: cites rules.md, which is not in the repository; link docs/semantics.md instead", name, lines(m[1]))
		}
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatchIndex(text, -1) {
			target := text[m[2]:m[3]]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			resolved := name
			if file != "" {
				resolved = path.Join(path.Dir(name), file)
				if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(resolved))); err != nil {
					t.Errorf("%s:%d: the link %s leads to %s, which is not in the repository", name, lines(m[0]), target, resolved)
					continue
				}
			}
			if frag == "" || !strings.HasSuffix(resolved, ".md") {
				continue
			}
			if headings[resolved] == nil {
				page, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(resolved)))
				if err != nil {
					t.Errorf("%s:%d: %v", name, lines(m[0]), err)
					continue
				}
				headings[resolved] = anchors(string(page))
			}
			if !headings[resolved][frag] {
				t.Errorf("%s:%d: the link %s names #%s, which no heading of %s has", name, lines(m[0]), target, frag, resolved)
			}
		}
		// Link targets are checked above, relative to the page.
		prose := mdLink.ReplaceAllStringFunc(text, func(l string) string { return strings.Repeat(" ", len(l)) })
		for _, m := range namedPath.FindAllStringIndex(prose, -1) {
			p := strings.TrimRight(text[m[0]:m[1]], ".")
			first, _, _ := strings.Cut(p, "/")
			if m[0] > 0 && strings.ContainsAny(text[m[0]-1:m[0]], "/$~:@") || !roots[first] || notRepoPaths[p] != "" {
				continue
			}
			if strings.Contains(text[m[1]:min(m[1]+3, len(text))], "://") || strings.HasPrefix(text[m[1]:], "(") {
				continue
			}
			check := p
			if i := strings.IndexAny(p, "<*"); i >= 0 {
				check = p[:strings.LastIndex(p[:i], "/")+1]
			}
			_, errRoot := os.Stat(filepath.Join("..", filepath.FromSlash(check)))
			_, errHere := os.Stat(filepath.Join("..", filepath.FromSlash(path.Join(path.Dir(name), check))))
			if errRoot != nil && errHere != nil {
				t.Errorf("%s:%d: names %s, which is not in the repository", name, lines(m[0]), p)
			}
		}
	}
}
