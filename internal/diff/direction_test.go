package diff_test

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/lint"
)

// loadDefault loads a config against the embedded default manifest; the
// config must lint clean.
func loadDefault(t *testing.T, name string, data []byte) *diff.Side {
	t.Helper()
	s, res, err := diff.Load(lint.Source{Name: name, Data: data}, lint.DefaultManifest(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s == nil {
		var b strings.Builder
		for _, d := range res.Diagnostics {
			b.WriteString(d.Message + "\n")
		}
		t.Fatalf("%s does not lint clean:\n%s\n%s", name, b.String(), data)
	}
	return s
}

// reviewerBase is the shipped agents with auto-approval on, the guard
// reviewer, and both limits written: four tools (run_command,
// execute_python and fs_write's two) a reviewer may approve.
func reviewerBase(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../testdata/diff/pr-reviewer-rewrite/old.toml")
	if err != nil {
		t.Fatal(err)
	}
	return replaceOnce(t, data, "reviewers = [\"guard\"]\n", "reviewers = [\"guard\"]\nmax_per_turn = 5\ntimeout_seconds = 10\n")
}

// replaceOnce replaces from with to in data, once; from must be there.
func replaceOnce(t *testing.T, data []byte, from, to string) []byte {
	t.Helper()
	if !bytes.Contains(data, []byte(from)) {
		t.Fatalf("the config lacks %q", from)
	}
	return bytes.Replace(data, []byte(from), []byte(to), 1)
}

// failsUnder lists the --fail-on values a report fails.
func failsUnder(r *diff.Report) []string {
	var out []string
	for _, f := range diff.FailOn {
		if r.Fails(f) {
			out = append(out, f)
		}
	}
	return out
}

// TestReviewerFields runs every body of compareReviewers, each field both
// ways: a reviewer's model, system_message, thinking and generation, the
// reviewers that answer, and auto-approval's two limits. With four tools
// a reviewer may approve, a limit that rises widens (high: the reviewer
// may approve more calls in a turn, or has longer before the call goes
// to the user) and one that falls narrows (info, failing no --fail-on);
// a rewritten text, model, thinking, generation or set of reviewers is
// high either way, since only a person reading it can say whether it is
// stricter or laxer, and the output says to read it.
func TestReviewerFields(t *testing.T) {
	base := reviewerBase(t)
	high := []string{"high", "medium", "any"}
	tests := []struct {
		name, old, new string
		field          string
		// forward is the direction and grade from base to the edit;
		// backward from the edit to base.
		forward, backward   string
		fwdGrade, backGrade reach.Grade
		says                string
	}{
		{"model", `model = "anthropic:claude-haiku-4-5"`, `model = "local:tiny-1b"`, "model",
			diff.ReadIt, diff.ReadIt, reach.High, reach.High, `"anthropic:claude-haiku-4-5" -> "local:tiny-1b"`},
		{"system_message", "Refuse anything that reads secrets or sends data to an unknown host.\n", "", "system_message",
			diff.ReadIt, diff.ReadIt, reach.High, reach.High, "the instructions changed; stricter or laxer: read the text"},
		{"thinking", "[reviewers.guard]\n", "[reviewers.guard]\nthinking = false\n", "thinking",
			diff.ReadIt, diff.ReadIt, reach.High, reach.High, "unset -> false"},
		{"generation", "[reviewers.guard]\n", "[reviewers.guard]\ngeneration = { temperature = 1.5 }\n", "generation",
			diff.ReadIt, diff.ReadIt, reach.High, reach.High, "unset -> {temperature = 1.5}"},
		{"reviewers", "reviewers = [\"guard\"]\n", "reviewers = [\"guard\", \"second\"]\n", "reviewers",
			diff.ReadIt, diff.ReadIt, reach.High, reach.High, `["guard"] -> ["guard", "second"]`},
		{"max_per_turn", "max_per_turn = 5\n", "max_per_turn = 50\n", "max_per_turn",
			diff.Widens, diff.Narrows, reach.High, reach.Info, "widens: the reviewer may approve more calls in a turn"},
		{"max_per_turn to zero", "max_per_turn = 5\n", "max_per_turn = 0\n", "max_per_turn",
			diff.Narrows, diff.Widens, reach.Info, reach.High, "narrows: the reviewer may approve fewer calls in a turn"},
		{"timeout_seconds", "timeout_seconds = 10\n", "timeout_seconds = 120.5\n", "timeout_seconds",
			diff.Widens, diff.Narrows, reach.High, reach.Info, "widens: the reviewer has longer to approve a call"},
	}
	second := "\n[reviewers.second]\nmodel = \"openai:gpt-5-mini\"\nsystem_message = \"Approve only reads.\"\n"
	for _, tt := range tests {
		changed := replaceOnce(t, base, tt.old, tt.new)
		from := base
		if tt.field == "reviewers" {
			from, changed = append(slices.Clone(base), second...), append(changed, second...)
		}
		a, b := loadDefault(t, "old.toml", from), loadDefault(t, "new.toml", changed)
		for i, pair := range [][2]*diff.Side{{a, b}, {b, a}} {
			r := diff.Compare(pair[0], pair[1])
			dir, grade := tt.forward, tt.fwdGrade
			if i == 1 {
				dir, grade = tt.backward, tt.backGrade
			}
			// A reviewer named for the first time shows what it runs with:
			// its model and system_message.
			want := 1
			if tt.field == "reviewers" && i == 0 {
				want = 3
			}
			if len(r.Reviewers) != want {
				t.Fatalf("%s (%d): %d reviewer changes, want %d:\n%s", tt.name, i, len(r.Reviewers), want, reportText(t, r))
			}
			c := r.Reviewers[0]
			if tt.field == "max_per_turn" || tt.field == "timeout_seconds" {
				// A limit's values are shown as written.
				was, now := strings.TrimSpace(strings.SplitN(tt.old, "=", 2)[1]), strings.TrimSpace(strings.SplitN(tt.new, "=", 2)[1])
				if i == 1 {
					was, now = now, was
				}
				if c.Old != was || c.New != now {
					t.Errorf("%s (%d): shown as %q -> %q, want %q -> %q", tt.name, i, c.Old, c.New, was, now)
				}
			}
			if c.Field != tt.field || c.Direction != dir || c.Grade != grade || r.Grade != grade || len(c.Tools) != 4 {
				t.Errorf("%s (%d): %s %s graded %v (report %v), %d tools; want %s %s graded %v, 4 tools",
					tt.name, i, c.Field, c.Direction, c.Grade, r.Grade, len(c.Tools), tt.field, dir, grade)
			}
			fails := []string(nil)
			if grade == reach.High {
				fails = high
			}
			if got := failsUnder(r); !slices.Equal(got, fails) {
				t.Errorf("%s (%d): fails under %v, want %v", tt.name, i, got, fails)
			}
			if (r.Digest != "") != (grade == reach.High) {
				t.Errorf("%s (%d): digest %q for a change graded %v", tt.name, i, r.Digest, grade)
			}
			if i == 0 {
				if text := reportText(t, r); !strings.Contains(text, tt.says) {
					t.Errorf("%s: the report does not say %q:\n%s", tt.name, tt.says, text)
				}
			}
		}
	}
}

// TestReviewerLimitsWithAutoApprovalOff: with auto-approval off on the
// new side no reviewer may approve anything, so every reviewer change is
// info whichever way it goes; turned on with a lower limit than the off
// side wrote, the limit widens (the off side gave the reviewer nothing),
// unless it is zero, which gives it nothing either; turned off, it
// narrows. (Turning auto-approval on is graded as its own change.)
func TestReviewerLimitsWithAutoApprovalOff(t *testing.T) {
	on := reviewerBase(t)
	off := replaceOnce(t, on, "enabled = true\n", "enabled = false\n")
	offHigh := replaceOnce(t, off, "max_per_turn = 5\n", "max_per_turn = 50\n")
	for _, tt := range []struct {
		name     string
		from, to []byte
		dir      string
		grade    reach.Grade
	}{
		{"off, raised", off, offHigh, diff.Widens, reach.Info},
		{"off, lowered", offHigh, off, diff.Narrows, reach.Info},
		{"turned on, lower than the off side wrote", offHigh, on, diff.Widens, reach.High},
		{"turned off", on, offHigh, diff.Narrows, reach.Info},
		{"turned on with a limit of zero", offHigh, replaceOnce(t, on, "max_per_turn = 5\n", "max_per_turn = 0\n"), diff.Narrows, reach.Info},
	} {
		r := diff.Compare(loadDefault(t, "old.toml", tt.from), loadDefault(t, "new.toml", tt.to))
		var c *diff.ReviewerChange
		for i := range r.Reviewers {
			if r.Reviewers[i].Field == "max_per_turn" {
				c = &r.Reviewers[i]
			}
		}
		if c == nil || c.Direction != tt.dir || c.Grade != tt.grade {
			t.Errorf("%s: max_per_turn change %+v, want %s graded %v:\n%s", tt.name, c, tt.dir, tt.grade, reportText(t, r))
		}
	}
}

// TestReviewerChangeOneReviewableTool: a reviewer change is high as soon
// as a reviewer may approve one tool (one review entry, run_command);
// with none (auto-approval off) it is info.
func TestReviewerChangeOneReviewableTool(t *testing.T) {
	base := replaceOnce(t, reviewerBase(t),
		`confirm = ["skills.add_skill_script", "mcp.add_mcp_server", "config.update_config"]  # asks you
review = ["compute.run_command", "compute.execute_python", "fs_write"]  # asks a reviewer, then you`,
		`confirm = ["skills.add_skill_script", "mcp.add_mcp_server", "config.update_config", "compute.execute_python", "fs_write"]
review = ["compute.run_command"]`)
	none := replaceOnce(t, base, "enabled = true\n", "enabled = false\n")
	for _, tt := range []struct {
		name  string
		data  []byte
		tools []string
		grade reach.Grade
	}{{"one tool", base, []string{"compute.run_command"}, reach.High}, {"no tool", none, []string{}, reach.Info}} {
		from := loadDefault(t, "old.toml", tt.data)
		to := loadDefault(t, "new.toml", replaceOnce(t, tt.data, `model = "anthropic:claude-haiku-4-5"`, `model = "local:tiny-1b"`))
		r := diff.Compare(from, to)
		if len(r.Reviewers) != 1 || r.Reviewers[0].Grade != tt.grade || !slices.Equal(r.Reviewers[0].Tools, tt.tools) || r.Grade != tt.grade {
			t.Errorf("%s: the model change %+v, want graded %v for %v:\n%s", tt.name, r.Reviewers, tt.grade, tt.tools, reportText(t, r))
		}
	}
}

// TestDelegationEdgeTakesHighestGrade: a new delegation edge is graded by
// the most serious tool it carries, wherever that tool falls in the
// list: high for a worker holding compute's two exec tools between
// calculate and messaging's send_message (tools of no class, first and
// last), medium for a worker holding only tools of no class.
func TestDelegationEdgeTakesHighestGrade(t *testing.T) {
	config := func(delegates, workerTools string) []byte {
		review := "[]"
		if strings.Contains(workerTools, "compute") {
			review = `["compute.run_command", "compute.execute_python"]`
		}
		return []byte(`[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = ` + review + `

[agents.assistant]
delegates_to = ` + delegates + `

[agents.assistant.tools]
available = ["time"]

[agents.worker]
description = "A worker."

[agents.worker.tools]
available = ` + workerTools + `
`)
	}
	for _, tt := range []struct {
		name, tools string
		grade       reach.Grade
	}{
		{"exec among plain tools", `["compute", "messaging"]`, reach.High},
		{"plain tools only", `["messaging", "misc"]`, reach.Medium},
	} {
		r := diff.Compare(loadDefault(t, "old.toml", config("[]", tt.tools)), loadDefault(t, "new.toml", config(`["worker"]`, tt.tools)))
		if len(r.Delegation) != 1 || !r.Delegation[0].Widened {
			t.Fatalf("%s: want one widening edge:\n%s", tt.name, reportText(t, r))
		}
		e := r.Delegation[0]
		grades := map[string]reach.Grade{}
		for _, x := range e.New {
			grades[x.Tool] = reach.Medium
			if x.Tool == "run_command" || x.Tool == "execute_python" {
				grades[x.Tool] = reach.High
			}
		}
		if tt.grade == reach.High && (grades["calculate"] != reach.Medium || grades["send_message"] != reach.Medium || grades["run_command"] != reach.High) {
			t.Fatalf("%s: the edge carries %v; the test wants plain tools around the exec ones", tt.name, grades)
		}
		if e.Grade != tt.grade || r.Grade < tt.grade {
			t.Errorf("%s: the edge is graded %v, want %v:\n%s", tt.name, e.Grade, tt.grade, reportText(t, r))
		}
	}
}

// TestDeclaredPairDropsGatesQuotesDiff: kokua-lint's
// declared-pair-drops-gates quotes the grades kokua-compile diff gives
// the change it warns about: the grade of each tool that now runs
// unasked, and that of a risk path ending at them when untrusted content
// reaches the agent with no user in the way. For each config, the old
// side is the config with the warning's fix made (the dropped entries
// repeated), and the diff from it to the config: its widened tools are
// graded as quoted, and the report as the path's grade exactly when
// untrusted content reaches the agent unasked (the shipped agents: the
// researcher's web results return to the assistant, which delegates to
// the coder unasked), as the tools' grade otherwise.
func TestDeclaredPairDropsGatesQuotesDiff(t *testing.T) {
	alone := []byte(`[assistant]
agent = "assistant"

[assistant.tools]
confirm = ["config.update_config"]
review = ["compute.run_command", "compute.execute_python", "fs_write"]

[agents.assistant]
delegates_to = ["coder"]

[agents.assistant.tools]
available = ["config", "time"]

[agents.coder.tools]
available = ["compute", "fs_write"]
confirm = ["fs_write"]

[security]
never_auto_approve = ["config.update_config"]
`)
	read := func(dir string) []byte {
		data, err := os.ReadFile("../../testdata/lint/" + dir + "/config.toml")
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	quoted := regexp.MustCompile(`^A diff of the change grades (?:the tool|each tool) (\w+) \(kokua-compile diff\), and a risk path to (?:it|them) (\w+) where untrusted content reaches '(\w+)' with no user in the way`)
	for _, tt := range []struct {
		name    string
		data    []byte
		reached bool
	}{
		{"no untrusted content", alone, false},
		{"web in the entry agent", replaceOnce(t, alone, `available = ["config", "time"]`, `available = ["config", "time", "web"]`), true},
		{"web behind a reviewer", replaceOnce(t, replaceOnce(t, alone, `available = ["config", "time"]`, `available = ["config", "time", "web"]`),
			`confirm = ["config.update_config"]`, `confirm = ["config.update_config", "web"]`), false},
		{"shipped, confirm only", read("declared-pair-drops-gates--fail-confirm-only"), true},
		{"review only, no untrusted content", read("declared-pair-drops-gates--fail-review-only-inline"), false},
	} {
		src := lint.Source{Name: "config.toml", Data: tt.data}
		var found []string
		for _, d := range lint.Lint(src, nil).Diagnostics {
			for _, n := range d.Notes {
				if m := quoted.FindStringSubmatch(n); d.Rule == "declared-pair-drops-gates" && m != nil {
					found = m
				}
			}
		}
		if found == nil {
			t.Fatalf("%s: no declared-pair-drops-gates note quoting the grades", tt.name)
		}
		toolGrade, pathGrade, agent := found[1], found[2], found[3]
		fixed := lint.Fix(src, nil, false)
		r := diff.Compare(loadDefault(t, "fixed.toml", fixed.Data), loadDefault(t, "config.toml", tt.data))
		worst := reach.NoGrade
		for _, a := range r.Agents {
			for _, c := range a.Widened {
				if a.Agent != agent || c.New.Level != reach.Runs {
					t.Errorf("%s: the fix's diff widens %s of %s to %v", tt.name, c.Tool, a.Agent, c.New.Level)
				}
				worst = max(worst, c.Grade)
			}
		}
		want := toolGrade
		if tt.reached {
			want = pathGrade
		}
		if worst.String() != toolGrade || r.Grade.String() != want || pathGrade != "critical" {
			t.Errorf("%s: the warning quotes %s, and %s on a path; the diff grades the tools %v and the change %v, want %s:\n%s",
				tt.name, toolGrade, pathGrade, worst, r.Grade, want, reportText(t, r))
		}
	}
}
