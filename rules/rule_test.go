package rules

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
)

var (
	kebab  = regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	refNum = regexp.MustCompile(`^[RA][0-9]+$`)
)

// TestRegistry holds every rule to the conventions the output formats and
// the docs rely on. Each rule's behaviour is tested by the golden cases of
// testdata/lint and its doc page, both run from package lint.
func TestRegistry(t *testing.T) {
	phases := map[diag.Phase]bool{diag.PhaseParse: true, diag.PhaseRegister: true, diag.PhaseValidate: true,
		diag.PhaseResolve: true, diag.PhaseAlert: true, diag.PhaseBuild: true, diag.PhaseInput: true}
	all := All()
	if len(all) < 40 {
		t.Fatalf("only %d rules registered", len(all))
	}
	for _, r := range all {
		switch {
		case !kebab.MatchString(r.ID):
			t.Errorf("%q is not a kebab-case ID", r.ID)
		case ByID(r.ID) != r:
			t.Errorf("%s: ByID finds another rule", r.ID)
		case !phases[r.Phase]:
			t.Errorf("%s: phase %q is not one of the linter's", r.ID, r.Phase)
		case r.Summary == "":
			t.Errorf("%s has no summary", r.ID)
		case r.Check == nil && r != suppressionUnused && r != suppressionInvalid:
			t.Errorf("%s has no check", r.ID)
		}
		if r.Severity != diag.Error && r.Severity != diag.Warning && r.Severity != diag.Info {
			t.Errorf("%s: severity %v", r.ID, r.Severity)
		}
		for _, ref := range r.Refs {
			if !refNum.MatchString(ref) {
				t.Errorf("%s: reference %q is not a rules.md number", r.ID, ref)
			}
		}
		if len(r.Refs) == 0 && r != suppressionUnused && r != suppressionInvalid {
			t.Errorf("%s cites no rules.md number", r.ID)
		}
	}
}

// TestEveryCheckOfSection6 holds the registry to the checks of rules.md
// sections 6.1 to 6.5: each R-number there is cited by some rule.
func TestEveryCheckOfSection6(t *testing.T) {
	cited := map[string]bool{}
	for _, r := range All() {
		for _, ref := range r.Refs {
			cited[ref] = true
		}
	}
	// R145 is a condition of R140-R144, not a check of its own; it is cited
	// by those rules too.
	for n := 100; n <= 149; n++ {
		if ref := "R" + strconv.Itoa(n); !cited[ref] {
			t.Errorf("no rule cites %s", ref)
		}
	}
}
