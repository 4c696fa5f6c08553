package report_test

import (
	"fmt"
	"html"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/reach"
	"github.com/kokua-policy/kokua-policy/internal/report"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/lint"
)

// side is one side of a verdict case: a config of testdata/report/team-diff
// with some of its text replaced, in pairs of old and new.
type side struct {
	file    string
	replace []string
}

const (
	floorLine  = `never_auto_approve = ["skills.add_skill_script"]`
	modelLine  = `model = "anthropic:claude-haiku-4-5"`
	enabled    = "enabled = true"
	firstWords = "# A team's Kokua"
)

// verdictCases are changes to a team's config, each named, with what the
// page's first part must say of it: the most serious grade, the --fail-on
// values that fail it (a security outcome: stated here, not left to a
// golden), whether the page may say "Nothing widened.", and text the
// first part must hold.
var verdictCases = []struct {
	name     string
	old, new side
	grade    string
	fails    []string
	nothing  bool
	holds    []string
}{
	{name: "no change", old: side{file: "base.toml"}, new: side{file: "base.toml"},
		grade: "", fails: nil, nothing: true,
		holds: []string{"no change to what any agent can do", "nothing is graded."}},
	{name: "comments only", old: side{file: "base.toml"}, new: side{file: "base.toml", replace: []string{firstWords, "# The team's Kokua"}},
		grade: "info", fails: nil, nothing: true,
		holds: []string{"1 info; no change to what any agent can do", "the most serious grade is info"}},
	{name: "reviewer's model changed", old: side{file: "base.toml"}, new: side{file: "base.toml", replace: []string{modelLine, `model = "anthropic:claude-opus-4-1"`}},
		grade: "high", fails: []string{"high", "medium", "any"},
		holds: []string{"1 high; no change to what any agent can do; 1 change to the reviewer", "Reviewer (1)",
			`high reviewer careful's model: "anthropic:claude-haiku-4-5" -> "anthropic:claude-opus-4-1"`}},
	{name: "floor entry dropped", old: side{file: "base.toml"}, new: side{file: "base.toml", replace: []string{floorLine, `never_auto_approve = []`}},
		grade: "high", fails: []string{"high", "medium", "any"},
		holds: []string{"1 high; 1 widened, 0 narrowed", "Floor (never_auto_approve)", "dropped skills.add_skill_script", "off the floor now: skills.add_skill_script"}},
	{name: "floor entry added", old: side{file: "base.toml"},
		new:   side{file: "base.toml", replace: []string{floorLine, `never_auto_approve = ["skills.add_skill_script", "fs_write.write_file"]`}},
		grade: "", fails: nil, nothing: true,
		holds: []string{"0 widened, 1 narrowed", "added fs_write.write_file"}},
	{name: "auto-approval turned on", old: side{file: "base.toml", replace: []string{enabled, "enabled = false"}}, new: side{file: "base.toml"},
		grade: "critical", fails: []string{"critical", "high", "medium", "any"},
		holds: []string{"2 critical, 5 high, 1 medium; 6 widened, 0 narrowed", "Auto-approval", "widened: turned on",
			"Risk paths new or raised (2)", "coder calls compute.execute_python: review: a reviewer may approve"}},
	{name: "auto-approval turned off", old: side{file: "base.toml"}, new: side{file: "base.toml", replace: []string{enabled, "enabled = false"}},
		grade: "", fails: nil, nothing: true,
		holds: []string{"0 widened, 6 narrowed", "narrowed: turned off"}},
	{name: "team change", old: side{file: "base.toml"}, new: side{file: "config.toml"},
		grade: "critical", fails: []string{"critical", "high", "medium", "any"},
		holds: []string{"5 critical, 10 high, 3 medium, 3 info; 11 widened, 5 narrowed", "Risk paths new or raised (7)",
			"critical agent lead: untrusted content can run code: execute_python in compute (exec); a reviewer may approve → runs unasked",
			"scout returns its result to lead: runs unasked (config.toml:12:26 [agents.lead].delegates_to)",
			"gained lead → scout (delegates_to): nothing new"}},
	{name: "team change, floor dropped, reviewer changed", old: side{file: "base.toml"},
		new:   side{file: "config.toml", replace: []string{floorLine, `never_auto_approve = []`, modelLine, `model = "anthropic:claude-opus-4-1"`}},
		grade: "critical", fails: []string{"critical", "high", "medium", "any"},
		holds: []string{"5 critical, 12 high, 3 medium, 3 info; 12 widened, 5 narrowed", "dropped skills.add_skill_script", "Reviewer (1)"}},
}

// verdictSide reads a side of a verdict case as kokua-compile report
// does, named as its file.
func verdictSide(t testing.TB, s side) ([]byte, *diff.Side) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(golden.Root(t), "testdata", "report", "team-diff", s.file))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for i := 0; i < len(s.replace); i += 2 {
		if !strings.Contains(text, s.replace[i]) {
			t.Fatalf("%s has no %q to replace", s.file, s.replace[i])
		}
		text = strings.Replace(text, s.replace[i], s.replace[i+1], 1)
	}
	d, res, err := diff.Load(lint.Source{Name: s.file, Data: []byte(text)}, lint.DefaultManifest(), nil)
	if err != nil || d == nil {
		t.Fatalf("%s: %v %v", s.file, err, res.Diagnostics)
	}
	return []byte(text), d
}

// verdictInput is a verdict case's page input, its verdict for failOn.
func verdictInput(t testing.TB, from, to side, failOn string) report.Input {
	t.Helper()
	_, o := verdictSide(t, from)
	cfg, n := verdictSide(t, to)
	return report.Input{Name: to.file, Policy: n.Policy, Config: cfg, Changes: diff.Compare(o, n), FailOn: failOn}
}

var (
	tags     = regexp.MustCompile(`<[^>]*>`)
	hopLists = regexp.MustCompile(`(?s)<ol class="hops">.*?</ol>`)
	nonWords = regexp.MustCompile(`[^a-z0-9]+`)
)

// slug is a case's name as a file name.
func slug(name string) string { return strings.Trim(nonWords.ReplaceAllString(name, "-"), "-") }

// text is HTML as a reader sees it: the tags dropped, the references
// decoded, each run of white space one space.
func text(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tags.ReplaceAllString(s, ""))), " ")
}

// TestVerdict: for each case and each --fail-on value, the page of a
// change starts with its graded headline (the most serious grade and the
// count of each) and the verdict kokua-compile diff --fail-on gives it,
// before the summary and the tools widened; the graded changes follow
// (risk paths with their hops, the reviewer, the floor with each dropped
// entry marked, auto-approval, delegation); it never says "Nothing
// widened" when something widens or grades medium or above. The part up
// to the tools' tables is held by testdata/report-verdict too.
func TestVerdict(t *testing.T) {
	for _, c := range verdictCases {
		t.Run(c.name, func(t *testing.T) {
			for _, failOn := range diff.FailOn {
				in := verdictInput(t, c.old, c.new, failOn)
				out := string(page(t, in))
				_, main, _ := strings.Cut(out, "<main>")
				if !strings.HasPrefix(main, "\n<section id=\"changes\"") {
					t.Errorf("--fail-on %s: the page's main part does not start with the changes", failOn)
				}
				verdict := text(between(t, out, `<div id="verdict"`, "</div>"))
				wantFails := slices.Contains(c.fails, failOn)
				if in.Changes.Fails(failOn) != wantFails {
					t.Errorf("--fail-on %s: diff says fails %v, the case %v", failOn, in.Changes.Fails(failOn), wantFails)
				}
				word := "Passes --fail-on " + failOn + ":"
				if wantFails {
					word = "Would fail --fail-on " + failOn + ":"
				}
				if !strings.Contains(verdict, word) {
					t.Errorf("the verdict says %q, want %q", verdict, word)
				}
				if got := in.Changes.Grade.String(); c.grade != "" && got != c.grade || c.grade == "" && got != "none" {
					t.Errorf("the change grades %s, the case %q", got, c.grade)
				}
				if c.grade != "" && !strings.HasPrefix(verdict, c.grade+" ") {
					t.Errorf("the headline %q does not start with the most serious grade, %s", verdict, c.grade)
				}
				if !strings.Contains(verdict, in.Changes.Headline()) {
					t.Errorf("the headline %q does not hold diff's %q", verdict, in.Changes.Headline())
				}
				if got := strings.Contains(out, "Nothing widened"); got != c.nothing {
					t.Errorf("the page says \"Nothing widened\": %v, want %v", got, c.nothing)
				}
				first := between(t, out, `<section id="changes"`, `<h3 id="widened-h">`)
				for _, want := range c.holds {
					if !strings.Contains(text(first), want) {
						t.Errorf("the first part does not hold %q:\n%s", want, text(first))
					}
				}
				if failOn == "any" {
					golden.Check(t, filepath.Join(golden.Root(t), "testdata", "report-verdict", slug(c.name)+".html"), []byte(first))
				}
			}
		})
	}
}

// TestFloorDroppedMark: each entry the change drops from the floor is a
// list item marked "dropped", with its name; an entry added is marked
// "added".
func TestFloorDroppedMark(t *testing.T) {
	out := string(page(t, verdictInput(t, side{file: "base.toml"}, side{file: "base.toml", replace: []string{floorLine, `never_auto_approve = []`}}, "any")))
	if !strings.Contains(out, `<li class="dropped"><span class="badge dropped">dropped</span> <code>skills.add_skill_script</code>`) {
		t.Errorf("the dropped floor entry is not marked:\n%s", between(t, out, `<h3 id="floor-h">`, "</ul>"))
	}
	out = string(page(t, verdictInput(t, side{file: "base.toml", replace: []string{floorLine, `never_auto_approve = []`}}, side{file: "base.toml"}, "any")))
	if !strings.Contains(out, `<li class="added"><span class="badge added">added</span> <code>skills.add_skill_script</code>`) || strings.Contains(out, "badge dropped") {
		t.Errorf("the added floor entry is not marked as added:\n%s", between(t, out, `<h3 id="floor-h">`, "</ul>"))
	}
}

// mutations are edits of a generated config, each a change a pull request
// might make: one gate, the floor, auto-approval, the reviewer, a
// delegation. Each takes the config's text and a random source.
var mutations = []func(string, *rand.Rand) string{
	// Drop the floor's first entry.
	func(s string, _ *rand.Rand) string {
		return regexp.MustCompile(`(never_auto_approve = \[)"[^"]*"(, )?`).ReplaceAllString(s, "$1")
	},
	// Turn auto-approval off.
	func(s string, _ *rand.Rand) string { return strings.Replace(s, "enabled = true", "enabled = false", 1) },
	// Another reviewer model, another limit per turn.
	func(s string, _ *rand.Rand) string {
		return strings.Replace(s, `model = "openai:gpt-4o-mini"`, `model = "anthropic:claude-haiku-4-5"`, 1)
	},
	func(s string, _ *rand.Rand) string {
		return strings.Replace(s, "max_per_turn = 5", "max_per_turn = 9", 1)
	},
	// Drop one agent's review, confirm or delegates_to line.
	func(s string, r *rand.Rand) string { return dropLine(s, r, "review = [") },
	func(s string, r *rand.Rand) string { return dropLine(s, r, "confirm = [") },
	func(s string, r *rand.Rand) string { return dropLine(s, r, "delegates_to = [") },
}

// dropLine removes one of the lines that start with prefix, chosen at
// random.
func dropLine(s string, r *rand.Rand, prefix string) string {
	lines := strings.Split(s, "\n")
	var at []int
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return s
	}
	i := at[r.IntN(len(at))]
	return strings.Join(slices.Delete(lines, i, i+1), "\n")
}

// independent reads a report's changes one by one, not its totals: the
// most serious grade any change carries, and whether any change widens.
func independent(r *diff.Report) (reach.Grade, bool) {
	most, widened := reach.NoGrade, false
	see := func(g reach.Grade, w bool) {
		most, widened = max(most, g), widened || w
	}
	if r.EntryAgent != nil {
		see(r.EntryAgent.Grade, false)
	}
	for _, a := range r.Agents {
		for _, t := range a.Widened {
			see(t.Grade, true)
		}
	}
	for _, e := range r.Delegation {
		see(e.Grade, e.Widened)
	}
	if a := r.AutoApproval; a != nil {
		see(a.Grade, a.Widened)
	}
	if f := r.Floor; f != nil {
		see(f.Grade, f.Widened)
	}
	for _, c := range r.Residency {
		see(c.Grade, false)
	}
	for _, c := range r.Risks {
		see(c.Grade, false)
	}
	for _, c := range r.Reviewers {
		see(c.Grade, false)
	}
	if len(r.Info) > 0 {
		see(reach.Info, false)
	}
	return most, widened
}

// TestVerdictGenerated: for generated configs and changes to them, the
// page's verdict for every --fail-on value is what the report's changes,
// read one by one, give: it fails on a grade when some change grades at
// least that, on any when some change widens or grades medium or above,
// and passes otherwise; the headline names the most serious grade; the
// page says "Nothing widened." only when nothing widens and nothing
// grades medium or above; every dropped floor entry is marked, and every
// new risk path is shown with each of its hops.
func TestVerdictGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 8))
	const toolsets = 10
	m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: gen.Manifest(toolsets)})
	load := func(name, text string) *diff.Side {
		s, _, err := diff.Load(lint.Source{Name: name, Data: []byte(text)}, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s // nil when the config has errors
	}
	pairs, seen, droppedSeen := 0, map[string]int{}, 0
	for i := range 40 {
		base := string(gen.Config(2+i%6, toolsets))
		changed := base
		for range 1 + rng.IntN(3) {
			changed = mutations[rng.IntN(len(mutations))](changed, rng)
		}
		if i%5 == 4 {
			changed = string(gen.Config(2+(i+3)%6, toolsets))
		}
		oldText, newText := base, changed
		if rng.IntN(2) == 0 {
			oldText, newText = changed, base
		}
		o, n := load("old.toml", oldText), load("new.toml", newText)
		if o == nil || n == nil {
			continue
		}
		pairs++
		r := diff.Compare(o, n)
		most, widened := independent(r)
		seen[most.String()]++
		if r.Floor != nil && len(r.Floor.Dropped) > 0 {
			droppedSeen++
		}
		model := report.Build(report.Input{Name: "new.toml", Policy: n.Policy, Config: []byte(newText), Changes: r})
		for _, failOn := range diff.FailOn {
			model.Input.FailOn = failOn
			var b strings.Builder
			if err := report.Write(&b, model); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			verdict := text(between(t, out, `<div id="verdict"`, "</div>"))
			var fails bool
			switch failOn {
			case "any":
				fails = widened || most >= reach.Medium
			default:
				fails = most >= map[string]reach.Grade{"critical": reach.Critical, "high": reach.High, "medium": reach.Medium}[failOn]
			}
			word := map[bool]string{true: "Would fail --fail-on ", false: "Passes --fail-on "}[fails] + failOn + ":"
			if !strings.Contains(verdict, word) {
				t.Errorf("pair %d: the verdict says %q; the changes, grading %s (widened %v), give %q", i, verdict, most, widened, word)
			}
			if most != reach.NoGrade && !strings.HasPrefix(verdict, most.String()+" ") {
				t.Errorf("pair %d: the headline %q does not start with the most serious grade, %s", i, verdict, most)
			}
			if got, want := strings.Contains(out, "Nothing widened"), !widened && most < reach.Medium; got != want {
				t.Errorf("pair %d: the page says \"Nothing widened\": %v; the changes grade %s, widened %v", i, got, most, widened)
			}
			dropped := 0
			if r.Floor != nil {
				dropped = len(r.Floor.Dropped)
			}
			hops := 0
			for _, c := range r.Risks {
				hops += len(c.Path.Hops)
			}
			shown := 0
			for _, ol := range hopLists.FindAllString(out, -1) {
				shown += strings.Count(ol, "<li>")
			}
			if got := strings.Count(out, `<span class="badge dropped">dropped</span>`); got != dropped {
				t.Errorf("pair %d: %d dropped floor entries are marked, want %d", i, got, dropped)
			}
			if got := strings.Count(out, `<li class="risk">`); got != len(r.Risks) || shown != hops {
				t.Errorf("pair %d: %d risk paths with %d hops are shown, want %d with %d", i, got, shown, len(r.Risks), hops)
			}
		}
	}
	// The generated changes reach every grade but critical (the
	// generated install has no untrusted content to start a risk path
	// from: TestVerdict's cases have them), passing and failing alike.
	for _, g := range []string{"none", "info", "medium", "high"} {
		if seen[g] == 0 {
			t.Errorf("no generated change grades %s (of %d pairs: %v)", g, pairs, seen)
		}
	}
	if droppedSeen == 0 {
		t.Errorf("no generated change drops a floor entry")
	}
	t.Logf("%d pairs, by most serious grade: %v; %d drop a floor entry", pairs, seen, droppedSeen)
}

// TestManifestOnFirstScreen: an MCP server moved to another host, with a
// token added, is on the page's graded changes, each with both values and
// its grade, and the manifest's own change is said too.
func TestManifestOnFirstScreen(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "diff", "mcp-server-moved")
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	m := lint.LoadManifest(lint.Source{Name: "manifest.json", Data: read("manifest.json")})
	o, _, err := diff.Load(lint.Source{Name: "old.toml", Data: read("old.toml")}, m, nil)
	if err != nil || o == nil {
		t.Fatalf("old.toml: %v", err)
	}
	n, _, err := diff.Load(lint.Source{Name: "new.toml", Data: read("new.toml")}, m, nil)
	if err != nil || n == nil {
		t.Fatalf("new.toml: %v", err)
	}
	r := diff.Compare(o, n)
	if r.Manifest == nil || len(r.Manifest.Servers) == 0 {
		t.Fatal("the case holds no MCP server change")
	}
	out := text(between(t, string(page(t, report.Input{Name: "new.toml", Policy: n.Policy, Config: read("new.toml"), Changes: r, FailOn: "high"})),
		`<h3 id="manifest-h">`, "</ul>"))
	for _, sc := range r.Manifest.Servers {
		want := fmt.Sprintf("%s MCP server %s %s:", sc.Grade, sc.Server, sc.Field)
		if !strings.Contains(out, want) || (sc.New != "" && !strings.Contains(out, sc.New)) || (sc.Old != "" && !strings.Contains(out, sc.Old)) {
			t.Errorf("the page's manifest section lacks %q with both values:\n%s", want, out)
		}
		if sc.Grade < reach.High {
			t.Errorf("MCP server %s's %s change grades %v, want at least high", sc.Server, sc.Field, sc.Grade)
		}
	}
}
