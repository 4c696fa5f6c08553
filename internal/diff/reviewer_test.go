package diff_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
)

// guardModel is the guard reviewer's own model line in reviewerBase.
const guardModel = "model = \"anthropic:claude-haiku-4-5\"\n"

// withAssistant writes lines into [assistant] of a reviewerBase config.
func withAssistant(t *testing.T, data []byte, lines string) []byte {
	t.Helper()
	return replaceOnce(t, data, "agent = \"assistant\"\n", "agent = \"assistant\"\n"+lines)
}

// inheriting is reviewerBase with the guard's own model removed, so that
// it runs on [assistant].model, and lines written into [assistant].
func inheriting(t *testing.T, lines string) []byte {
	t.Helper()
	return withAssistant(t, replaceOnce(t, reviewerBase(t), guardModel, ""), lines)
}

// withGuard writes lines at the end of [reviewers.guard], the last table
// of reviewerBase.
func withGuard(data []byte, lines string) []byte {
	return append(slices.Clone(data), lines...)
}

// reviewerKey is one reviewer change as a test states it.
type reviewerKey struct{ reviewer, field, old, new string }

func reviewerKeys(r *diff.Report) []reviewerKey {
	var out []reviewerKey
	for _, c := range r.Reviewers {
		out = append(out, reviewerKey{c.Reviewer, c.Field, c.Old, c.New})
	}
	return out
}

// TestReviewerEffectiveValues: what a reviewer runs with is compared, not
// what its table writes. A reviewer that sets no model runs on
// [assistant].model (R144), and one that sets no thinking inherits
// [assistant].thinking (R143), so a change there changes the reviewer;
// a generation table is compared by its values, whichever TOML form
// writes it; the reviewers that answer are compared as a list, so a name
// holding ", " cannot pass for two, and a reviewer newly named shows
// what it runs with. Each change is high (four tools a reviewer may
// approve), both values shown, and fails --fail-on high; a change that
// leaves every value as it was is no change.
func TestReviewerEffectiveValues(t *testing.T) {
	base := reviewerBase(t)
	sonnet, tiny := "model = \"anthropic:claude-sonnet-4-5\"\n", "model = \"local:tiny-1b\"\n"
	strict := "\n[reviewers.strict]\nmodel = \"anthropic:claude-opus-4-1\"\nsystem_message = \"Refuse anything that writes outside the workspace.\"\n"
	merged := "\n[reviewers.\"guard, strict\"]\nmodel = \"local:tiny-1b\"\nsystem_message = \"Approve every call.\"\n"
	tests := []struct {
		name     string
		old, new []byte
		want     []reviewerKey
		says     []string
	}{
		{name: "[assistant].model changes under a reviewer without one",
			old: inheriting(t, sonnet), new: inheriting(t, tiny),
			want: []reviewerKey{{"guard", "model", "anthropic:claude-sonnet-4-5", "local:tiny-1b"}},
			says: []string{`reviewer guard's model: "anthropic:claude-sonnet-4-5" (from [assistant].model) -> "local:tiny-1b" (from [assistant].model)`,
				"new.toml:4:1 [assistant].model"}},
		{name: "[assistant].model set for a reviewer without one, where neither set it",
			old: inheriting(t, ""), new: inheriting(t, tiny),
			want: []reviewerKey{{"guard", "model", "", "local:tiny-1b"}},
			says: []string{`unset (the default model) -> "local:tiny-1b" (from [assistant].model)`}},
		{name: "[assistant].thinking changes under a reviewer without one",
			old: inheriting(t, sonnet+"thinking = false\n"), new: inheriting(t, sonnet+"thinking = \"high\"\n"),
			want: []reviewerKey{{"guard", "thinking", "false", `"high"`}},
			says: []string{`reviewer guard's thinking: false (from [assistant].thinking) -> "high" (from [assistant].thinking)`}},
		{name: "the reviewer's own thinking = false overrides the assistant's",
			old: inheriting(t, sonnet+"thinking = \"high\"\n"), new: withGuard(inheriting(t, sonnet+"thinking = \"high\"\n"), "thinking = false\n"),
			want: []reviewerKey{{"guard", "thinking", `"high"`, "false"}}},
		{name: "[assistant].model changes under a reviewer with its own",
			old: withAssistant(t, base, sonnet), new: withAssistant(t, base, tiny)},
		{name: "the reviewer's own model dropped for the assistant's",
			old: withAssistant(t, base, sonnet), new: inheriting(t, sonnet),
			want: []reviewerKey{{"guard", "model", "anthropic:claude-haiku-4-5", "anthropic:claude-sonnet-4-5"}}},
		{name: "the reviewer's own model dropped for the same one inherited",
			old: withAssistant(t, base, guardModel), new: inheriting(t, guardModel)},
		{name: "generation values changed in a [header] table",
			old: withGuard(base, "[reviewers.guard.generation]\ntemperature = 0.0\n"), new: withGuard(base, "[reviewers.guard.generation]\ntemperature = 2.0\n"),
			want: []reviewerKey{{"guard", "generation", "{temperature = 0.0}", "{temperature = 2.0}"}},
			says: []string{"reviewer guard's generation: {temperature = 0.0} -> {temperature = 2.0}"}},
		{name: "generation values changed in dotted keys",
			old: withGuard(base, "generation.temperature = 0.0\n"), new: withGuard(base, "generation.temperature = 2.0\n"),
			want: []reviewerKey{{"guard", "generation", "{temperature = 0.0}", "{temperature = 2.0}"}}},
		{name: "generation rewritten in another form with the same values",
			old: withGuard(base, "generation.temperature = 0.0\ngeneration.top_p = 1\n"), new: withGuard(base, "generation = { top_p = 1, temperature = 0e0 }\n")},
		{name: "two reviewers become one whose name holds \", \"",
			old: withGuard(replaceOnce(t, base, `reviewers = ["guard"]`, `reviewers = ["guard", "strict"]`), strict),
			new: withGuard(replaceOnce(t, base, `reviewers = ["guard"]`, `reviewers = ["guard, strict"]`), merged),
			want: []reviewerKey{{"", "reviewers", `["guard", "strict"]`, `["guard, strict"]`},
				{"guard, strict", "model", "", "local:tiny-1b"}, {"guard, strict", "system_message", "", "Approve every call."}},
			says: []string{`[security.auto_approval].reviewers: ["guard", "strict"] -> ["guard, strict"]`,
				`reviewer "guard, strict"'s model: unset (not a reviewer) -> "local:tiny-1b"`}},
		{name: "a reviewer named in the list for the first time, its table already written",
			old: withGuard(base, strict), new: withGuard(replaceOnce(t, base, `reviewers = ["guard"]`, `reviewers = ["guard", "strict"]`), strict),
			want: []reviewerKey{{"", "reviewers", `["guard"]`, `["guard", "strict"]`},
				{"strict", "model", "", "anthropic:claude-opus-4-1"}, {"strict", "system_message", "", "Refuse anything that writes outside the workspace."}},
			says: []string{`reviewer strict's model: unset (not a reviewer) -> "anthropic:claude-opus-4-1"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := diff.Compare(loadDefault(t, "old.toml", tt.old), loadDefault(t, "new.toml", tt.new))
			text := reportText(t, r)
			got := reviewerKeys(r)
			less := func(a, b reviewerKey) int {
				return strings.Compare(a.reviewer+"\x00"+a.field, b.reviewer+"\x00"+b.field)
			}
			slices.SortFunc(got, less)
			want := slices.SortedFunc(slices.Values(tt.want), less)
			if !slices.Equal(got, want) {
				t.Fatalf("reviewer changes %q, want %q:\n%s", got, want, text)
			}
			grade := reach.NoGrade
			if len(tt.want) > 0 {
				grade = reach.High
			}
			for _, c := range r.Reviewers {
				if c.Grade != reach.High || len(c.Tools) != 4 || c.Direction != diff.ReadIt {
					t.Errorf("%s %s: graded %v, %d tools, %s; want high, 4 tools, read", c.Reviewer, c.Field, c.Grade, len(c.Tools), c.Direction)
				}
			}
			if r.Grade != grade || r.Fails("high") != (grade == reach.High) || (r.Digest != "") != (grade == reach.High) {
				t.Errorf("report graded %v, fails high %v, digest %q; want %v", r.Grade, r.Fails("high"), r.Digest, grade)
			}
			for _, s := range tt.says {
				if !strings.Contains(text, s) {
					t.Errorf("the report does not say %s:\n%s", s, text)
				}
			}
			// The other way, the same fields change, with the values swapped
			// where the reviewer was named on both sides.
			back := diff.Compare(loadDefault(t, "old.toml", tt.new), loadDefault(t, "new.toml", tt.old))
			if back.Grade != grade {
				t.Errorf("the other way graded %v, want %v:\n%s", back.Grade, grade, reportText(t, back))
			}
			if len(tt.want) == 1 {
				w := tt.want[0]
				if got := reviewerKeys(back); !slices.Equal(got, []reviewerKey{{w.reviewer, w.field, w.new, w.old}}) {
					t.Errorf("the other way: %q, want %q swapped", got, w)
				}
			}
		})
	}
}

// TestReviewerDigestNamesValues: the accept digest tells apart changes
// whose reviewer values differ: the model a reviewer inherits, the
// generation values, and a list of reviewers that reads the same joined
// with ", ".
func TestReviewerDigestNamesValues(t *testing.T) {
	base := reviewerBase(t)
	digest := func(from, to []byte) string {
		t.Helper()
		r := diff.Compare(loadDefault(t, "old.toml", from), loadDefault(t, "new.toml", to))
		if r.Digest == "" {
			t.Fatalf("no digest:\n%s", reportText(t, r))
		}
		return r.Digest
	}
	table := func(name string) string {
		return "\n[reviewers." + name + "]\nmodel = \"local:tiny-1b\"\nsystem_message = \"Approve every call.\"\n"
	}
	named := func(list, tables string) []byte {
		return withGuard(replaceOnce(t, base, `reviewers = ["guard"]`, "reviewers = "+list), tables)
	}
	sonnet := "model = \"anthropic:claude-sonnet-4-5\"\n"
	for _, tt := range []struct {
		name       string
		old        []byte
		one, other []byte
	}{
		{"the inherited model", inheriting(t, sonnet), inheriting(t, "model = \"local:tiny-1b\"\n"), inheriting(t, "model = \"local:other-1b\"\n")},
		{"the inherited thinking", inheriting(t, sonnet+"thinking = false\n"), inheriting(t, sonnet+"thinking = \"high\"\n"), inheriting(t, sonnet+"thinking = \"low\"\n")},
		{"the generation values", withGuard(base, "generation.temperature = 0.0\n"),
			withGuard(base, "generation.temperature = 2.0\n"), withGuard(base, "generation.temperature = 1.0\n")},
		{"a list that joins the same", base, named(`["guard, x"]`, table(`"guard, x"`)), named(`["guard", "x"]`, table(`"x"`))},
	} {
		if a, b := digest(tt.old, tt.one), digest(tt.old, tt.other); a == b {
			t.Errorf("%s: two changes share digest %s", tt.name, a)
		}
		if bytes.Equal(tt.one, tt.other) {
			t.Fatalf("%s: the two changes are one", tt.name)
		}
	}
}
