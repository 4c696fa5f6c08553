package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// TestGoldenFixes runs Fix over every case of testdata/lint: the config
// after the safe fixes is want.fixed.toml, after the unsafe ones too
// want.unsafe-fixed.toml, each present only when it differs from what
// comes before it (the config, then the safely fixed config). A fixed
// config lints without the findings its fixes resolved, every fix is of
// a safety its rule declares, and every rule that declares fixes has a
// case that makes them.
func TestGoldenFixes(t *testing.T) {
	made := map[string]map[bool]bool{} // rule -> safe -> some case made one
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := os.ReadFile(filepath.Join(c.dir, "config.toml"))
			if err != nil {
				t.Fatal(err)
			}
			m := DefaultManifest()
			if data, err := os.ReadFile(filepath.Join(c.dir, "manifest.json")); err == nil {
				m = LoadManifest(Source{Name: "manifest.json", Data: data})
			}
			src := Source{Name: "config.toml", Data: cfg}
			given := Lint(src, m)
			if fixed := Fix(src, m, false); !slices.EqualFunc(fixed.Given.Diagnostics, given.Diagnostics, sameFinding) || fixed.Given.Kokua != given.Kokua {
				t.Errorf("Fix's Given is not the lint of the config as given")
			}
			for _, d := range given.Diagnostics {
				for _, f := range d.Fixes {
					if r := rules.ByID(d.Rule); r == nil || !r.Fixes.Allows(f.Safe) {
						t.Errorf("%s attaches a fix (safe %v) its rule does not declare: %q", d.Rule, f.Safe, f.Title)
					}
				}
			}
			before := cfg
			for _, unsafe := range []bool{false, true} {
				fixed := Fix(src, m, unsafe)
				name := "want.fixed.toml"
				if unsafe {
					name = "want.unsafe-fixed.toml"
				}
				var got []byte
				if !bytes.Equal(fixed.Data, before) {
					got = fixed.Data
				}
				golden.CheckOptional(t, filepath.Join(c.dir, name), got)
				if again := Lint(Source{Name: "config.toml", Data: fixed.Data}, m); !slices.EqualFunc(again.Diagnostics, fixed.Result.Diagnostics, sameFinding) {
					t.Errorf("Fix's Result is not the lint of its Data")
				}
				for _, a := range fixed.Applied {
					if made[a.Finding.Rule] == nil {
						made[a.Finding.Rule] = map[bool]bool{}
					}
					made[a.Finding.Rule][a.Fix.Safe] = true
					if slices.ContainsFunc(fixed.Result.Diagnostics, func(d diag.Diagnostic) bool {
						return d.Rule == a.Finding.Rule && d.Key == a.Finding.Key && d.Message == a.Finding.Message
					}) {
						t.Errorf("after %q the fixed config still has the finding it fixed: %s", a.Fix.Title, a.Finding.Message)
					}
					if slices.ContainsFunc(fixed.Result.Diagnostics, func(d diag.Diagnostic) bool { return d.Rule == "invalid-toml" }) {
						t.Errorf("after %q the fixed config is not valid TOML", a.Fix.Title)
					}
				}
				before = fixed.Data
			}
		})
	}
	for _, r := range rules.All() {
		for _, safe := range []bool{true, false} {
			if r.Fixes.Allows(safe) && !made[r.ID][safe] {
				t.Errorf("rule %s declares %s fixes, but no golden case makes one: add a case whose want.%sfixed.toml shows it",
					r.ID, map[bool]string{true: "safe", false: "unsafe"}[safe], map[bool]string{true: "", false: "unsafe-"}[safe])
			}
		}
	}
}

// sameFinding compares findings as diag.Sort orders them.
func sameFinding(a, b diag.Diagnostic) bool { return diag.Compare(a, b) == 0 }

// TestFixesKeepCRLF: every golden case's fixes, made in the same config
// with its lines ending in CRLF, give the fixed config of the case with
// its lines ending in CRLF: a fix never leaves a file with two kinds of
// line end, nor a line feed where a line end was.
func TestFixesKeepCRLF(t *testing.T) {
	crlf := func(b []byte) []byte {
		return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	}
	fixed := 0
	for _, c := range goldenCases(t) {
		cfg, err := os.ReadFile(filepath.Join(c.dir, "config.toml"))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(cfg, []byte("\r")) {
			continue // a case about line ends themselves
		}
		m := DefaultManifest()
		if data, err := os.ReadFile(filepath.Join(c.dir, "manifest.json")); err == nil {
			m = LoadManifest(Source{Name: "manifest.json", Data: data})
		}
		for _, unsafe := range []bool{false, true} {
			lf := Fix(Source{Name: "config.toml", Data: cfg}, m, unsafe)
			if len(lf.Applied) == 0 {
				continue
			}
			fixed++
			got := Fix(Source{Name: "config.toml", Data: crlf(cfg)}, m, unsafe)
			if want := crlf(lf.Data); !bytes.Equal(got.Data, want) {
				t.Errorf("%s (unsafe %v): with CRLF line ends the fixed config is\n%q\nwant\n%q", c.name, unsafe, got.Data, want)
			}
		}
	}
	if fixed == 0 {
		t.Fatal("no golden case makes a fix")
	}
}
