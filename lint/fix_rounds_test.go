package lint

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/diag"
)

// rules are the rules of the fixes made, in order.
func rulesOf(applied []Applied) []string {
	var out []string
	for _, a := range applied {
		out = append(out, a.Finding.Rule)
	}
	return out
}

// rounds counts the rounds the fixes were made in: the fixes of one round
// share the text they were made on.
func rounds(applied []Applied) int {
	n := 0
	for i, a := range applied {
		if i == 0 || !bytes.Equal(a.Text, applied[i-1].Text) {
			n++
		}
	}
	return n
}

// errorsOf are the rules of a result's errors.
func errorsOf(r *Result) []string {
	var out []string
	for _, d := range r.Diagnostics {
		if d.Severity == diag.Error {
			out = append(out, d.Rule)
		}
	}
	return out
}

// TestFixRounds states what lint.Fix does round by round: a fix that
// reveals a finding another fixes takes two rounds; fixes that touch one
// table, one of them computed from it, are made one per round; a fix that
// brings an error no round fixes is undone and withheld, its finding
// saying so; a fix that brings an error a later round was to fix, and
// that round could not, is withheld too, and the config fixed from the
// start without it; Fix stops at its bound, and at a fixed point a
// second Fix makes nothing.
func TestFixRounds(t *testing.T) {
	const agent = "[agents.assistant.tools]\navailable = [\"compute\", \"time\"]\n"
	t.Run("a fix reveals another's finding", func(t *testing.T) {
		// The removed list moves into [assistant.tools] (round 1), where its
		// bare tool name is an entry-shape error, qualified in round 2.
		src := Source{Name: "config.toml", Data: []byte("[assistant.tools]\nreview = []\n\n" + agent + "\n[security]\nconfirm_tools = [\"run_command\"]\n")}
		out := Fix(src, nil, false)
		if got, want := rulesOf(out.Applied), []string{"removed-key", "entry-shape"}; !slices.Equal(got, want) {
			t.Fatalf("made %v, want %v", got, want)
		}
		if rounds(out.Applied) != 2 || out.Rounds != 2 {
			t.Errorf("made in %d rounds (Rounds %d), want 2", rounds(out.Applied), out.Rounds)
		}
		if !bytes.Contains(out.Data, []byte(`confirm = ["compute.run_command"]`)) || len(errorsOf(out.Result)) > 0 {
			t.Errorf("fixed:\n%s\nerrors %v", out.Data, errorsOf(out.Result))
		}
		if again := Fix(Source{Name: "config.toml", Data: out.Data}, nil, false); len(again.Applied) > 0 || !bytes.Equal(again.Data, out.Data) {
			t.Errorf("a second Fix made %v", rulesOf(again.Applied))
		}
	})
	t.Run("one table, one computed fix a round", func(t *testing.T) {
		// Both removed lists move into [assistant.tools], each computed from
		// what the table holds: one round each.
		src := Source{Name: "config.toml", Data: []byte("[assistant.tools]\n\n" + agent + "\n[security]\nconfirm_tools = [\"compute.run_command\"]\n\n" +
			"[security.auto_approval]\nenabled = false\ntools = [\"compute.execute_python\"]\n")}
		out := Fix(src, nil, false)
		if got, want := rulesOf(out.Applied), []string{"removed-key", "removed-key"}; !slices.Equal(got, want) {
			t.Fatalf("made %v, want %v", got, want)
		}
		if rounds(out.Applied) != 2 {
			t.Errorf("the two moves into one table were made in %d rounds, want 2", rounds(out.Applied))
		}
		if len(errorsOf(out.Result)) > 0 {
			t.Errorf("errors remain: %v\n%s", errorsOf(out.Result), out.Data)
		}
	})
	t.Run("local fixes share a round", func(t *testing.T) {
		// Two misspelt entries of one list: each rewrite changes its own
		// value, so both are made in one round.
		src := Source{Name: "config.toml", Data: []byte("[assistant.tools]\nconfirm = [\"compute.run_comand\", \"compute.execute_pyton\"]\nreview = []\n\n" + agent)}
		out := Fix(src, nil, false)
		if len(out.Applied) != 2 || rounds(out.Applied) != 1 {
			t.Fatalf("made %v in %d rounds, want two dead-entry fixes in one", rulesOf(out.Applied), rounds(out.Applied))
		}
	})
	t.Run("a fix that brings an error is withheld", func(t *testing.T) {
		// The misfiled entry's one home is compute, which no agent declares:
		// rewritten, it is an entry-scope error.
		src := Source{Name: "config.toml", Data: []byte("[assistant.tools]\nconfirm = []\nreview = [\"web.execute_python\"]\n\n[agents.assistant.tools]\navailable = [\"web\", \"time\"]\n")}
		out := Fix(src, nil, false)
		if len(out.Applied) != 0 || !bytes.Equal(out.Data, src.Data) || out.Rounds != 0 {
			t.Fatalf("made %v in %d rounds:\n%s", rulesOf(out.Applied), out.Rounds, out.Data)
		}
		if len(out.Withheld) != 1 || out.Withheld[0].Finding.Rule != "dead-entry" || !strings.HasPrefix(out.Withheld[0].Why, "[entry-scope] ") {
			t.Fatalf("withheld %+v", out.Withheld)
		}
		for _, d := range out.Result.Diagnostics {
			if d.Rule == "dead-entry" && (len(d.Fixes) != 0 || !strings.Contains(d.Text(), "kokua-lint --fix withheld the fix")) {
				t.Errorf("the finding does not say its fix was withheld: %q, fixes %v", d.Text(), d.Fixes)
			}
		}
		if Lint(src, nil).Diagnostics[0].Fixes == nil {
			t.Error("Lint itself must still offer the fix; only Fix withholds it")
		}
	})
	t.Run("a step no later round completes is withheld", func(t *testing.T) {
		// The move brings a bare tool name whose one home, compute, no agent
		// declares: its qualification is withheld, so the move is too, and
		// the config is left as given.
		src := Source{Name: "config.toml", Data: []byte("[assistant.tools]\nreview = []\n\n[agents.assistant.tools]\navailable = [\"time\"]\n\n[security]\nconfirm_tools = [\"run_command\"]\n")}
		out := Fix(src, nil, false)
		if len(out.Applied) != 0 || !bytes.Equal(out.Data, src.Data) {
			t.Fatalf("made %v:\n%s", rulesOf(out.Applied), out.Data)
		}
		if len(out.Withheld) != 1 || out.Withheld[0].Finding.Rule != "removed-key" || !strings.HasPrefix(out.Withheld[0].Why, "[entry-shape] ") {
			t.Fatalf("withheld %+v", out.Withheld)
		}
		if got := newErrors("config.toml", linted{src.Data, out.Given}, linted{out.Data, out.Result}); len(got) > 0 {
			t.Errorf("new errors: %v", got)
		}
	})
	t.Run("the manifest given", func(t *testing.T) {
		// Fixed against a manifest that does not follow the format, nothing
		// resolves and nothing is fixed; against the default install (nil),
		// the bare tool name is qualified.
		src := Source{Name: "config.toml", Data: []byte("[assistant.tools]\nconfirm = [\"run_command\"]\nreview = []\n\n" + agent)}
		if out := Fix(src, LoadManifest(Source{Name: "manifest.json", Data: []byte("{}")}), false); len(out.Applied) != 0 {
			t.Errorf("made %v against a manifest that does not follow the format", rulesOf(out.Applied))
		}
		if out := Fix(src, nil, false); len(out.Applied) != 1 {
			t.Errorf("made %v against the default install", rulesOf(out.Applied))
		}
	})
	t.Run("the bound", func(t *testing.T) {
		// Three keys of the agent written below its tools header: each move
		// reads and writes both tables, so one a round.
		src := Source{Name: "config.toml", Data: []byte("[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant]\n\n" + agent + "description = \"d\"\nmodel = \"m\"\nmax_iterations = 3\n")}
		full := Fix(src, nil, false)
		if full.Rounds != 3 || len(full.Applied) != 3 || len(errorsOf(full.Result)) > 0 {
			t.Fatalf("made %v in %d rounds, errors %v:\n%s", rulesOf(full.Applied), full.Rounds, errorsOf(full.Result), full.Data)
		}
		short := fixUpTo(src, nil, false, 2)
		if short.Rounds != 2 || len(short.Applied) != 2 || len(errorsOf(short.Result)) != 1 {
			t.Fatalf("with a bound of 2: made %v in %d rounds, errors %v", rulesOf(short.Applied), short.Rounds, errorsOf(short.Result))
		}
		if one := fixUpTo(src, nil, false, 1); one.Rounds != 1 || len(one.Applied) != 1 {
			t.Fatalf("with a bound of 1: %d rounds", one.Rounds)
		}
	})
}

// TestNewErrors: an error is new when the config after holds it more
// often than the config before, named by its rule, key and the text it
// points at; warnings never are.
func TestNewErrors(t *testing.T) {
	data := []byte("x = 1\ny = 2\n")
	at := func(from, to int) diag.Span {
		return diag.Span{File: "config.toml", Start: diag.Position{Line: 1, Offset: from}, End: diag.Position{Line: 1, Offset: to}}
	}
	e := diag.Diagnostic{Rule: "r", Key: "[t].x", Severity: diag.Error, Message: "m", Span: at(0, 1)}
	other := e
	other.Span = at(6, 7) // the same rule and key, at "y"
	warning := e
	warning.Severity = diag.Warning
	moved := e
	moved.Message = "another message at the same text"
	for _, c := range []struct {
		name          string
		before, after []diag.Diagnostic
		want          int
	}{
		{"the same error", []diag.Diagnostic{e}, []diag.Diagnostic{moved}, 0},
		{"one more of it", []diag.Diagnostic{e}, []diag.Diagnostic{e, e}, 1},
		{"two more of it", []diag.Diagnostic{e}, []diag.Diagnostic{e, e, e}, 2},
		{"at other text", []diag.Diagnostic{e}, []diag.Diagnostic{other}, 1},
		{"a warning", nil, []diag.Diagnostic{warning}, 0},
		{"a warning before is no error", []diag.Diagnostic{warning}, []diag.Diagnostic{e}, 1},
		{"fewer", []diag.Diagnostic{e, other}, []diag.Diagnostic{e}, 0},
	} {
		got := newErrors("config.toml", linted{data, &Result{Diagnostics: c.before}}, linted{data, &Result{Diagnostics: c.after}})
		if len(got) != c.want || c.want == 0 && got != nil {
			t.Errorf("%s: %d new errors (%v), want %d", c.name, len(got), got, c.want)
		}
	}
}

// TestFixTriesAreBounded (issue 37): a config whose every fix brings an
// error (bare tool names whose qualified form the other approval list
// already holds, so that each fix makes an overlap) costs Fix at most
// MaxFixTries fixes made again one at a time, each a lint of the whole
// file: 1,000 of them took --fix 5 s, each tried alone. Under the bound
// every fix is tried and withheld as before; past it the rest are left
// unmade, and in both the config is left with no error it did not hold.
func TestFixTriesAreBounded(t *testing.T) {
	config := func(n int) Source {
		return Source{Name: "config.toml", Data: []byte("[assistant.tools]\nconfirm = [\"compute.run_command\"]\nreview = [\n" +
			strings.Repeat("  \"run_command\",\n", n) + "]\n\n[agents.assistant.tools]\navailable = [\"compute\", \"time\"]\n")}
	}
	for _, c := range []struct{ n, withheld int }{{10, 10}, {MaxFixTries, MaxFixTries}, {300, MaxFixTries}} {
		src := config(c.n)
		fixed := Fix(src, nil, false)
		if len(fixed.Applied) != 0 || len(fixed.Withheld) != c.withheld {
			t.Errorf("%d fixes that each bring an overlap: %d made and %d withheld, want none made and %d withheld",
				c.n, len(fixed.Applied), len(fixed.Withheld), c.withheld)
		}
		if !bytes.Equal(fixed.Data, src.Data) {
			t.Errorf("%d fixes that each bring an overlap: the config was changed", c.n)
		}
		if got := errorsOf(fixed.Result); len(got) != c.n || slices.Contains(got, "confirm-review-overlap") {
			t.Errorf("%d fixes that each bring an overlap: errors %v, want the %d entry-shape errors given", c.n, got, c.n)
		}
	}
}
