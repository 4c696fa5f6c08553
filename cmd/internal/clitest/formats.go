package clitest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/format"
)

// formatTables are the docs' tables of formats, by file, with the command
// whose formats each lists: a table headed `--format` or format lists one
// a row; in the README, the flag table's `--format NAME` rows.
var formatTables = map[string]string{
	"README.md":              "kokua-lint",
	"docs/output-formats.md": "kokua-lint",
	"docs/policy-tests.md":   "kokua-compile test",
}

var (
	synopsisFormats = regexp.MustCompile(`--format ([a-z]+(?:\|[a-z]+)+)`)
	docCommand      = regexp.MustCompile(`kokua-(?:lint|compile|run)(?: --list-rules| [a-z]+)?`)
	tableHeader     = regexp.MustCompile("^\\| *(`--format`|format) *\\|")
	formatRow       = regexp.MustCompile("^\\| *`(?:--format )?([a-z]+)`")
)

// CheckFormats holds what the docs and the help of the command name say
// of its formats to the registries they come from (internal/format):
// formats maps a command as the docs write it ("kokua-compile diff",
// "kokua-lint --list-rules") to its formats. In README.md and docs/*.md
// under root, each synopsis's [--format a|b] and each table of formats
// (formatTables) must name them in order; a command of name that the
// docs give formats and formats does not hold fails, and so does one of
// formats the docs never list. Each command's --help shows the synopsis
// and the flag's usage made from the formats.
func CheckFormats(t *testing.T, main Main, name, root string, formats map[string]format.List) {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	check := func(where, command string, got []string) {
		t.Helper()
		if !strings.HasPrefix(command, name) {
			return
		}
		want, ok := formats[command]
		if !ok {
			t.Errorf("%s gives %s the formats %q, but it has no registry of formats", where, command, got)
			return
		}
		seen[command] = true
		if !slices.Equal(got, want.Names()) {
			t.Errorf("%s gives %s the formats %q; its registry holds %q", where, command, got, want.Names())
		}
	}
	for _, path := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		lines := strings.Split(string(data), "\n")
		var table []string
		tableAt, formatTable := 0, false
		for i, line := range lines {
			where := rel + ":" + strconv.Itoa(i+1)
			for _, m := range synopsisFormats.FindAllStringSubmatchIndex(line, -1) {
				commands := docCommand.FindAllString(line[:m[0]], -1)
				if len(commands) == 0 {
					t.Errorf("%s: --format %s follows no command", where, line[m[2]:m[3]])
					continue
				}
				check(where, commands[len(commands)-1], strings.Split(line[m[2]:m[3]], "|"))
			}
			// A table of formats: the rows after a header of formats, or
			// the `--format NAME` rows of another table.
			if tableHeader.MatchString(line) {
				formatTable = true
				continue
			}
			if strings.HasPrefix(line, "|") {
				row := formatRow.FindStringSubmatch(line)
				if row != nil && (formatTable || strings.HasPrefix(line, "| `--format ")) {
					if len(table) == 0 {
						tableAt = i + 1
					}
					table = append(table, row[1])
				}
				continue
			}
			formatTable = false
			if len(table) > 0 {
				command, ok := formatTables[rel]
				if !ok {
					t.Errorf("%s:%d: a table of formats in a file of no command's (clitest's formatTables)", rel, tableAt)
				} else {
					check(rel+":"+strconv.Itoa(tableAt), command, table)
				}
				table = nil
			}
		}
	}
	for command, list := range formats {
		if !seen[command] {
			t.Errorf("the docs list the formats of %s nowhere", command)
		}
		args := append(slices.Clone(strings.Fields(command)[1:]), "--help")
		help := Run(main, name, "", args...).Stdout
		for _, want := range []string{"[--format " + list.Synopsis() + "]", list.Usage()} {
			if !strings.Contains(help, want) {
				t.Errorf("%s --help does not show %q:\n%s", command, want, help)
			}
		}
	}
}
