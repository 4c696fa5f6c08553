package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/browser"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/policy"
)

// TestReportInBrowserMatchesAgents opens the page kokua-compile report
// writes of the shipped config and of a team's in Chromium, and holds
// what it shows to kokua-compile agents --format json of the same config:
// the summary's entry agent and count, one row per agent, and each cell
// of the matrix available, loadable or unavailable as the agent's
// availability, residency and core tools say; the agents' table lists
// the same toolsets. The page makes no request and logs no error.
func TestReportInBrowserMatchesAgents(t *testing.T) {
	b := browser.New(t, 1280, 800)
	for _, cfg := range []string{shippedPath(t), reportCase(t, "config.toml")} {
		t.Run(filepath.Base(filepath.Dir(cfg)), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report.html")
			if r := clitest.Run(Main, "kokua-compile", "", "report", "-o", out, cfg); r.Code != cli.ExitOK {
				t.Fatalf("report: %+v", r)
			}
			code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", "agents", "--format", "json", cfg).Split()
			if code != cli.ExitOK {
				t.Fatalf("agents: exit %d: %s", code, stderr)
			}
			var listed struct {
				Agents map[string]*policy.Agent `json:"agents"`
			}
			if err := json.Unmarshal([]byte(stdout), &listed); err != nil {
				t.Fatal(err)
			}
			b.Open(t, "file://"+out)
			var page struct {
				Entry, Count string
				Rows         []string
				Toolsets     []string
				Tools        []string
				Cells        [][]string
				Available    map[string]string
			}
			raw := browser.Eval[string](t, b, `JSON.stringify({
  Entry: document.getElementById("fact-entry").textContent,
  Count: document.getElementById("fact-agents").textContent,
  Rows: window.kokuaExplorer.shown(),
  Toolsets: window.kokuaExplorer.data.columns.map(function (g) { return window.kokuaExplorer.data.toolsets[g]; }),
  Tools: Array.from(document.querySelectorAll("#m thead th.tool")).map(function (th) { return th.textContent; }),
  Cells: window.kokuaExplorer.matrix(),
  Available: Object.fromEntries(Array.from(document.querySelectorAll("#agents tbody tr")).map(function (tr) { return [tr.cells[0].firstChild.textContent, tr.cells[1].textContent]; }))
})`)
			if err := json.Unmarshal([]byte(raw), &page); err != nil {
				t.Fatal(err)
			}
			// The drawn cells show what the page's model says.
			if bad := browser.Eval[int](t, b, `(function () { var X = window.kokuaExplorer, cols = X.columns();
  return Array.from(document.querySelectorAll("#m tbody td[aria-colindex]")).filter(function (td) {
    return td.textContent !== X.cell(Number(td.parentNode.getAttribute("data-row")), cols[Number(td.getAttribute("aria-colindex")) - 2]).text; }).length; })()`); bad != 0 {
				t.Errorf("%d drawn cells differ from the page's model", bad)
			}
			entry := ""
			for name, a := range listed.Agents {
				if a.Entry {
					entry = name
				}
			}
			// The summary counts the agents as the matrix has rows (issue 38).
			count := strconv.Itoa(len(page.Rows))
			if slices.Contains(page.Rows, "composed:*") {
				count += " (" + strconv.Itoa(len(listed.Agents)) + " declared, and composed workers)"
			}
			if page.Entry != entry || page.Count != count {
				t.Errorf("the summary says entry %q and %s agents; agents lists entry %q and %d, the matrix %d rows", page.Entry, page.Count, entry, len(listed.Agents), len(page.Rows))
			}
			for name, a := range listed.Agents {
				r := slices.Index(page.Rows, name)
				if r < 0 {
					t.Errorf("the matrix has no row for %s", name)
					continue
				}
				want := strings.Join(a.Available.Expanded, ", ")
				if a.Available.All {
					want = "all: " + want
				}
				if want == "" {
					want = "none"
				}
				if page.Available[name] != want {
					t.Errorf("the agents table gives %s available %q, agents %q", name, page.Available[name], want)
				}
				for j, ts := range page.Toolsets {
					cell, tool := page.Cells[r][j], page.Tools[j]
					var kind string
					switch {
					case ts == kokua.Core && slices.Contains(a.CoreTools, tool):
						kind = "held"
					case ts == kokua.Core:
						kind = "unavailable"
					case slices.Contains(a.Deferred, ts):
						kind = "loadable"
					case slices.Contains(a.Available.Expanded, ts) || slices.Contains(a.Skills, ts):
						kind = "held"
					default:
						kind = "unavailable"
					}
					ok := map[string]bool{
						"held":        cell == "R" || cell == "C" || cell == "V",
						"loadable":    cell == "L",
						"unavailable": cell == "·",
					}[kind]
					if !ok {
						t.Errorf("%s %s.%s shows %q; agents says it is %s", name, ts, tool, cell, kind)
					}
				}
			}
			if len(page.Rows) != len(listed.Agents)+map[bool]int{true: 1}[slices.Contains(page.Rows, "composed:*")] {
				t.Errorf("the matrix has rows %v for %d agents", page.Rows, len(listed.Agents))
			}
			b.Clean(t)
		})
	}
}

// TestReportVerdictInBrowser: the page kokua-compile report --base
// --fail-on writes of a change that drops a floor entry, opened in
// Chromium at 1280x800, shows on its first screen, before any scrolling,
// the graded headline with the most serious grade, the verdict for that
// --fail-on, and the dropped entry marked "dropped".
func TestReportVerdictInBrowser(t *testing.T) {
	b := browser.New(t, 1280, 800)
	base, changed := reportChange(t, "config.toml", `never_auto_approve = ["skills.add_skill_script"]`, `never_auto_approve = []`)
	out := filepath.Join(t.TempDir(), "report.html")
	t.Chdir(filepath.Dir(base))
	if r := clitest.Run(Main, "kokua-compile", "", "report", "--base", filepath.Base(base), "--fail-on", "high", "-o", out, filepath.Base(changed)); r.Code != cli.ExitOK {
		t.Fatalf("report: %+v", r)
	}
	b.Open(t, "file://"+out)
	got := browser.Eval[[]string](t, b, `(function () {
  function seen(e) { if (!e) return "missing"; var r = e.getBoundingClientRect();
    return (r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0 ? "" : "off the first screen: ") + e.innerText.replace(/\s+/g, " ").trim(); }
  return [String(window.scrollY), seen(document.getElementById("headline")), seen(document.getElementById("fail-on")), seen(document.querySelector("#floor li.dropped"))];
})()`)
	want := []string{"0", "critical 5 critical, 11 high, 3 medium, 3 info; 12 widened, 5 narrowed", "Would fail --fail-on high: a change grades critical.",
		"dropped skills.add_skill_script (base.toml:26:23 [security].never_auto_approve)"}
	if !slices.Equal(got, want) {
		t.Errorf("the first screen shows (scroll, headline, verdict, floor):\n%q\nwant\n%q", got, want)
	}
	b.Clean(t)
}
