package kokua

// The approval-entry grammar that confirm, review and never_auto_approve
// share (docs/semantics.md R28, R29): <toolset>, <toolset>.*, <toolset>.<tool>, core
// and core.<tool>.

import "strings"

// EntryFault is what is wrong with an entry's text, before any registry is
// consulted.
type EntryFault uint8

// The grammar faults of R29.
const (
	EntryOK EntryFault = iota
	// TooManyDots: more than one '.', as in compute.sub.execute_python.
	TooManyDots
	// BadStar: '*' anywhere but as the whole tool segment.
	BadStar
	// EmptyToolset: nothing before the '.', as in .x or an empty entry.
	EmptyToolset
	// EmptyTool: nothing after the '.', as in compute.
	EmptyTool
)

// Entry is a parsed approval entry.
type Entry struct {
	Text    string
	Toolset string
	// Tool is the tool segment; empty when the entry names the whole toolset.
	Tool  string
	Fault EntryFault
}

// ParseEntry reads one entry. It never fails; a malformed entry carries a fault.
func ParseEntry(text string) Entry {
	e := Entry{Text: text}
	if strings.Count(text, ".") > 1 {
		e.Fault = TooManyDots
		return e
	}
	ts, tool, dotted := strings.Cut(text, ".")
	e.Toolset = ts
	if tool != "*" {
		e.Tool = tool
	}
	switch {
	case strings.Contains(ts, "*") || strings.Contains(e.Tool, "*"):
		e.Fault = BadStar
	case ts == "":
		e.Fault = EmptyToolset
	case dotted && tool == "":
		e.Fault = EmptyTool
	}
	return e
}

// Whole reports whether the entry names a whole toolset (bare or .*).
func (e Entry) Whole() bool { return e.Fault == EntryOK && e.Tool == "" }

// IsCore reports whether the entry is in the reserved core namespace.
func (e Entry) IsCore() bool { return e.Toolset == Core }

// EntriesOverlap reports whether two well-formed entries' own text already settles
// that they hold a tool in common, should that tool exist (R87): they name
// the same toolset and one names it whole, or they name the same tool.
func EntriesOverlap(a, b Entry) bool {
	if a.Fault != EntryOK || b.Fault != EntryOK || a.Toolset != b.Toolset {
		return false
	}
	return a.Whole() || b.Whole() || a.Tool == b.Tool
}
