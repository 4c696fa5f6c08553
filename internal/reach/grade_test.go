package reach_test

import (
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/kokua"
)

// TestToolGrade: new power over a tool is high when the tool runs code,
// changes files or Kokua's setup, or sends data out (docs/diff.md,
// Severity), whatever else it is; medium for every other class, alone,
// and for none.
func TestToolGrade(t *testing.T) {
	high := map[kokua.Class]bool{kokua.Exec: true, kokua.Write: true, kokua.SelfModify: true, kokua.Egress: true}
	for _, c := range kokua.Classes() {
		want := reach.Medium
		if high[c] {
			want = reach.High
		}
		if got := reach.ToolGrade([]kokua.Class{c}); got != want {
			t.Errorf("ToolGrade(%s) = %v, want %v", c, got, want)
		}
		// With a class of no weight beside it, the grade is the same.
		if got := reach.ToolGrade([]kokua.Class{kokua.PrivateData, c, kokua.Persist}); got != want {
			t.Errorf("ToolGrade(private-data, %s, persist) = %v, want %v", c, got, want)
		}
	}
	if got := reach.ToolGrade(nil); got != reach.Medium {
		t.Errorf("ToolGrade of a tool with no class = %v, want medium", got)
	}
}

// TestEndGrade: a risk path ending at exec, self-modify or egress is
// critical when no user is in the way (it runs, or a reviewer may
// approve) and high when it asks; one ending at write or persist is high
// when no user is in the way and medium when it asks; a tool of no
// dangerous class, the web's way out alone, or an unavailable tool ends
// none.
func TestEndGrade(t *testing.T) {
	levels := []reach.Level{reach.Unavailable, reach.Asks, reach.Reviewer, reach.Runs}
	tests := []struct {
		classes []kokua.Class
		want    []reach.Grade // by level, in the order of levels
	}{
		{[]kokua.Class{kokua.Exec}, []reach.Grade{reach.NoGrade, reach.High, reach.Critical, reach.Critical}},
		{[]kokua.Class{kokua.SelfModify}, []reach.Grade{reach.NoGrade, reach.High, reach.Critical, reach.Critical}},
		{[]kokua.Class{kokua.Egress}, []reach.Grade{reach.NoGrade, reach.High, reach.Critical, reach.Critical}},
		{[]kokua.Class{kokua.Write}, []reach.Grade{reach.NoGrade, reach.Medium, reach.High, reach.High}},
		{[]kokua.Class{kokua.Persist}, []reach.Grade{reach.NoGrade, reach.Medium, reach.High, reach.High}},
		{[]kokua.Class{kokua.Write, kokua.SelfModify}, []reach.Grade{reach.NoGrade, reach.High, reach.Critical, reach.Critical}},
		{[]kokua.Class{kokua.PrivateData, kokua.Egress}, []reach.Grade{reach.NoGrade, reach.High, reach.Critical, reach.Critical}},
		{[]kokua.Class{kokua.UntrustedInput, kokua.Egress}, []reach.Grade{reach.NoGrade, reach.NoGrade, reach.NoGrade, reach.NoGrade}},
		{[]kokua.Class{kokua.UntrustedInput, kokua.Egress, kokua.Write}, []reach.Grade{reach.NoGrade, reach.High, reach.Critical, reach.Critical}},
		{[]kokua.Class{kokua.PrivateData}, []reach.Grade{reach.NoGrade, reach.NoGrade, reach.NoGrade, reach.NoGrade}},
		{[]kokua.Class{kokua.UntrustedInput}, []reach.Grade{reach.NoGrade, reach.NoGrade, reach.NoGrade, reach.NoGrade}},
		{nil, []reach.Grade{reach.NoGrade, reach.NoGrade, reach.NoGrade, reach.NoGrade}},
	}
	for _, tt := range tests {
		for i, l := range levels {
			if got := reach.EndGrade(tt.classes, l); got != tt.want[i] {
				t.Errorf("EndGrade(%v, %v) = %v, want %v", tt.classes, l, got, tt.want[i])
			}
		}
	}
}
