package policy_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/tampered"
	"github.com/kokua-policy/kokua-policy/policy"
)

// basePolicy is the golden policy the tampered corpus is made from.
func basePolicy(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "compile", "skills-on-entry", "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTamperedCorpus: every policy of the tampered corpus, most of them
// sealed again so that their digest is valid, is refused with its kind
// and a reason naming the member at fault; none is half loaded. Among
// them are the findings of issue 13 (Why 1): a trust_order naming a
// missing toolset (a panic in precompute), resident or skills naming one
// (a panic in Preload), toolsets.X.tools null (accepted), and a member
// repeated at any depth, an escaped spelling included.
func TestTamperedCorpus(t *testing.T) {
	base := basePolicy(t)
	same, err := tampered.Resealed(base, func(map[string]any) {})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := policy.Parse("base", same); err != nil {
		t.Fatalf("the base policy, sealed again unchanged, is refused, so the corpus proves nothing: %v", err)
	}
	cases, err := tampered.Corpus(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var p *policy.Policy
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("Parse panicked: %v", r)
					}
				}()
				p, err = policy.Parse(c.Name, c.Data)
			}()
			if p != nil || err == nil {
				t.Fatal("the policy was accepted")
			}
			if !errors.Is(err, c.Kind) {
				t.Errorf("refused as %v, want %v", err, c.Kind)
			}
			if !strings.Contains(err.Error(), c.Reason) {
				t.Errorf("the refusal %q does not say %q", err, c.Reason)
			}
		})
	}
}

// TestValidateCompiled: Validate accepts every golden policy as decoded,
// and its first problem is reported the same way for a document built in
// memory, as kokua-compile builds one, as for one read from a file.
func TestValidateCompiled(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "compile", "*", "want.json"))
	if len(paths) == 0 {
		t.Fatal("no golden policies")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := policy.Parse(path, data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		d := p.Document()
		if err := d.Validate(); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	p, err := policy.Parse("base", basePolicy(t))
	if err != nil {
		t.Fatal(err)
	}
	d := *p.Document()
	d.TrustOrder = append(append([]string{}, d.TrustOrder...), "ghost")
	if err := d.Validate(); err == nil || err.Error() != `trust_order[25]: "ghost" is not a member of toolsets` {
		t.Errorf("Validate = %v", err)
	}
	d.TrustOrder = nil
	if err := d.Validate(); err == nil || err.Error() != "trust_order: is null; want an array" {
		t.Errorf("Validate = %v", err)
	}
}
