package version

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The setups the README and docs/ give to copy pin one version of
// kokua-policy. It is written once, in CHANGELOG.md: its latest released
// entry (`## [1.2.0] - 2027-01-15`), or, before the first release, the
// version the Unreleased section says the first release will be tagged.
var (
	releasedEntry = regexp.MustCompile(`(?m)^## \[([0-9][^\]]*)\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	firstRelease  = regexp.MustCompile(`The first release will be tagged (v[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?),`)
)

// notReleased starts the one line above a file's first pin that says no
// release is tagged yet and how to pin a commit instead.
const notReleased = "**No release is tagged yet**"

// The ways a setup pins kokua-policy: the action's `uses:`, `go install`,
// a checkout's `ref:`, pre-commit's `rev:` and `git clone --branch`.
var pinKinds = []struct {
	name string
	re   *regexp.Regexp
}{
	{"uses: kokua-policy/kokua-policy@REF", regexp.MustCompile("uses: kokua-policy/kokua-policy@([^\\s`'\")\\]]+)")},
	{"go install .../cmd/COMMAND@REF", regexp.MustCompile("github\\.com/kokua-policy/kokua-policy/cmd/[a-z-]+@([^\\s`'\")\\]]+)")},
	{"ref: REF", regexp.MustCompile(`^\s*ref: (\S+)`)},
	{"rev: REF", regexp.MustCompile(`^\s*rev: (\S+)`)},
	{"git clone --branch REF", regexp.MustCompile(`git clone .*--branch (\S+) .*kokua-policy`)},
}

// pinnedVersion reads the version the docs pin from the changelog, and
// whether it is released.
func pinnedVersion(changelog string) (version string, released bool, err error) {
	_, rest, ok := strings.Cut(changelog, "\n## [Unreleased]\n")
	if !ok {
		return "", false, fmt.Errorf("CHANGELOG.md has no ## [Unreleased] section")
	}
	unreleased, _, _ := strings.Cut(rest, "\n## [")
	planned := firstRelease.FindStringSubmatch(strings.Join(strings.Fields(unreleased), " "))
	if m := releasedEntry.FindStringSubmatch(changelog); m != nil {
		if planned != nil {
			return "", false, fmt.Errorf("CHANGELOG.md: %s is released, but the Unreleased section still says %q", m[1], planned[0])
		}
		return "v" + m[1], true, nil
	}
	if planned == nil {
		return "", false, fmt.Errorf("CHANGELOG.md has no released entry and its Unreleased section does not say %q", "The first release will be tagged vX.Y.Z,")
	}
	return planned[1], false, nil
}

func TestPinnedVersion(t *testing.T) {
	const head = "# Changelog\n\n## [Unreleased]\n\n"
	for _, c := range []struct {
		changelog, want string
		released        bool
		err             bool
	}{
		{head + "The first release will be tagged v0.1.0, as the docs\npin.\n\n### Added\n\n- x\n", "v0.1.0", false, false},
		{head + "### Added\n\n- y\n\n## [0.2.0] - 2027-02-01\n\n- x\n\n## [0.1.0] - 2027-01-15\n\n- w\n", "v0.2.0", true, false},
		{head + "### Added\n\n- y\n\n## [0.2.0-rc.1] - 2027-02-01\n\n- x\n", "v0.2.0-rc.1", true, false},
		{head + "The first release will be tagged v0.1.0, still.\n\n## [0.1.0] - 2027-01-15\n", "", false, true},
		{head + "### Added\n\n- x\n", "", false, true},
		{"# Changelog\n\n## [0.1.0] - 2027-01-15\n", "", false, true},
		{head + "- x\n\n## [0.2.0] - soon\n", "", false, true},
	} {
		got, released, err := pinnedVersion(c.changelog)
		if (err != nil) != c.err || got != c.want || released != c.released {
			t.Errorf("pinnedVersion(%q) = %q, %v, %v; want %q, %v, error %v", c.changelog, got, released, err, c.want, c.released, c.err)
		}
	}
}

// TestDocsPinTheRelease: every setup in the README and docs/ pins the
// version CHANGELOG.md gives, in each of the ways a setup pins; until it is
// released, each file that pins it says so in one line above its first pin.
func TestDocsPinTheRelease(t *testing.T) {
	root := filepath.Join("..", "..")
	changelog, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	pin, released, err := pinnedVersion(string(changelog))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	err = filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, file := range files {
		text, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		firstPin, notes := 0, []int{}
		for i, line := range strings.Split(string(text), "\n") {
			n := i + 1
			if strings.HasPrefix(line, notReleased) {
				notes = append(notes, n)
				continue
			}
			for _, k := range pinKinds {
				for _, m := range k.re.FindAllStringSubmatch(line, -1) {
					kinds[k.name]++
					if firstPin == 0 {
						firstPin = n
					}
					if m[1] != pin {
						t.Errorf("%s:%d: %s pins %q; CHANGELOG.md says the docs pin %s", file, n, k.name, m[1], pin)
					}
				}
			}
		}
		switch {
		case released && len(notes) > 0:
			t.Errorf("%s:%d: %s is released (CHANGELOG.md): drop the line %q", file, notes[0], pin, notReleased+"...")
		case !released && firstPin > 0 && (len(notes) != 1 || notes[0] > firstPin):
			t.Errorf("%s: %s is not released yet (CHANGELOG.md), so want one line starting %q above the first pin (line %d); found it at lines %v",
				file, pin, notReleased, firstPin, notes)
		case firstPin == 0 && len(notes) > 0:
			t.Errorf("%s:%d: a line %q in a file that pins nothing", file, notes[0], notReleased+"...")
		}
	}
	// Each way of pinning is found somewhere, so that a pattern that no
	// longer matches the docs cannot pass unseen.
	for _, k := range pinKinds {
		if kinds[k.name] == 0 {
			t.Errorf("no %s in README.md or docs/: the pattern %v matched nothing", k.name, k.re)
		}
	}
}
