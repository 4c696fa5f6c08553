// Package golden compares test output with the golden files of testdata/,
// and rewrites them when a test runs with -update. Only tests import it.
package golden

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

// update is the -update flag of every test binary that imports golden.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Check compares got with the golden file at path, or writes it there
// under -update. A missing file fails the test, saying how to create it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
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
