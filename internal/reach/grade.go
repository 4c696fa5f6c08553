package reach

import (
	"slices"

	"github.com/kokua-policy/kokua-policy/kokua"
)

// The grades of a widened tool and of a risk path, written once so that
// kokua-compile diff, which grades a change, and kokua-lint's
// declared-pair-drops-gates, which says how a diff grades the gates it
// sees dropped, quote the same grade.

// widening are the classes that make new power over a tool high: running
// code, changing files or Kokua's setup, sending data out.
var widening = []kokua.Class{kokua.Exec, kokua.Write, kokua.SelfModify, kokua.Egress}

// ToolGrade is the grade of a tool whose answer widens (it becomes
// reachable, or a gate on it is removed or loosened): high for a tool of
// class exec, write, self-modify or egress, medium for any other. Adding
// the tool ungated and removing its gate grade alike: the grade is the
// tool's, and both widen.
func ToolGrade(classes []kokua.Class) Grade {
	for _, c := range classes {
		if slices.Contains(widening, c) {
			return High
		}
	}
	return Medium
}

// EndGrade is the grade of a risk path that ends at a tool of these
// classes, at level l (the least permissive gate on the way, Path.Level):
// what Path.grade gives such a path that is not the lethal combination.
// NoGrade when no path ends there: the tool has no dangerous class, reads
// untrusted content and can only send data out (the lethal combination's
// way out, not a path of its own), or l is Unavailable.
func EndGrade(classes []kokua.Class, l Level) Grade {
	worst := worstClass(classes)
	if worst == "" || l == Unavailable || (has(classes, kokua.UntrustedInput) && onlyEgress(classes)) {
		return NoGrade
	}
	return Path{Class: worst, Level: l}.grade()
}
