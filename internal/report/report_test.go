package report_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/report"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// load reads a case's config (and base, when it has one) as kokua-compile
// report does, named by base name so that the page does not depend on
// where the test runs.
func load(t testing.TB, dir string) report.Input {
	t.Helper()
	m := lint.DefaultManifest()
	side := func(name string) *diff.Side {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		s, res, err := diff.Load(lint.Source{Name: name, Data: data}, m, nil)
		if err != nil || s == nil {
			t.Fatalf("%s/%s: %v %v", dir, name, err, res.Diagnostics)
		}
		return s
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	newSide := side("config.toml")
	in := report.Input{Name: "config.toml", Policy: newSide.Policy, Config: cfg}
	if _, err := os.Stat(filepath.Join(dir, "base.toml")); err == nil {
		in.Changes = diff.Compare(side("base.toml"), newSide)
	}
	return in
}

func page(t testing.TB, in report.Input) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.Write(&b, report.Build(in)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGolden writes the page of every case of testdata/report
// (config.toml, compared with base.toml when the case has one) and
// compares it with want.html; -update rewrites them. Each page is written
// twice, to the same bytes.
func TestGolden(t *testing.T) {
	for _, dir := range golden.Cases(t, "report") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			in := load(t, dir)
			got := page(t, in)
			if again := page(t, load(t, dir)); !bytes.Equal(got, again) {
				t.Errorf("two pages of the same input differ")
			}
			golden.Check(t, filepath.Join(dir, "want.html"), withoutAssets(t, got))
		})
	}
}

// withoutAssets returns a page with its inlined style and script, the same
// on every page, replaced by the names of the files they must be:
// page.css and page.js, byte for byte, which the page's
// Content-Security-Policy names by hash (TestCSP), and the second copy of
// the matrix's head by a note. So a golden page shows what its case puts
// on the page, and the assets are held once.
func withoutAssets(t *testing.T, page []byte) []byte {
	t.Helper()
	for _, asset := range []struct{ open, close, file string }{
		{"<style>", "</style>", "page.css"},
		{"<script>", "</script>", "page.js"},
	} {
		want, err := os.ReadFile(asset.file)
		if err != nil {
			t.Fatal(err)
		}
		before, rest, ok := bytes.Cut(page, []byte(asset.open))
		inlined, after, ok2 := bytes.Cut(rest, []byte(asset.close))
		if !ok || !ok2 || bytes.Contains(after, []byte(asset.open)) {
			t.Fatalf("the page does not inline one %s%s", asset.open, asset.close)
		}
		if !bytes.Equal(inlined, want) {
			t.Errorf("the page's %s is not %s", asset.open, asset.file)
		}
		page = slices.Concat(before, []byte(asset.open+"/* "+asset.file+" */"+asset.close), after)
	}
	// The scripted matrix repeats the head of the static one, for readers
	// with scripts off: held here, and shown once.
	static := headOf(page, `<table id="m-static"`)
	scripted := headOf(page, `<table id="m"`)
	if static == nil || scripted == nil {
		t.Fatalf("the page has no static and scripted matrix with a <thead>")
	}
	if !bytes.Equal(page[static[0]:static[1]], page[scripted[0]:scripted[1]]) {
		t.Errorf("the scripted matrix's <thead> is not the static one's")
	}
	return slices.Concat(page[:scripted[0]], []byte("<!-- the <thead> of #m-static -->"), page[scripted[1]:])
}

// headOf returns the bounds of what the <thead> of the table that opens
// with open holds.
func headOf(page []byte, open string) []int {
	at := bytes.Index(page, []byte(open))
	if at < 0 {
		return nil
	}
	from := bytes.Index(page[at:], []byte("<thead>"))
	to := bytes.Index(page[at:], []byte("</thead>"))
	if from < 0 || to < from {
		return nil
	}
	return []int{at + from + len("<thead>"), at + to}
}

// states lists the simulator states of a model to compare: every subset of
// the loadable toolsets when there are few, otherwise count random ones,
// each with an attended and an unattended turn.
func states(m *report.Model, rng *rand.Rand, count int) []map[int]bool {
	var loadable []int
	seen := map[int]bool{}
	for _, r := range m.Rows {
		for _, t := range r.Deferred {
			if !seen[t] {
				seen[t] = true
				loadable = append(loadable, t)
			}
		}
	}
	slices.Sort(loadable)
	var out []map[int]bool
	if len(loadable) <= 8 {
		for mask := 0; mask < 1<<len(loadable); mask++ {
			s := map[int]bool{}
			for i, t := range loadable {
				if mask&(1<<i) != 0 {
					s[t] = true
				}
			}
			out = append(out, s)
		}
		return out
	}
	for range count {
		s := map[int]bool{}
		for _, t := range loadable {
			if rng.IntN(3) == 0 {
				s[t] = true
			}
		}
		out = append(out, s)
	}
	return out
}

// runtimeAnswer is what the policy package answers for the cell: a
// session of the agent that loads the chosen toolsets it defers, in its
// available order, asked about the tool by its qualified name.
func runtimeAnswer(t testing.TB, p *policy.Policy, m *report.Model, r, j int, loaded map[int]bool, unattended bool) policy.Answer {
	row := m.Rows[r]
	tool := m.Columns[j].Name()
	if row.Composed {
		return p.Decide(row.Label, tool, policy.Turn{Unattended: unattended})
	}
	s, err := p.NewSession(row.Label)
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range row.Deferred {
		if loaded[ts] {
			s.Load(m.Toolsets[ts])
		}
	}
	return s.Decide(tool, policy.Turn{Unattended: unattended})
}

// same fails unless the page's answer (a number in m.Answers) is the
// runtime's: its decision and its reason.
func same(t testing.TB, m *report.Model, what string, got int, want policy.Answer) {
	t.Helper()
	a := m.Answers[got]
	why := m.Reasons[a[1]]
	if report.Decisions[a[0]] != want.Decision || why.Summary != want.Reason.Summary || why.Entry != want.Reason.Entry ||
		why.Line != want.Reason.Position.Line || why.Column != want.Reason.Position.Column || why.Reviewer != want.Reason.Reviewer {
		t.Errorf("%s: the page answers %s (%+v), the runtime %s (%+v)", what, report.Decisions[a[0]], why, want.Decision, want.Reason)
	}
}

// compiled compiles a generated config against its manifest.
func compiled(t testing.TB, agents, toolsets int) *policy.Policy {
	t.Helper()
	doc, ds, err := compile.Compile(gen.Config(agents, toolsets), gen.Manifest(toolsets), compile.Options{})
	if err != nil {
		t.Fatalf("gen.Config(%d, %d): %v %v", agents, toolsets, err, ds)
	}
	data, err := policy.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Parse("gen", data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLookupAgreesWithRuntime: for the cases' configs (every state) and
// generated ones (random states), every cell's answer the page would show
// is the answer of a session of the policy package in that state.
func TestLookupAgreesWithRuntime(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	type subject struct {
		name string
		p    *policy.Policy
	}
	var subjects []subject
	for _, dir := range golden.Cases(t, "report") {
		subjects = append(subjects, subject{filepath.Base(dir), load(t, dir).Policy})
	}
	for _, size := range [][2]int{{6, 8}, {20, 30}, {45, 12}} {
		subjects = append(subjects, subject{fmt.Sprintf("gen(%d,%d)", size[0], size[1]), compiled(t, size[0], size[1])})
	}
	for _, s := range subjects {
		t.Run(s.name, func(t *testing.T) {
			m := report.Build(report.Input{Name: s.name, Policy: s.p})
			for _, loaded := range states(m, rng, 6) {
				for _, unattended := range []bool{false, true} {
					for r := range m.Rows {
						for j := range m.Columns {
							what := fmt.Sprintf("%s %s loaded %v unattended %v", m.Rows[r].Agent, m.Columns[j].Name(), loaded, unattended)
							same(t, m, what, m.Lookup(r, j, loaded, unattended), runtimeAnswer(t, s.p, m, r, j, loaded, unattended))
						}
					}
				}
			}
		})
	}
}

// TestHostileNamesAreText: agent names written as HTML and script reach
// the page only escaped, in every context they land in (text, attribute,
// SVG, the JSON block), and the JSON block cannot be ended early.
func TestHostileNamesAreText(t *testing.T) {
	out := string(page(t, load(t, filepath.Join(golden.Root(t), "testdata", "report", "hostile"))))
	for _, raw := range []string{"<script>alert", "<img src=x", "<svg onload", "'><svg", `"'>`} {
		if strings.Contains(out, raw) {
			t.Errorf("the page carries %q raw", raw)
		}
	}
	if n := strings.Count(out, "<script"); n != 2 {
		t.Errorf("the page has %d script elements, want 2 (the data and the script)", n)
	}
	if n := strings.Count(out, "</script>"); n != 2 {
		t.Errorf("the page closes %d script elements, want 2", n)
	}
}

// TestCSP: the page's Content-Security-Policy allows its own style and
// script by hash and nothing else; only the served page may call its
// server.
func TestCSP(t *testing.T) {
	for _, served := range []bool{false, true} {
		csp := report.CSP(served)
		for _, want := range []string{"default-src 'none'", "script-src 'sha256-", "style-src 'sha256-", "base-uri 'none'", "form-action 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("served %v: CSP %q lacks %q", served, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") || strings.Contains(csp, "http") {
			t.Errorf("served %v: CSP %q allows too much", served, csp)
		}
		if got := strings.Contains(csp, "connect-src 'self'"); got != served {
			t.Errorf("served %v: CSP %q", served, csp)
		}
	}
}

// between is the part of s from the first from to the first to after it.
func between(t *testing.T, s, from, to string) string {
	t.Helper()
	i := strings.Index(s, from)
	if i < 0 {
		t.Fatalf("the page has no %q", from)
	}
	j := strings.Index(s[i:], to)
	if j < 0 {
		t.Fatalf("the page has no %q after %q", to, from)
	}
	return s[i : i+j]
}

// TestAgentsTextLines: the agents block keeps its line breaks as line
// breaks, escaped, never as a written \n.
func TestAgentsTextLines(t *testing.T) {
	in := caseInput(t, "hostile")
	block := between(t, string(page(t, in)), `<pre id="agents-text">`, "</pre>")
	m := report.Build(in)
	if strings.Contains(block, `\n`) || strings.Count(block, "\n") != strings.Count(m.AgentsText, "\n") {
		t.Errorf("the agents block has %d line breaks and %d written \\n; the text has %d lines", strings.Count(block, "\n"),
			strings.Count(block, `\n`), strings.Count(m.AgentsText, "\n"))
	}
	if strings.Contains(block, "<script") || strings.Contains(block, "<img") {
		t.Errorf("the agents block carries a name raw")
	}
}

// TestSummaryCountsTheRows (issue 38): the summary's count of agents is
// the matrix's count of rows, composed workers included when an agent can
// compose them, and says how many of them are declared.
func TestSummaryCountsTheRows(t *testing.T) {
	// A config where no agent can compose workers, and the golden cases,
	// where one can.
	noComposer := []byte("[assistant.tools]\nconfirm = []\nreview = []\n\n[agents.assistant]\ndelegates_to = [\"coder\"]\n\n[agents.assistant.tools]\navailable = [\"time\"]\n\n[agents.coder.tools]\navailable = [\"fs\"]\n")
	s, res, err := diff.Load(lint.Source{Name: "config.toml", Data: noComposer}, lint.DefaultManifest(), nil)
	if err != nil || s == nil {
		t.Fatalf("%v %v", err, res.Diagnostics)
	}
	inputs := []report.Input{{Name: "config.toml", Policy: s.Policy, Config: noComposer}}
	for _, dir := range golden.Cases(t, "report") {
		inputs = append(inputs, load(t, dir))
	}
	seen := map[bool]bool{}
	for _, in := range inputs {
		dir := in.Name
		m := report.Build(in)
		composed := slices.ContainsFunc(m.Rows, func(r report.Row) bool { return r.Composed })
		seen[composed] = true
		want := fmt.Sprintf(`<dd id="fact-agents">%d</dd>`, len(m.Rows))
		if composed {
			want = fmt.Sprintf(`<dd id="fact-agents">%d (%d declared, and composed workers)</dd>`, len(m.Rows), len(in.Policy.Document().Agents))
		}
		if !bytes.Contains(page(t, in), []byte(want)) {
			t.Errorf("%s: the summary does not say %s", dir, want)
		}
	}
	if !seen[true] || !seen[false] {
		t.Errorf("the cases do not cover a policy with and one without composed workers: %v", seen)
	}
}
