package readme

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/kokua-policy/kokua-policy"

var backticked = regexp.MustCompile("`([^`]+)`")

// table returns the rows of the README table whose header row starts with
// header, each row as its cells.
func table(t *testing.T, header string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var rows [][]string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, header):
			in = true
		case in && strings.HasPrefix(line, "| ---"):
		case in && strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			rows = append(rows, cells)
		case in:
			return rows
		}
	}
	if len(rows) == 0 {
		t.Fatalf("README.md has no table headed %q", header)
	}
	return rows
}

func names(cell string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

type pkg struct {
	Dir        string
	ImportPath string
	Imports    []string
	Module     *struct{ Path string }
}

// packages lists the module's packages with what each imports outside its
// tests.
func packages(t *testing.T) []pkg {
	t.Helper()
	// go test caches a passing result until a file the test opened
	// changes. It does not see what go list reads, so the test opens every
	// folder of the module itself: a new package, or a new file in one,
	// then runs the test again.
	err := filepath.WalkDir(filepath.Join("..", ".."), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-json", module+"/...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestFolderTable holds the README's folder table to the module: every
// package has a row, every row names folders that exist, every package
// imports nothing but the standard library and what its row allows, and a
// row allows nothing its packages do not import.
func TestFolderTable(t *testing.T) {
	rows := table(t, "| folder | what it holds | what it may import |")
	allowed := map[string][]string{}
	used := map[string]map[string]bool{} // per row's first folder, what its packages import
	rowOf := map[string]string{}
	for _, r := range rows {
		if len(r) != 3 {
			t.Fatalf("folder row %q does not have three cells", r)
		}
		folders := names(r[0])
		if len(folders) == 0 {
			t.Errorf("folder row %q names no folder", r)
		}
		for _, f := range folders {
			if _, dup := allowed[f]; dup {
				t.Errorf("folder %s has two rows", f)
			}
			if info, err := os.Stat(filepath.Join("..", "..", f)); err != nil || !info.IsDir() {
				t.Errorf("the folder table names %s, which is not a folder", f)
			}
			allowed[f] = names(r[2])
			if allowed[f] == nil {
				allowed[f] = []string{}
			}
			rowOf[f] = folders[0]
		}
		used[folders[0]] = map[string]bool{}
	}
	for _, p := range packages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		may, ok := allowed[rel]
		if !ok {
			t.Errorf("package %s has no row in README.md's folder table", rel)
			continue
		}
		for _, imp := range p.Imports {
			first, _, _ := strings.Cut(imp, "/")
			for _, m := range may {
				if imp == m || strings.HasPrefix(imp, m+"/") || imp == module+"/"+m {
					used[rowOf[rel]][m] = true
				}
			}
			switch {
			case !strings.Contains(first, "."):
				// The standard library.
			case strings.HasPrefix(imp, module+"/"):
				if !slices.Contains(may, strings.TrimPrefix(imp, module+"/")) {
					t.Errorf("%s imports %s, which its row in README.md's folder table does not list", rel, strings.TrimPrefix(imp, module+"/"))
				}
			case !slices.ContainsFunc(may, func(m string) bool { return imp == m || strings.HasPrefix(imp, m+"/") }):
				t.Errorf("%s imports %s, whose module its row in README.md's folder table does not list", rel, imp)
			}
		}
	}
	for _, r := range rows {
		folders := names(r[0])
		if len(folders) == 0 {
			continue
		}
		for _, m := range allowed[folders[0]] {
			if !used[folders[0]][m] {
				t.Errorf("README.md's folder table lets %s import %s, which none of its packages imports", strings.Join(folders, ", "), m)
			}
		}
	}
}

// TestDependencyTable holds the README's dependency table to go.mod: one
// row for each module go.mod requires directly, and none for another.
func TestDependencyTable(t *testing.T) {
	var listed []string
	for _, r := range table(t, "| module | why |") {
		mods := names(r[0])
		if len(mods) != 1 || len(r) != 2 || r[1] == "" {
			t.Errorf("dependency row %q should name one module and say why", r)
			continue
		}
		listed = append(listed, mods[0])
	}
	cmd := exec.Command("go", "list", "-m", "-f", "{{if not (or .Main .Indirect)}}{{.Path}}{{end}}", "all")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	required := strings.Fields(string(out))
	slices.Sort(required)
	slices.Sort(listed)
	if !slices.Equal(listed, required) {
		t.Errorf("README.md's dependency table lists\n  %s\nbut go.mod requires directly\n  %s", strings.Join(listed, "\n  "), strings.Join(required, "\n  "))
	}
}
