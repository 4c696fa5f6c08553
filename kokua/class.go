package kokua

import "slices"

// Class is a capability class: what a tool can do that matters to whoever
// approves it. A registry manifest tags toolsets and tools with classes,
// the compiled policy carries them, and kokua-compile risks and diff read
// them to join what untrusted content can reach to what it can do.
type Class string

// The capability classes, in the order they are listed.
const (
	// UntrustedInput: the tool reads content someone else wrote, which may
	// carry instructions (web pages, a remote MCP server's answers).
	UntrustedInput Class = "untrusted-input"
	// Exec: the tool runs code.
	Exec Class = "exec"
	// Write: the tool changes files.
	Write Class = "write"
	// SelfModify: the tool changes Kokua's own setup: its config, its
	// skills, its MCP servers.
	SelfModify Class = "self-modify"
	// Persist: what the tool sets up outlives the turn (scheduling).
	Persist Class = "persist"
	// Egress: the tool sends data out of the machine.
	Egress Class = "egress"
	// PrivateData: the tool reads the user's files, memory or
	// conversations.
	PrivateData Class = "private-data"
)

// classes is every capability class in order.
var classes = [...]Class{UntrustedInput, Exec, Write, SelfModify, Persist, Egress, PrivateData}

// Classes returns every capability class in order, in a slice of the
// caller's own.
func Classes() []Class { return slices.Clone(classes[:]) }

// Meaning says what a class means, in the words docs/manifest.md uses.
func (c Class) Meaning() string {
	switch c {
	case UntrustedInput:
		return "reads content someone else wrote (web pages, MCP servers)"
	case Exec:
		return "runs code"
	case Write:
		return "changes files"
	case SelfModify:
		return "changes Kokua's own setup: config, skills, MCP servers"
	case Persist:
		return "outlives the turn (scheduling)"
	case Egress:
		return "sends data out"
	case PrivateData:
		return "reads the user's files, memory, conversations"
	}
	return ""
}

// Valid reports whether c is one of Classes.
func (c Class) Valid() bool { return c.Meaning() != "" }

// Dangerous reports whether a path from untrusted input to a tool of
// this class is a risk path: the content can make it run code, change
// files or Kokua's setup, outlive the turn, or send data out.
func (c Class) Dangerous() bool {
	switch c {
	case Exec, Write, SelfModify, Persist, Egress:
		return true
	}
	return false
}

// KindClasses are the classes of a toolset whose manifest entry writes
// none, by its kind: an MCP server's tools and their answers come from a
// remote host (untrusted input) and every call sends its arguments there
// (egress); a skill's scripts are code that runs (exec). Kokua's own
// toolsets and plugins get none: the manifest says.
func KindClasses(kind string) []Class {
	switch kind {
	case KindMCP:
		return []Class{UntrustedInput, Egress}
	case KindSkill:
		return []Class{Exec}
	}
	return nil
}

// ClassRank is a class's place in Classes, for sorting; an unknown class
// ranks last.
func ClassRank(c Class) int {
	for i, k := range classes {
		if k == c {
			return i
		}
	}
	return len(classes)
}
