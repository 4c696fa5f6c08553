package report_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kokua-policy/kokua-policy/internal/report"
	"github.com/kokua-policy/kokua-policy/internal/testing/browser"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/policy"
)

// file writes a page into a temporary folder and returns its file:// URL.
func file(t *testing.T, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

// caseInput reads a case of testdata/report.
func caseInput(t *testing.T, name string) report.Input {
	t.Helper()
	return load(t, filepath.Join(golden.Root(t), "testdata", "report", name))
}

// TestBrowserSimulatorAgreesWithRuntime runs the page's own script in
// Chromium: for the cases' configs and generated ones, in random states
// of loaded toolsets and attended or unattended turns, the decision and
// reason the page shows for every cell are the runtime's, a session of
// the policy package that loaded those toolsets. One state per subject is
// set through the simulator's checkboxes, and the matrix's cells are read
// as the page shows them.
func TestBrowserSimulatorAgreesWithRuntime(t *testing.T) {
	b := browser.New(t, 1280, 800)
	rng := rand.New(rand.NewPCG(23, 2))
	type subject struct {
		name string
		in   report.Input
	}
	subjects := []subject{{"shipped", caseInput(t, "shipped")}, {"team", caseInput(t, "team")}}
	for _, size := range [][2]int{{6, 8}, {20, 30}} {
		subjects = append(subjects, subject{fmt.Sprintf("gen(%d,%d)", size[0], size[1]), report.Input{Name: "gen", Policy: compiled(t, size[0], size[1])}})
	}
	for _, s := range subjects {
		m := report.Build(s.in)
		url := file(t, page(t, s.in))
		b.Open(t, url)
		all := states(m, rng, 4)
		if len(all) > 6 {
			rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
			all = all[:6]
		}
		for _, loaded := range all {
			for _, unattended := range []bool{false, true} {
				names := []string{}
				for ts := range loaded {
					names = append(names, m.Toolsets[ts])
				}
				slices.Sort(names)
				arg, _ := json.Marshal(names)
				// answers: for every row and column, [decision, reason].
				got := browser.Eval[[][][2]any](t, b, fmt.Sprintf(`(function(){
  var X = window.kokuaExplorer, D = X.data, loaded = {};
  %s.forEach(function (n) { loaded[D.toolsets.indexOf(n)] = true; });
  return D.rows.map(function (r, i) { return D.tools.map(function (_, j) {
    var a = D.answers[X.answer(i, j, loaded, %v)]; return [D.decisions[a[0]], D.reasons[a[1]]]; }); });
})()`, arg, unattended))
				for r := range m.Rows {
					for j := range m.Columns {
						want := runtimeAnswer(t, s.in.Policy, m, r, j, loaded, unattended)
						cell := got[r][j]
						why, _ := cell[1].(map[string]any)
						if cell[0] != string(want.Decision) || why["s"] != want.Reason.Summary {
							t.Errorf("%s: %s %s loaded %v unattended %v: the page answers %v (%v), the runtime %s (%s)", s.name, m.Rows[r].Agent,
								m.Columns[j].Name(), names, unattended, cell[0], why["s"], want.Decision, want.Reason.Summary)
						}
					}
				}
			}
		}
		// The same through the form: tick the last state's toolsets and
		// "unattended", and read the letters the matrix shows.
		loaded := all[len(all)-1]
		for ts := range loaded {
			b.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#sim input[value=%q]`, m.Toolsets[ts]))))
		}
		b.Do(t, chromedp.Click(chromedp.ID("unattended")))
		shown := browser.Eval[[][]string](t, b, `window.kokuaExplorer.matrix()`)
		for r := range m.Rows {
			for j := range m.Columns {
				want := runtimeAnswer(t, s.in.Policy, m, r, j, loaded, true)
				if letter := report.Letters[slices.Index(report.Decisions, want.Decision)]; shown[r][j] != letter {
					t.Errorf("%s: the simulator shows %s %s as %q, the runtime says %s", s.name, m.Rows[r].Agent, m.Columns[j].Name(), shown[r][j], want.Decision)
				}
			}
		}
		// The rows drawn show what the page's model says.
		for r, cells := range drawnRows(t, b) {
			for j, got := range cells {
				if got != shown[r][j] {
					t.Errorf("%s: %s %s is drawn as %q, the page's model says %q", s.name, m.Rows[r].Agent, m.Columns[j].Name(), got, shown[r][j])
				}
			}
		}
		status := browser.Eval[string](t, b, `document.getElementById("sim-state").textContent`)
		if !strings.Contains(status, "unattended") {
			t.Errorf("%s: the simulator's status says %q", s.name, status)
		}
		b.Clean(t)
	}
}

// TestBrowserReason opens a cell's reason with the mouse and with the
// keyboard: the panel names the entry and quotes its config line.
func TestBrowserReason(t *testing.T) {
	b := browser.New(t, 1280, 800)
	in := caseInput(t, "shipped")
	m := report.Build(in)
	url := file(t, page(t, in))
	b.Open(t, url)
	row := slices.IndexFunc(m.Rows, func(r report.Row) bool { return r.Agent == "assistant" })
	col := slices.IndexFunc(m.Columns, func(c report.Column) bool { return c.Name() == "config.update_config" })
	browser.Eval[bool](t, b, fmt.Sprintf(`window.kokuaExplorer.reveal(%d, %d) !== null`, row, col))
	b.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#m tbody tr[data-row="%d"] td[aria-colindex="%d"]`, row, col+2))))
	text := browser.Eval[string](t, b, `document.getElementById("reason").hidden ? "" : document.getElementById("reason").innerText`)
	want := in.Policy.Decide("assistant", "config.update_config", policy.Turn{})
	line := fmt.Sprintf("shipped.config.toml:%d:%d", want.Reason.Position.Line, want.Reason.Position.Column)
	line = strings.Replace(line, "shipped.config.toml", "config.toml", 1)
	for _, part := range []string{"confirm", want.Reason.Summary, line, `confirm = ["skills.add_skill_script", "mcp.add_mcp_server", "config.update_config"]`} {
		if !strings.Contains(text, part) {
			t.Errorf("the reason panel does not show %q:\n%s", part, text)
		}
	}
	// Keyboard: close, move right from the focused cell, open with Enter.
	b.Do(t, chromedp.Click(chromedp.ID("reason-close")))
	focused := browser.Eval[string](t, b, `document.activeElement.tagName + ":" + document.activeElement.getAttribute("aria-colindex")`)
	if focused != fmt.Sprintf("TD:%d", col+2) {
		t.Errorf("after closing the reason, focus is on %s, want the cell", focused)
	}
	b.Do(t, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter))
	got := browser.Eval[string](t, b, `document.activeElement.getAttribute("aria-colindex") + ":" + document.getElementById("reason").hidden + ":" + document.querySelector("#reason-body dd:nth-of-type(2)").textContent`)
	if want := fmt.Sprintf("%d:false:%s", col+3, m.Columns[col+1].Name()); got != want {
		t.Errorf("arrow right and Enter: %q, want %q", got, want)
	}
	b.Clean(t)
}

// TestBrowserKeyboard: the first Tab reaches the skip link, which leads
// to the matrix; exactly one cell is in the tab order, and the arrows
// move it; every form control has a label; headings do not skip a level.
func TestBrowserKeyboard(t *testing.T) {
	b := browser.New(t, 1280, 800)
	in := caseInput(t, "team")
	url := file(t, page(t, in))
	b.Open(t, url)
	b.Do(t, chromedp.KeyEvent(kb.Tab))
	if got := browser.Eval[string](t, b, `document.activeElement.className + " " + document.activeElement.getAttribute("href")`); got != "skip #matrix" {
		t.Errorf("the first Tab reaches %q, want the skip link", got)
	}
	if n := browser.Eval[int](t, b, `document.querySelectorAll("#m td[tabindex='0']").length`); n != 1 {
		t.Errorf("%d cells are in the tab order, want 1", n)
	}
	b.Do(t, chromedp.Focus(chromedp.CSS("#m td[tabindex='0']")), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowRight))
	if got := browser.Eval[string](t, b, `document.activeElement.parentNode.getAttribute("data-row") + ":" + document.activeElement.getAttribute("aria-colindex") + ":" + document.activeElement.tabIndex`); got != "1:3:0" {
		t.Errorf("down and right from the first cell reach %q, want row 1, cell 2, in the tab order", got)
	}
	unlabelled := browser.Eval[[]string](t, b, `Array.from(document.querySelectorAll("input, select, button")).filter(function (e) {
  return !(e.labels && e.labels.length) && !e.textContent.trim() && !e.getAttribute("aria-label"); }).map(function (e) { return e.outerHTML; })`)
	if len(unlabelled) > 0 {
		t.Errorf("controls without a label: %v", unlabelled)
	}
	levels := browser.Eval[[]int](t, b, `Array.from(document.querySelectorAll("h1, h2, h3, h4")).map(function (h) { return Number(h.tagName[1]); })`)
	for i := 1; i < len(levels); i++ {
		if levels[i] > levels[i-1]+1 {
			t.Errorf("heading levels skip: %v", levels)
		}
	}
	if len(levels) == 0 || levels[0] != 1 {
		t.Errorf("the page does not start with an h1: %v", levels)
	}
	b.Clean(t)
}

// TestBrowserFilterAndGraph: the agent filter and a click on an agent's
// box in the graph show only its row; collapsing a toolset hides all but
// its first column.
func TestBrowserFilterAndGraph(t *testing.T) {
	b := browser.New(t, 1280, 800)
	in := caseInput(t, "team")
	m := report.Build(in)
	url := file(t, page(t, in))
	b.Open(t, url)
	// visible is the rows the filters show, as the page's model has them;
	// the page is small enough for all of them to be drawn.
	visible := func() []string {
		shown := browser.Eval[[]string](t, b, `window.kokuaExplorer.shown()`)
		drawn := browser.Eval[[]string](t, b, `Array.from(document.querySelectorAll("#m tbody tr[data-row]")).map(function (tr) { return tr.cells[0].firstChild.textContent; })`)
		if !slices.Equal(shown, drawn) {
			t.Errorf("the page shows rows %v but draws %v", shown, drawn)
		}
		return shown
	}
	b.Do(t, chromedp.Click(chromedp.CSS(`#graph a.node[data-row="1"]`)))
	if got := visible(); !slices.Equal(got, []string{m.Rows[1].Agent}) {
		t.Errorf("after choosing %s in the graph, the rows shown are %v", m.Rows[1].Agent, got)
	}
	browser.Eval[bool](t, b, `(function () { var e = document.getElementById("f-agent"); e.value = ""; return e.dispatchEvent(new Event("input")); })()`)
	b.Do(t, chromedp.SendKeys(chromedp.ID("f-agent"), "e"))
	var want []string
	for _, r := range m.Rows {
		if strings.Contains(strings.ToLower(r.Agent), "e") {
			want = append(want, r.Agent)
		}
	}
	if got := visible(); !slices.Equal(got, want) {
		t.Errorf("filtering agents by %q shows %v, want %v", "e", got, want)
	}
	// shownCols is how many columns the page shows, as its model has
	// them; the header row shows as many.
	shownCols := func() int {
		n := browser.Eval[[]int](t, b, `[window.kokuaExplorer.columns().length, Array.from(document.querySelectorAll("#m thead th.tool")).filter(function (th) { return th.offsetParent !== null; }).length]`)
		if n[0] != n[1] {
			t.Errorf("the page shows %d columns, its header %d", n[0], n[1])
		}
		return n[0]
	}
	before := shownCols()
	b.Do(t, chromedp.Click(chromedp.CSS(`#m button.collapse[data-group="1"]`)))
	if after := shownCols(); after != before-len(m.Groups[1].Columns)+1 {
		t.Errorf("collapsing %s (%d tools) leaves %d of %d columns", m.Groups[1].Toolset, len(m.Groups[1].Columns), after, before)
	}
	// Expand it again, show every agent, and filter by decision: confirm,
	// then unavailable, which has no class of its own.
	b.Do(t, chromedp.Click(chromedp.CSS(`#m button.collapse[data-group="1"]`)))
	for _, d := range []policy.Decision{policy.Confirm, policy.Unavailable} {
		n := slices.Index(report.Decisions, d)
		browser.Eval[bool](t, b, fmt.Sprintf(`(function () { var a = document.getElementById("f-agent"); a.value = ""; a.dispatchEvent(new Event("input"));
  var e = document.getElementById("f-decision"); e.value = "%d"; return e.dispatchEvent(new Event("change")); })()`, n))
		var want []string
		for r, row := range m.Rows {
			for j := range m.Columns {
				if report.Decisions[m.Answers[m.Cells[row.Cells[j]].Idle[0]][0]] == d {
					want = append(want, m.Rows[r].Agent)
					break
				}
			}
		}
		if got := visible(); !slices.Equal(got, want) {
			t.Errorf("filtering by %s shows %v, want %v", d, got, want)
		}
	}
	b.Clean(t)
}

// TestBrowserDiff: the page of a change outlines its widened and narrowed
// cells, as many as the report lists, and lists the widened ones before
// the narrowed ones, after the verdict.
func TestBrowserDiff(t *testing.T) {
	b := browser.New(t, 1280, 800)
	in := caseInput(t, "team-diff")
	url := file(t, page(t, in))
	b.Open(t, url)
	// The cells' marks as the page's model has them; the drawn cells
	// show the model's letters and classes.
	marked := `(function () { var X = window.kokuaExplorer, w = 0, n = 0;
  X.data.rows.forEach(function (_, r) { X.data.columns.forEach(function (_, j) { var c = X.cell(r, j).cls.split(" ");
    if (c.indexOf("w") >= 0) w++; if (c.indexOf("n") >= 0) n++; }); });
  var bad = Array.from(document.querySelectorAll("#m tbody td[aria-colindex]")).filter(function (td) {
    var c = X.cell(Number(td.parentNode.getAttribute("data-row")), X.columns()[Number(td.getAttribute("aria-colindex")) - 2]);
    return td.textContent !== c.text || td.className.replace(/ ?sel/, "") !== c.cls; }).length;
  return [w, n, bad]; })()`
	got := append(browser.Eval[[]int](t, b, marked), browser.Eval[[]int](t, b, `[document.querySelectorAll("#changes tr.widened").length, document.querySelectorAll("#changes tr.narrowed").length]`)...)
	want := []int{in.Changes.WidenedCount, in.Changes.NarrowedCount, 0, in.Changes.WidenedCount, in.Changes.NarrowedCount}
	if !slices.Equal(got, want) {
		t.Errorf("widened and narrowed cells, cells drawn unlike the model, then rows: %v, want %v", got, want)
	}
	// The changes open with the verdict; the tools widened come before
	// those narrowed.
	order := browser.Eval[[]string](t, b, `Array.from(document.querySelectorAll("#changes > div, #changes > h3")).map(function (e) { return e.id; })`)
	if len(order) == 0 || order[0] != "verdict" || slices.Index(order, "widened-h") > slices.Index(order, "narrowed-h") {
		t.Errorf("the changes' parts come in the order %v, want the verdict first and the tools widened before those narrowed", order)
	}
	// A widened cell keeps its mark through the simulator.
	b.Do(t, chromedp.Click(chromedp.ID("unattended")))
	if n := browser.Eval[[]int](t, b, marked); n[0] != in.Changes.WidenedCount || n[2] != 0 {
		t.Errorf("after the simulator repainted, %d widened cells are marked, %d cells drawn unlike the model", n[0], n[2])
	}
	b.Clean(t)
}

// TestBrowserHostile: agents named with HTML and script show as their
// names, and nothing of them runs (a dialog would be a problem).
func TestBrowserHostile(t *testing.T) {
	b := browser.New(t, 1280, 800)
	in := caseInput(t, "hostile")
	url := file(t, page(t, in))
	b.Open(t, url)
	names := browser.Eval[[]string](t, b, `Array.from(document.querySelectorAll("#m tbody th")).map(function (th) { return th.firstChild.textContent; })`)
	for _, want := range []string{"</script><script>alert(1)</script>", "<img src=x onerror=alert(2)>", `"'><svg onload=alert(3)>`} {
		if !slices.Contains(names, want) {
			t.Errorf("no row is named %q: %q", want, names)
		}
	}
	if n := browser.Eval[int](t, b, `document.querySelectorAll("img, script:not([type]), iframe, object, embed").length + document.querySelectorAll("svg").length`); n != 2 {
		t.Errorf("the page has %d script, image and svg elements, want its one script and its one drawing", n)
	}
	b.Clean(t)
}

// TestBrowserPhone: at a phone's width the page does not scroll sideways;
// the matrix and the graph scroll in their own boxes. The page follows
// the light and the dark colour scheme.
func TestBrowserPhone(t *testing.T) {
	b := browser.New(t, 390, 844)
	in := caseInput(t, "team")
	url := file(t, page(t, in))
	b.Open(t, url)
	if got := browser.Eval[[]int](t, b, `[document.documentElement.scrollWidth, window.innerWidth]`); got[0] > got[1] {
		t.Errorf("at %d pixels wide the page is %d wide", got[1], got[0])
	}
	// Light and dark follow prefers-color-scheme: the page's background
	// and a run cell's colour change with it.
	colours := `[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector("#m td.r")).backgroundColor]`
	for scheme, want := range map[string][]string{"light": {"rgb(255, 255, 255)", "rgb(207, 232, 247)"}, "dark": {"rgb(22, 22, 22)", "rgb(13, 58, 87)"}} {
		if _, err := chromedp.Call(b.Ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
			t.Fatal(err)
		}
		if got := browser.Eval[[]string](t, b, colours); !slices.Equal(got, want) {
			t.Errorf("%s scheme: background and run cell %v, want %v", scheme, got, want)
		}
	}
	b.Clean(t)
}

// TestBrowserWithoutScripts: with scripts off, the matrix is the HTML's
// own table, one row per agent with every cell's letter, and the
// script's table stays hidden.
func TestBrowserWithoutScripts(t *testing.T) {
	b := browser.New(t, 1280, 800)
	in := caseInput(t, "team")
	m := report.Build(in)
	url := file(t, page(t, in))
	if _, err := chromedp.Call(b.Ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	b.Do(t, chromedp.Navigate(url))
	got := browser.Eval[[][]string](t, b, `Array.from(document.querySelectorAll("#m-static tbody tr")).map(function (tr) {
  return Array.from(tr.cells).map(function (c, i) { return i === 0 ? c.firstChild.textContent : c.textContent; }); })`)
	if len(got) != len(m.Rows) {
		t.Fatalf("without scripts the matrix has %d rows, want %d", len(got), len(m.Rows))
	}
	for r, row := range m.Rows {
		if got[r][0] != row.Agent || len(got[r]) != len(m.Columns)+1 {
			t.Errorf("row %d: %q with %d cells", r, got[r][0], len(got[r])-1)
			continue
		}
		for j := range m.Columns {
			d := m.Answers[m.Cells[row.Cells[j]].Idle[0]][0]
			if got[r][j+1] != report.Letters[d] {
				t.Errorf("%s %s: %q, want %q", row.Agent, m.Columns[j].Name(), got[r][j+1], report.Letters[d])
			}
		}
	}
	if hidden := browser.Eval[bool](t, b, `document.getElementById("m").offsetParent === null`); !hidden {
		t.Errorf("without scripts the script's empty matrix shows")
	}
	b.Clean(t, url)
}

// drawnRows is the matrix's drawn rows, by row of the model, each its
// drawn cells' letters by column of the model; it checks that each row's
// aria-rowindex is its place among the rows the filters show, after the
// two header rows.
func drawnRows(t *testing.T, b *browser.Browser) map[int]map[int]string {
	t.Helper()
	got := browser.Eval[[][]any](t, b, `(function () {
  var X = window.kokuaExplorer, shown = X.shown(), cols = X.columns();
  return Array.from(document.querySelectorAll("#m tbody tr[data-row]")).map(function (tr) {
    return [Number(tr.getAttribute("data-row")), Number(tr.getAttribute("aria-rowindex")) - 3, shown.indexOf(tr.cells[0].firstChild.textContent)].concat(
      Array.from(tr.querySelectorAll("td[aria-colindex]")).map(function (td) { return [cols[Number(td.getAttribute("aria-colindex")) - 2], td.textContent]; })); }); })()`)
	rows := map[int]map[int]string{}
	for _, row := range got {
		r, place, want := int(row[0].(float64)), int(row[1].(float64)), int(row[2].(float64))
		if place != want {
			t.Errorf("row %d is drawn with aria-rowindex for place %d, its place is %d", r, place, want)
		}
		if _, dup := rows[r]; dup {
			t.Errorf("row %d is drawn twice", r)
		}
		rows[r] = map[int]string{}
		for _, c := range row[3:] {
			jc := c.([]any)
			rows[r][int(jc[0].(float64))] = jc[1].(string)
		}
	}
	return rows
}

// TestBrowserLargeMatrix: on a matrix larger than its scrolling box, the
// page draws only the rows and columns in view and a few more; scrolled
// from top to bottom and left to right, every cell is drawn at its place
// as the runtime decides it, idle and then unattended, and the corners of
// the box show drawn cells, not the spacers; the keyboard reaches rows
// and columns that were not drawn (Control+End, End, an arrow past the
// last drawn row, Page Down), scrolling them into view.
//
// The matrix is as large as the window needs for all of that: more rows
// and columns than are drawn at once, several boxes of them each way
// (the first check below holds the test to it). A larger one (it was 300
// agents by 10 toolsets) checks nothing more and took three minutes of a
// loaded machine (issue 37); tools/explorerbench times large pages.
func TestBrowserLargeMatrix(t *testing.T) {
	b := browser.New(t, 700, 800)
	in := report.Input{Name: "gen", Policy: compiled(t, 100, 12)}
	m := report.Build(in)
	b.Open(t, file(t, page(t, in)))
	counts := browser.Eval[[]int](t, b, `[document.querySelectorAll("#m tbody tr[data-row]").length, document.querySelector("#m tbody tr[data-row]").querySelectorAll("td[aria-colindex]").length,
  Number(document.getElementById("m").getAttribute("aria-rowcount")), Number(document.getElementById("m").getAttribute("aria-colcount"))]`)
	// Fewer than half the rows and columns drawn: scrolling draws others.
	if counts[0] == 0 || 2*counts[0] >= len(m.Rows) || counts[1] == 0 || 2*counts[1] >= len(m.Columns) || counts[2] != len(m.Rows)+2 || counts[3] != len(m.Columns)+1 {
		t.Fatalf("%d of %d rows and %d of %d columns are drawn, aria-rowcount %d, aria-colcount %d", counts[0], len(m.Rows), counts[1], len(m.Columns), counts[2], counts[3])
	}
	sweep := func(unattended bool) {
		letters := make([][]string, len(m.Rows))
		for r := range m.Rows {
			for j := range m.Columns {
				want := runtimeAnswer(t, in.Policy, m, r, j, nil, unattended)
				letters[r] = append(letters[r], report.Letters[slices.Index(report.Decisions, want.Decision)])
			}
		}
		seen := map[[2]int]bool{}
		for top := 0; ; {
			var edge []any
			for left := 0; ; {
				edge = browser.EvalAwait[[]any](t, b, fmt.Sprintf(`new Promise(function (done) {
  var box = document.getElementById("matrix-scroll");
  box.scrollIntoView({ block: "start" });
  box.scrollTop = %d;
  box.scrollLeft = %d;
  requestAnimationFrame(function () { requestAnimationFrame(function () {
    var rect = box.getBoundingClientRect(), head = document.querySelector("#m thead tr:nth-child(2) th").getBoundingClientRect();
    var at = [[head.right + 3, head.bottom + 3], [rect.right - 25, head.bottom + 3], [head.right + 3, rect.bottom - 25], [rect.right - 25, rect.bottom - 25]].map(function (xy) {
      var e = document.elementFromPoint(xy[0], xy[1]);
      return e && e.hasAttribute("aria-colindex") && e.parentNode.hasAttribute("data-row") ? 1 : 0; });
    done([box.scrollTop, box.scrollHeight - box.clientHeight, box.clientHeight, box.scrollLeft, box.scrollWidth - box.clientWidth, box.clientWidth].concat(at));
  }); });
})`, top, left))
				for r, cells := range drawnRows(t, b) {
					for j, got := range cells {
						seen[[2]int{r, j}] = true
						if got != letters[r][j] {
							t.Errorf("unattended %v: %s %s is drawn as %q, the runtime says %s", unattended, m.Rows[r].Agent, m.Columns[j].Name(), got, letters[r][j])
						}
					}
				}
				for i, corner := range edge[6:] {
					if corner != 1.0 {
						t.Errorf("scrolled to %v, %v: corner %d of the box shows no drawn cell", edge[0], edge[3], i)
					}
				}
				if edge[3].(float64) >= edge[4].(float64) {
					break
				}
				left = int(edge[3].(float64) + edge[5].(float64)/2)
			}
			if edge[0].(float64) >= edge[1].(float64) {
				break
			}
			top = int(edge[0].(float64) + edge[2].(float64)/2)
		}
		if len(seen) != len(m.Rows)*len(m.Columns) {
			t.Errorf("scrolling from top to bottom drew %d of %d cells", len(seen), len(m.Rows)*len(m.Columns))
		}
	}
	sweep(false)
	b.Do(t, chromedp.Click(chromedp.ID("unattended")))
	sweep(true)

	active := func() []int {
		return browser.EvalAwait[[]int](t, b, `new Promise(function (done) { requestAnimationFrame(function () { requestAnimationFrame(function () {
  var e = document.activeElement, box = document.getElementById("matrix-scroll").getBoundingClientRect(), r = e.getBoundingClientRect();
  done([Number(e.parentNode.getAttribute("data-row")), Number(e.getAttribute("aria-colindex")) - 2,
    r.top >= box.top && r.bottom <= box.bottom && r.left >= box.left && r.right <= box.right ? 1 : 0, e.tabIndex]); }); }); })`)
	}
	last := len(m.Rows) - 1
	browser.Eval[bool](t, b, `(function () { var box = document.getElementById("matrix-scroll"); box.scrollTop = 0; box.scrollLeft = 0;
  window.kokuaExplorer.reveal(0, 0).click(); return true; })()`)
	for _, step := range []struct {
		name string
		keys chromedp.Action[chromedp.Void]
		want []int
	}{
		{"Control+End", chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(kb.ModifierCtrl)), []int{last, 0, 1, 0}},
		{"arrow up", chromedp.KeyEvent(kb.ArrowUp), []int{last - 1, 0, 1, 0}},
		{"End", chromedp.KeyEvent(kb.End), []int{last - 1, len(m.Columns) - 1, 1, 0}},
		{"Control+Home", chromedp.KeyEvent(kb.Home, chromedp.KeyModifiers(kb.ModifierCtrl)), []int{0, len(m.Columns) - 1, 1, 0}},
		{"Home", chromedp.KeyEvent(kb.Home), []int{0, 0, 1, 0}},
	} {
		b.Do(t, step.keys)
		if got := active(); !slices.Equal(got, step.want) {
			t.Errorf("%s: focus on row, column, in view, tab index %v, want %v", step.name, got, step.want)
			t.Log(browser.Eval[string](t, b, `JSON.stringify([document.activeElement.getBoundingClientRect(), document.getElementById("matrix-scroll").getBoundingClientRect(), document.getElementById("matrix-scroll").scrollLeft, document.getElementById("matrix-scroll").scrollWidth, document.getElementById("matrix-scroll").clientWidth])`))
		}
	}
	// An arrow down from the last drawn row reaches one not drawn yet.
	lastDrawn := browser.Eval[int](t, b, `(function () { var rows = document.querySelectorAll("#m tbody tr[data-row]"), tr = rows[rows.length - 1];
  tr.querySelector("td[aria-colindex]").focus({ preventScroll: true }); return Number(tr.getAttribute("data-row")); })()`)
	if browser.Eval[int](t, b, fmt.Sprintf(`document.querySelectorAll('#m tbody tr[data-row="%d"]').length`, lastDrawn+1)) != 0 {
		t.Fatalf("row %d, after the last drawn, is drawn", lastDrawn+1)
	}
	b.Do(t, chromedp.KeyEvent(kb.ArrowDown))
	if got := active(); !slices.Equal(got, []int{lastDrawn + 1, 0, 1, 0}) {
		t.Errorf("arrow down from the last drawn row %d: %v", lastDrawn, got)
	}
	b.Do(t, chromedp.KeyEvent(kb.PageDown))
	if got := active(); got[0] <= lastDrawn+1 || got[2] != 1 {
		t.Errorf("Page Down from row %d: %v", lastDrawn+1, got)
	}
	if n := browser.Eval[int](t, b, `document.querySelectorAll("#m td[tabindex='0']").length`); n != 1 {
		t.Errorf("%d cells are in the tab order, want 1", n)
	}

	// Filtered by agent name and by a toolset, the page shows the rows
	// and columns the filters keep, and draws them at their places
	// (drawnRows checks aria-rowindex) as the runtime decides them.
	name := browser.Eval[string](t, b, `(function () { var e = document.getElementById("f-agent"); e.value = "1"; e.dispatchEvent(new Event("input"));
  var s = document.getElementById("f-toolset"); s.selectedIndex = 2; s.dispatchEvent(new Event("change")); return s.options[2].textContent; })()`)
	var wantRows []string
	for _, row := range m.Rows {
		if strings.Contains(strings.ToLower(row.Agent), "1") {
			wantRows = append(wantRows, row.Agent)
		}
	}
	var wantCols []int
	for j, c := range m.Columns {
		if strings.HasPrefix(c.Name(), name+".") {
			wantCols = append(wantCols, j)
		}
	}
	if got := browser.Eval[[]string](t, b, `window.kokuaExplorer.shown()`); !slices.Equal(got, wantRows) {
		t.Errorf("filtered by %q, the page shows rows %v, want %v", "1", got, wantRows)
	}
	if got := browser.Eval[[]int](t, b, `window.kokuaExplorer.columns()`); !slices.Equal(got, wantCols) {
		t.Errorf("filtered by toolset %s, the page shows columns %v, want %v", name, got, wantCols)
	}
	seen := map[int]bool{}
	for top := 0; ; {
		edge := browser.EvalAwait[[]float64](t, b, fmt.Sprintf(`new Promise(function (done) {
  var box = document.getElementById("matrix-scroll");
  box.scrollTop = %d;
  requestAnimationFrame(function () { requestAnimationFrame(function () { done([box.scrollTop, box.scrollHeight - box.clientHeight, box.clientHeight]); }); });
})`, top))
		for r, cells := range drawnRows(t, b) {
			seen[r] = true
			if !slices.Contains(wantRows, m.Rows[r].Agent) {
				t.Errorf("filtered by %q, row %s is drawn", "1", m.Rows[r].Agent)
			}
			for j, got := range cells {
				want := runtimeAnswer(t, in.Policy, m, r, j, nil, true)
				if !slices.Contains(wantCols, j) || got != report.Letters[slices.Index(report.Decisions, want.Decision)] {
					t.Errorf("filtered: %s %s is drawn as %q, the runtime says %s", m.Rows[r].Agent, m.Columns[j].Name(), got, want.Decision)
				}
			}
		}
		if edge[0] >= edge[1] {
			break
		}
		top = int(edge[0] + edge[2]/2)
	}
	if len(seen) != len(wantRows) {
		t.Errorf("filtered, scrolling drew %d of %d rows", len(seen), len(wantRows))
	}
	b.Clean(t)
}

// TestBrowserVerdictFirstScreen opens pages of changes in Chromium at
// 1280x800 and reads, before any scrolling, what the first screen shows:
// the graded headline with the most serious grade, the --fail-on
// verdict, and each floor entry the change dropped, marked "dropped".
// A high reviewer change shows no "Nothing widened" anywhere. The agents
// block, opened, shows its text on as many lines as it has.
func TestBrowserVerdictFirstScreen(t *testing.T) {
	b := browser.New(t, 1280, 800)
	floorDropped := []string{floorLine, `never_auto_approve = []`}
	reviewer := []string{modelLine, `model = "anthropic:claude-opus-4-1"`}
	for _, c := range []struct {
		name     string
		new      side
		failOn   string
		headline []string
		verdict  string
		dropped  []string
	}{
		{"team change, floor dropped, reviewer changed", side{"config.toml", append(floorDropped, reviewer...)}, "high",
			[]string{"critical", "5 critical, 12 high, 3 medium, 3 info; 12 widened, 5 narrowed"}, "Would fail --fail-on high: a change grades critical.",
			[]string{"dropped skills.add_skill_script"}},
		{"reviewer's model changed", side{"base.toml", reviewer}, "critical",
			[]string{"high", "1 high; no change to what any agent can do; 1 change to the reviewer"},
			"Passes --fail-on critical: nothing grades critical or above (the most serious grade is high).", nil},
		{"floor entry dropped", side{"base.toml", floorDropped}, "any",
			[]string{"high", "1 high; 1 widened, 0 narrowed"}, "Would fail --fail-on any: a change grades high.",
			[]string{"dropped skills.add_skill_script"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := verdictInput(t, side{file: "base.toml"}, c.new, c.failOn)
			b.Open(t, file(t, page(t, in)))
			// seen is each element's text and whether it lies wholly
			// within the window as the page first shows it.
			type seen struct {
				Text   string
				OnShow bool
			}
			var got struct {
				ScrollY  float64
				Headline seen
				Verdict  seen
				Dropped  []seen
				Nothing  bool
			}
			raw := browser.Eval[string](t, b, `(function () {
  function seen(e) { var r = e.getBoundingClientRect(); return { Text: e.innerText.replace(/\s+/g, " ").trim(), OnShow: r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0 && r.left >= 0 && r.right <= window.innerWidth }; }
  return JSON.stringify({ ScrollY: window.scrollY, Headline: seen(document.getElementById("headline")), Verdict: seen(document.getElementById("fail-on")),
    Dropped: Array.from(document.querySelectorAll("#floor li.dropped")).map(seen), Nothing: document.body.innerText.indexOf("Nothing widened") >= 0 });
})()`)
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				t.Fatal(err)
			}
			if got.ScrollY != 0 {
				t.Errorf("the page opened scrolled to %v", got.ScrollY)
			}
			for _, want := range c.headline {
				if !got.Headline.OnShow || !strings.Contains(got.Headline.Text, want) {
					t.Errorf("the first screen's headline (shown %v) is %q, want it to hold %q", got.Headline.OnShow, got.Headline.Text, want)
				}
			}
			if !strings.HasPrefix(got.Headline.Text, c.headline[0]+" ") {
				t.Errorf("the headline %q does not start with the grade %s", got.Headline.Text, c.headline[0])
			}
			if !got.Verdict.OnShow || got.Verdict.Text != c.verdict {
				t.Errorf("the first screen's verdict (shown %v) is %q, want %q", got.Verdict.OnShow, got.Verdict.Text, c.verdict)
			}
			if len(got.Dropped) != len(c.dropped) {
				t.Errorf("%d floor entries are marked dropped, want %d", len(got.Dropped), len(c.dropped))
			}
			for i, want := range c.dropped {
				if i < len(got.Dropped) && (!got.Dropped[i].OnShow || !strings.HasPrefix(got.Dropped[i].Text, want)) {
					t.Errorf("the dropped floor entry (on the first screen %v) reads %q, want %q on the first screen", got.Dropped[i].OnShow, got.Dropped[i].Text, want)
				}
			}
			if got.Nothing {
				t.Errorf("a change graded %s says \"Nothing widened\"", in.Changes.Grade)
			}
			// The agents block, opened, is as many lines as its text.
			lines := browser.Eval[[]any](t, b, `(function () { var pre = document.getElementById("agents-text"); pre.parentNode.open = true;
  var style = getComputedStyle(pre); return [pre.innerText, pre.getBoundingClientRect().height, parseFloat(style.lineHeight) || 1.45 * parseFloat(style.fontSize), style.whiteSpace]; })()`)
			shown, height, line := lines[0].(string), lines[1].(float64), lines[2].(float64)
			want := report.Build(in).AgentsText
			if strings.TrimRight(shown, "\n") != strings.TrimRight(want, "\n") || strings.Contains(shown, `\n`) || height < line*float64(strings.Count(want, "\n")) {
				t.Errorf("the agents block shows %q in %.0f pixels (white-space %v), want %d lines of %.0f: %q", shown, height, lines[3], strings.Count(want, "\n"), line, want)
			}
			b.Clean(t)
		})
	}
}

// TestBrowserNamesPrintable (issue 37): a name that holds a
// bidirectional override shows escaped everywhere the script writes it,
// as the rest of the page shows it: an agent named U+202E + "tnatsissa"
// is the row "\u202etnatsissa", never a second "assistant" row; the
// agent filter finds it by what it shows; the reason panel names it so;
// the graph's box filters the matrix to it. No text the script wrote
// holds the override raw.
func TestBrowserNamesPrintable(t *testing.T) {
	b := browser.New(t, 1280, 800)
	in := caseInput(t, "names")
	b.Open(t, file(t, page(t, in)))
	const shown = `\u202etnatsissa`
	names := browser.Eval[[]string](t, b, `Array.from(document.querySelectorAll("#m tbody th span")).map(function (e) { return e.textContent; })`)
	if !slices.Contains(names, shown) || slices.Contains(names, "\u202etnatsissa") {
		t.Errorf("the matrix's rows are %q, want one shown as %q and none holding U+202E raw", names, shown)
	}
	row := slices.Index(names, shown)
	// The filter, typed as the row shows: the one row, shown escaped.
	got := browser.Eval[[]string](t, b, `(function () { var e = document.getElementById("f-agent"); e.value = "202etnat"; e.dispatchEvent(new Event("input"));
  return Array.from(document.querySelectorAll("#m tbody tr[data-row] th span")).map(function (e) { return e.textContent; }); })()`)
	if !slices.Equal(got, []string{shown}) {
		t.Errorf("filtered by %q, the rows are %q, want [%q]", "202etnat", got, shown)
	}
	// The reason panel of a cell of that row.
	panel := browser.Eval[[]string](t, b, fmt.Sprintf(`(function () { document.querySelector('#m tbody tr[data-row="%d"] td[aria-colindex]').click();
  return Array.from(document.querySelectorAll("#reason-body dd")).map(function (e) { return e.textContent; }); })()`, row))
	if len(panel) == 0 || panel[0] != shown {
		t.Errorf("the reason panel says %q, want the agent shown as %q", panel, shown)
	}
	// The graph's box of the agent: the matrix shows its row alone, and
	// the filter box holds the name as shown.
	got = browser.Eval[[]string](t, b, fmt.Sprintf(`(function () { document.getElementById("f-agent").value = ""; document.querySelector('#graph a.node[data-row="%d"]').dispatchEvent(new MouseEvent("click", { bubbles: true }));
  return [document.getElementById("f-agent").value].concat(Array.from(document.querySelectorAll("#m tbody tr[data-row] th span")).map(function (e) { return e.textContent; })); })()`, row))
	if !slices.Equal(got, []string{shown, shown}) {
		t.Errorf("after a click on its box in the graph, the filter and rows are %q, want [%q %q]", got, shown, shown)
	}
	if raw := browser.Eval[bool](t, b, `document.body.innerText.indexOf("\u202e") >= 0`); raw {
		t.Error("the page shows U+202E raw somewhere")
	}
	b.Clean(t)
}
