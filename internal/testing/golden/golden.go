// Package golden compares test output with the golden files of testdata/,
// and rewrites them when a test runs with -update. Only tests import it.
package golden

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that imports golden.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// accept is set by scripts/mutation.sh (KOKUA_GOLDEN_ACCEPT=1): every
// golden comparison passes, as under -update, without writing a file. A
// mutant that only a golden kills then lives: -update would accept it,
// so a golden is never what holds a security outcome.
var accept = os.Getenv("KOKUA_GOLDEN_ACCEPT") == "1"

// Check compares got with the golden file at path, or writes it there
// under -update. A missing file fails the test, saying how to create it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if accept {
		return
	}
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it; read the result before committing it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (if the change is meant, rerun with -update and read the diff):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// CheckOptional is Check for a golden file that exists only when there is
// something to hold: with got nil, the file must not exist (-update
// removes it); otherwise it is Check.
func CheckOptional(t testing.TB, path string, got []byte) {
	t.Helper()
	if accept {
		return
	}
	if got != nil {
		Check(t, path, got)
		return
	}
	_, err := os.Stat(path)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
	case *update:
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	default:
		t.Errorf("%s should not exist: there is nothing for it to hold (go test -update removes it)", path)
	}
}

// Cases returns the case folders of testdata/<area>, as seen from a
// package folder at any depth (lint, cmd/kokua-run), and fails the test
// when there are none.
func Cases(t testing.TB, area string) []string {
	t.Helper()
	root := Root(t)
	entries, err := os.ReadDir(filepath.Join(root, "testdata", area))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, "testdata", area, e.Name()))
		}
	}
	if len(dirs) == 0 {
		t.Fatalf("no cases under testdata/%s", area)
	}
	return dirs
}

// Root is the repository's folder relative to the working folder of a
// test, which is its package's folder: the nearest folder up that holds
// go.mod.
func Root(t testing.TB) string {
	t.Helper()
	rel := "."
	for range 8 {
		if _, err := os.Stat(filepath.Join(rel, "go.mod")); err == nil {
			return rel
		}
		rel = filepath.Join(rel, "..")
	}
	t.Fatal("no go.mod in the folders above the test's")
	return ""
}

// DocBlocks checks the code blocks of a doc that follow a
// "<!-- test: FILE -->" marker: each must be the golden file FILE, a path
// from the repository's root, byte for byte. It returns how many blocks
// it checked.
func DocBlocks(t testing.TB, root string, doc []byte, name string) int {
	t.Helper()
	checked := 0
	for _, part := range strings.Split(string(doc), "<!-- test: ")[1:] {
		file, rest, _ := strings.Cut(part, " -->\n")
		_, block, _ := strings.Cut(rest, "\n")
		block, _, _ = strings.Cut(block, "```\n")
		want, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		if block != string(want) {
			t.Errorf("%s's block for %s differs from it:\n%s", name, file, block)
		}
		checked++
	}
	return checked
}
