package diff_test

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// floorRunCommand loads testdata/diff/floor-dropped-auto-on/old.toml and
// returns it as a compiled policy whose floor also holds
// compute.run_command, an entry of the review list. The linter refuses
// such a config (review-reaches-floor), so a policy file written or edited
// by hand is the only way to the diff's floor explanation for a review
// call: what decides whether a reviewer answers first.
func floorRunCommand(t *testing.T, m *lint.Manifest) *diff.Side {
	t.Helper()
	doc := side(t, filepath.Join("..", "..", "testdata", "diff", "floor-dropped-auto-on", "old.toml"), m).Policy.Document()
	floor := &doc.Floor.List
	floor.Entries = append(floor.Entries, policy.Entry{Status: policy.StatusResolved, Text: "compute.run_command",
		Toolset: "compute", Tool: "run_command", Tools: []string{"run_command"}, ToolsWhenBuilt: []string{},
		Position: &policy.Position{Line: 7, Column: 12, EndLine: 7, EndColumn: 33}})
	floor.Tools = append(floor.Tools, "run_command")
	slices.Sort(floor.Tools)
	data, err := policy.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := diff.Load(lint.Source{Name: "edited.json", Data: data}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFloorReviewExplanation: with auto-approval on at both ends, a review
// call whose tool joins the floor loses its reviewer (narrowed), and one
// whose tool leaves it gains one (widened); the diff says so and points at
// the floor entry that now holds it, or the new side's floor key that no
// longer does, in every format. The edited
// policy records old.toml as its config, so its places name old.toml.
func TestFloorReviewExplanation(t *testing.T) {
	m := lint.DefaultManifest()
	plain := side(t, filepath.Join("..", "..", "testdata", "diff", "floor-dropped-auto-on", "old.toml"), m)
	floored := floorRunCommand(t, m)
	for _, c := range []struct {
		name      string
		o, n      *diff.Side
		widened   bool
		because   string
		place     string
		markdown  string
		jsonPlace string
	}{
		{"joins the floor", plain, floored, false, "the floor now holds it, so no reviewer may answer",
			"old.toml:7:12 [security].never_auto_approve", "`old.toml:7:12` `[security].never_auto_approve`",
			`"file": "old.toml",`},
		// The new side's floor key is the line that let it go (issue 25:
		// pointers name the new file's line).
		{"leaves the floor", floored, plain, true, "the floor no longer holds it, so a reviewer may answer",
			"old.toml:39:1 [security].never_auto_approve", "`old.toml:39:1` `[security].never_auto_approve`",
			`"file": "old.toml",`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := diff.Compare(c.o, c.n)
			if r.Widened != c.widened {
				t.Errorf("widened = %v, want %v", r.Widened, c.widened)
			}
			var found []diff.ToolChange
			for _, a := range r.Agents {
				for _, tc := range append(slices.Clone(a.Widened), a.Narrowed...) {
					if tc.Tool == "run_command" {
						found = append(found, tc)
					}
				}
			}
			if len(found) == 0 {
				t.Fatalf("no agent's run_command changed: %+v", r.Agents)
			}
			for _, tc := range found {
				if tc.Because != c.because {
					t.Errorf("because = %q, want %q", tc.Because, c.because)
				}
				if got := tc.At.String(); got != c.place {
					t.Errorf("at = %s, want %s", got, c.place)
				}
			}
			for format, want := range map[string][]string{
				"human":    {c.because, c.place},
				"markdown": {c.because, c.markdown},
				"json":     {`"because": "` + c.because + `"`, c.jsonPlace, `"line": ` + strings.Split(c.place, ":")[1] + `,`},
			} {
				var b bytes.Buffer
				if err := diff.Write(&b, format, r); err != nil {
					t.Fatal(err)
				}
				for _, w := range want {
					if !strings.Contains(b.String(), w) {
						t.Errorf("the %s report lacks %q:\n%s", format, w, b.String())
					}
				}
			}
		})
	}
}
