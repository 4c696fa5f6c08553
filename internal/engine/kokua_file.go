package engine

import (
	"regexp"
	"sync"

	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// kokuaTables are the top-level tables that make a file Kokua's config:
// the tool-access tables, and the old [tools] table that Kokua refuses by
// name (rules.md R2 and section 7). [security] counts only with one of
// Kokua's keys, since other programs (Hugo) have a [security] table too.
var kokuaTables = []string{"assistant", "agents", "reviewers", "mcp", "tools"}

// kokuaSecurityKeys are the keys of Kokua's [security] table, current and
// removed (rules.md R2, R102, R103).
var kokuaSecurityKeys = []string{"never_auto_approve", "auto_approval", "locked_config_keys", "confirm_tools"}

// kokuaHeader finds, in a file that is not valid TOML, a line that
// starts one of Kokua's tables: [assistant...], [[mcp.server]],
// agents.x = ..., [security.auto_approval] and the like, a header left
// unclosed at the end of its line ([assistant) included. It is compiled
// when first needed: most runs read valid TOML, and compiling it costs a
// tenth of a millisecond of every start.
var kokuaHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(?:\[\[?[ \t]*"?(?:assistant|agents|reviewers|mcp|tools|security[ \t]*\.[ \t]*"?(?:auto_approval|never_auto_approve|locked_config_keys|confirm_tools))"?[ \t]*(?:[.\]]|\r?$)|(?:assistant|agents|reviewers|mcp|tools)[ \t]*[.=])`)
})

// IsKokuaConfig reports whether src is Kokua's config.toml rather than
// another program's file of the same name (Cargo's .cargo/config.toml,
// Hugo's config.toml): it holds at least one of Kokua's tables,
// [assistant], [agents], [reviewers], [mcp] or [tools], or a [security]
// table with one of Kokua's keys. A file that is not valid TOML is Kokua's
// when a line of it starts one of those tables, so that a broken Kokua
// config is still checked. An empty file is no one's.
//
// Run reports the same in Linted.Kokua, from the parse it makes anyway.
func IsKokuaConfig(src Source) bool {
	root, err := tomlpos.Parse(src.Name, src.Data)
	if err != nil || root == nil {
		return kokuaHeader().Match(src.Data)
	}
	return holdsKokuaTable(root)
}

// holdsKokuaTable reports whether a parsed file holds one of Kokua's
// tables, or a [security] table with one of Kokua's keys.
func holdsKokuaTable(root *tomlpos.Node) bool {
	for _, name := range kokuaTables {
		if root.Get(name) != nil {
			return true
		}
	}
	security := root.Get("security")
	for _, key := range kokuaSecurityKeys {
		if security.Get(key) != nil {
			return true
		}
	}
	return false
}
