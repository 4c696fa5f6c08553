package rules

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// no-agents: a config with no [agents.<name>] table; Kokua cannot work
// without at least one (R114).
var noAgentsRule = &Rule{
	ID:       "no-agents",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R114"},
	Summary:  "the config declares no [agents.<name>] table",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		if len(p.Config.Agents) > 0 {
			return
		}
		// [agents] written as something other than a table ([[agents]],
		// agents = 5) is wrong-type's finding, at the same place: saying
		// again that it declares no agents would add nothing.
		if agents := p.Config.Root.Get("agents"); agents != nil && agents.Kind != tomlpos.KindTable {
			return
		}
		span := diag.Span{File: p.Config.File, Start: diag.Position{Line: 1, Column: 1}, End: diag.Position{Line: 1, Column: 1}}
		if agents := p.Config.Root.Get("agents"); agents != nil {
			span = agents.Span()
		}
		if p.NotKokua {
			// Not a Kokua config at all: say what the file is, and give
			// no advice that would overwrite it.
			message, help := notKokua(p.Config)
			p.Report(Finding{Span: span, Key: "[agents]", Message: message, Suggestion: help})
			return
		}
		help := "copy the [agents.*] tables from config.example.toml, or run `kokua config init --force` to overwrite this file with it"
		if oldLayout(p.Config.Root) {
			// Overwriting a file from before [agents] would lose what
			// migrate carries over.
			help = "this file is written in the layout from before [agents]: run kokua-lint migrate, which writes the agents from it, or copy the [agents.*] tables from config.example.toml"
		}
		p.Report(Finding{Span: span, Key: "[agents]",
			Message:    "the config declares no agents: Kokua needs at least one [agents.<name>] table, the entry agent among them",
			Suggestion: help})
	},
}

// policyTestTable is the one top-level key of a policy test file
// (kokua.test.toml, internal/expect, which cannot be imported here): its
// [[expect]] claims. cmd/kokua-compile's TestTestFileWhereTheConfigGoes
// holds every test file of the repository to IsPolicyTestFile.
const policyTestTable = "expect"

// IsPolicyTestFile reports whether data is shaped as a policy test file,
// whatever mistakes its claims hold: valid TOML with at least one key,
// every top-level key expect, an array of tables. kokua-compile test
// refuses such a file where the config goes.
func IsPolicyTestFile(data []byte) bool {
	root, err := tomlpos.Parse("", data)
	return err == nil && isPolicyTestFile(root)
}

// isPolicyTestFile is IsPolicyTestFile of a parsed file.
func isPolicyTestFile(root *tomlpos.Node) bool {
	if root == nil || len(root.Fields) == 0 {
		return false
	}
	for _, f := range root.Fields {
		if f.Name != policyTestTable || f.Value.Kind != tomlpos.KindArray || !f.Value.ArrayOfTables {
			return false
		}
	}
	return true
}

// What a file that holds none of Kokua's tables is.
const (
	policyTestFile = iota + 1
	emptyFile
	commentsOnly
	otherTOML
)

// notKokuaKind says what a parsed file that holds none of Kokua's tables
// is, and for another program's TOML its first tables.
func notKokuaKind(root *tomlpos.Node, data []byte) (kind int, tables string) {
	switch {
	case isPolicyTestFile(root):
		return policyTestFile, ""
	case len(bytes.TrimSpace(data)) == 0:
		return emptyFile, ""
	case root == nil || len(root.Fields) == 0:
		return commentsOnly, ""
	}
	var names []string
	for _, f := range root.Fields {
		if len(names) == 3 {
			names = append(names, "...")
			break
		}
		names = append(names, "["+f.Name+"]")
	}
	return otherTOML, strings.Join(names, ", ")
}

// NotAConfig says what a file is that holds none of Kokua's tables, for
// a command that refuses it where a config goes: "a policy test file
// ([[expect]] claims for kokua-compile test)", "an empty file", "a file
// holding only comments" or "another program's TOML (it has [build])".
// It is "" for a file that is not valid TOML.
func NotAConfig(data []byte) string {
	root, err := tomlpos.Parse("", data)
	if err != nil {
		return ""
	}
	switch kind, tables := notKokuaKind(root, data); kind {
	case policyTestFile:
		return "a policy test file ([[expect]] claims for kokua-compile test)"
	case emptyFile:
		return "an empty file"
	case commentsOnly:
		return "a file holding only comments"
	default:
		return "another program's TOML (it has " + tables + ")"
	}
}

// notKokua is no-agents' message and help for a file that holds none of
// Kokua's tables: a policy test file, an empty file, or another
// program's TOML. None of them is told to run `kokua config init
// --force`, which would overwrite it.
func notKokua(c *config.Config) (message, help string) {
	name := filepath.Base(c.File)
	kind, tables := notKokuaKind(c.Root, c.Source)
	switch kind {
	case policyTestFile:
		return "this is a policy test file ([[expect]] claims for kokua-compile test), not a config: it declares no agents",
			"lint the config the claims are about, and check them with `kokua-compile test CONFIG " + name + "`"
	case emptyFile:
		return "the file is empty: Kokua needs at least one [agents.<name>] table, the entry agent among them",
			"write the entry agent's [agents.<name>] table, or copy the tables of config.example.toml into the file"
	case commentsOnly:
		return "the file holds only comments: Kokua needs at least one [agents.<name>] table, the entry agent among them",
			"write the entry agent's [agents.<name>] table below the comments, or copy the tables of config.example.toml there"
	}
	return "the file holds none of Kokua's tables (it has " + tables + "): it is another program's TOML, or not yet a Kokua config",
		"check that this is Kokua's config.toml; where other programs' config.toml files are linted too (a hook, a folder), --only-kokua skips them"
}
