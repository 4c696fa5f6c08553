package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
)

// TestWatchFollowsSwappedLinks: a policy served through symlinks is
// reloaded when a link on its way is swapped, with no event naming the
// policy file itself: a link to one of two files of the directory
// pointed at the other, and the layout a Kubernetes ConfigMap volume
// has (policy.json -> ..data/policy.json, ..data -> a folder of the
// version, swapped by renaming a new ..data link over the old one).
func TestWatchFollowsSwappedLinks(t *testing.T) {
	a, b := policytest.Compile(t, policytest.ConfigA), policytest.Compile(t, policytest.ConfigB)
	write := func(path string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		// layout makes the files and returns the path served; swap then
		// moves a link so that the path holds b.
		layout func(dir string) string
		swap   func(dir string)
	}{
		{"a link in the directory pointed at another file of it", func(dir string) string {
			write(filepath.Join(dir, "a.json"), a)
			write(filepath.Join(dir, "b.json"), b)
			link("a.json", filepath.Join(dir, "policy.json"))
			return filepath.Join(dir, "policy.json")
		}, func(dir string) {
			link("b.json", filepath.Join(dir, ".policy.json.new"))
			if err := os.Rename(filepath.Join(dir, ".policy.json.new"), filepath.Join(dir, "policy.json")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a ConfigMap volume's ..data link renamed over", func(dir string) string {
			write(filepath.Join(dir, "..v1", "policy.json"), a)
			link("..v1", filepath.Join(dir, "..data"))
			link("..data/policy.json", filepath.Join(dir, "policy.json"))
			return filepath.Join(dir, "policy.json")
		}, func(dir string) {
			write(filepath.Join(dir, "..v2", "policy.json"), b)
			link("..v2", filepath.Join(dir, "..data_tmp"))
			if err := os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(dir, "..v1")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := New(c.layout(dir), nil)
			if err != nil {
				t.Fatal(err)
			}
			watch(t, s)
			url := serveHTTP(t, s)
			if healthDigest(t, url) != digestOf(t, a) {
				t.Fatal("the server does not answer from the first policy")
			}
			c.swap(dir)
			want := digestOf(t, b)
			// A guard against a hang, far over the debounce; a reload
			// that is missed never comes.
			policytest.WaitFor(t, "the new policy after the link was swapped", func() bool { return healthDigest(t, url) == want })
		})
	}
}
