package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/model"
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

// TestRuleList holds the list of rules to the package: every variable
// the package's files set to a &Rule{...} is in it once, the list is sorted
// by ID with each ID once (ByID searches it), and each rule says what it
// needs: a rule without Needs would otherwise run on input it cannot read,
// such as a nil Config.
func TestRuleList(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
						if c, ok := u.X.(*ast.CompositeLit); ok {
							if id, ok := c.Type.(*ast.Ident); ok && id.Name == "Rule" {
								declared[vs.Names[i].Name] = true
							}
						}
					}
				}
			}
		}
	}
	if len(declared) != len(all) {
		t.Errorf("the package declares %d rules and the list holds %d: add each rule to all in rule.go", len(declared), len(all))
	}
	seen := map[*Rule]bool{}
	for i, r := range all {
		if seen[r] {
			t.Errorf("rule %s is listed twice", r.ID)
		}
		seen[r] = true
		if i > 0 && all[i-1].ID >= r.ID {
			t.Errorf("the list is not sorted by ID with each ID once: %s before %s", all[i-1].ID, r.ID)
		}
		if r.Needs < NeedsInput || r.Needs > NeedsWorld {
			t.Errorf("rule %s does not say what it needs", r.ID)
		}
		if ByID(r.ID) != r {
			t.Errorf("ByID(%q) does not find it", r.ID)
		}
	}
	if ByID("no-such-rule") != nil || ByID("") != nil {
		t.Error("ByID finds a rule that is not one")
	}
}

// TestZeroNeedsWantsTheWorld shows that even a zero Needs is safe: it is
// met only when the world could be built, the most a rule can read.
func TestZeroNeedsWantsTheWorld(t *testing.T) {
	var zero Needs
	for _, tt := range []struct {
		name string
		in   *Input
		want bool
	}{
		{"no config", &Input{}, false},
		{"config without world", &Input{Config: &config.Config{}}, false},
		{"world", &Input{Config: &config.Config{}, World: &model.World{}}, true},
	} {
		if got := zero.met(tt.in); got != tt.want {
			t.Errorf("%s: zero Needs met = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRunSkipsWhatInputLacks shows each Needs against an input with no
// config: only the rules on raw input run.
func TestRunSkipsWhatInputLacks(t *testing.T) {
	in := &Input{}
	for _, tt := range []struct {
		needs Needs
		want  bool
	}{{NeedsInput, true}, {NeedsConfig, false}, {NeedsWorld, false}} {
		if got := tt.needs.met(in); got != tt.want {
			t.Errorf("Needs %d met without a config = %v, want %v", tt.needs, got, tt.want)
		}
	}
}
