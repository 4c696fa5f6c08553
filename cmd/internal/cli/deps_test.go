package cli_test

import (
	"os/exec"
	"strings"
	"testing"
)

// commandLineModules are the modules of the command line: flags, colour
// and the terminal. Only the commands, under cmd/, may use them.
var commandLineModules = []string{
	"github.com/urfave/cli/",
	"github.com/fatih/color",
	"github.com/mattn/go-isatty",
}

// commandLine reports whether a package belongs to a command-line module.
func commandLine(pkg string) bool {
	for _, m := range commandLineModules {
		if strings.HasPrefix(pkg, m) {
			return true
		}
	}
	return false
}

// goList runs go list from the repository's folder and returns the words
// it prints.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = "../../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Fields(string(out))
}

// TestLibrariesKnowNoCommandLine keeps the libraries a Go program imports
// free of flags, colour and terminals: nothing they link, directly or
// not, comes from urfave/cli, fatih/color or go-isatty.
func TestLibrariesKnowNoCommandLine(t *testing.T) {
	for _, pkg := range goList(t, "-deps", "./lint", "./compile", "./policy", "./server") {
		if commandLine(pkg) {
			t.Errorf("a library links %s", pkg)
		}
	}
}

// TestOnlyCommandsImportTheCommandLine checks every package of the module,
// its tests included: only those under cmd/ import a command-line module.
func TestOnlyCommandsImportTheCommandLine(t *testing.T) {
	const module = "github.com/kokua-policy/kokua-policy/"
	lines := goList(t, "-f", `{{.ImportPath}}:{{join .Imports ","}},{{join .TestImports ","}},{{join .XTestImports ","}}`, "./...")
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, ":")
		if strings.HasPrefix(pkg, module+"cmd/") {
			continue
		}
		for _, imp := range strings.Split(imports, ",") {
			if commandLine(imp) {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
}

// TestTheCheckCanFail makes sure the two tests above look at the right
// names: the commands do link the command-line modules.
func TestTheCheckCanFail(t *testing.T) {
	found := map[string]bool{}
	for _, pkg := range goList(t, "-deps", "./cmd/kokua-lint") {
		for _, m := range commandLineModules {
			if strings.HasPrefix(pkg, m) {
				found[m] = true
			}
		}
	}
	for _, m := range commandLineModules {
		if !found[m] {
			t.Errorf("cmd/kokua-lint links nothing of %s: the checks above would not notice it either", m)
		}
	}
}
