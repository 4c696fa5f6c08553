package engine

import (
	"bytes"

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

// kokuaHeader reports whether a file that is not valid TOML has a line that
// starts one of Kokua's tables: [assistant...], [[mcp.server]],
// agents.x = ..., [security.auto_approval] and the like, a header left
// unclosed at the end of its line ([assistant) included. In regular
// expression syntax, a line starts with
//
//	[ \t]*\[\[?[ \t]*"?(?:TABLE|security[ \t]*\.[ \t]*"?SECURITY_KEY)"?[ \t]*(?:[.\]]|\r?$)
//	[ \t]*TABLE[ \t]*[.=]
//
// where TABLE is one of kokuaTables and SECURITY_KEY one of
// kokuaSecurityKeys. Lines end at \n only. It is written out by hand
// rather than as a regular expression, so that kokua-lint does not link
// the regexp package.
func kokuaHeader(data []byte) bool {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if startsKokuaTable(line) {
			return true
		}
	}
	return false
}

// startsKokuaTable reports whether one line (without its \n) starts with
// one of the two forms of kokuaHeader.
func startsKokuaTable(line []byte) bool {
	line = skipBlanks(line)
	if rest, ok := bytes.CutPrefix(line, []byte("[")); ok {
		rest, _ = bytes.CutPrefix(rest, []byte("["))
		rest, _ = bytes.CutPrefix(skipBlanks(rest), []byte(`"`))
		rest, ok = cutHeaderName(rest)
		if !ok {
			return false
		}
		rest, _ = bytes.CutPrefix(rest, []byte(`"`))
		rest = skipBlanks(rest)
		return len(rest) == 0 || rest[0] == '.' || rest[0] == ']' || string(rest) == "\r"
	}
	rest, ok := cutWord(line, kokuaTables)
	rest = skipBlanks(rest)
	return ok && len(rest) > 0 && (rest[0] == '.' || rest[0] == '=')
}

// cutHeaderName cuts the name a header of kokuaHeader's first form starts
// with: (?:TABLE|security[ \t]*\.[ \t]*"?SECURITY_KEY).
func cutHeaderName(b []byte) ([]byte, bool) {
	if rest, ok := cutWord(b, kokuaTables); ok {
		return rest, true
	}
	rest, ok := bytes.CutPrefix(b, []byte("security"))
	if !ok {
		return b, false
	}
	if rest, ok = bytes.CutPrefix(skipBlanks(rest), []byte(".")); !ok {
		return b, false
	}
	rest, _ = bytes.CutPrefix(skipBlanks(rest), []byte(`"`))
	return cutWord(rest, kokuaSecurityKeys)
}

// skipBlanks returns b without the spaces and tabs it starts with.
func skipBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// cutWord returns b without the first of words it starts with, and whether
// it starts with one. (No word of kokuaTables or of kokuaSecurityKeys
// starts another of its list, so the first that fits is the only one.)
func cutWord(b []byte, words []string) ([]byte, bool) {
	for _, w := range words {
		if rest, ok := bytes.CutPrefix(b, []byte(w)); ok {
			return rest, true
		}
	}
	return b, false
}

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
		return kokuaHeader(src.Data)
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
