package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/report"
	"github.com/kokua-policy/kokua-policy/internal/testing/browser"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
	"github.com/kokua-policy/kokua-policy/lint"
)

// wideConfig holds most of the default install's toolsets, among them
// ones of a single tool under a long group name (github_backup's
// backup_kokua_state), which makes their columns wider than the others,
// with delegation and capabilities (a composed workers' row): the shape
// of a real config migrated from Kokua's examples.
const wideConfig = `[assistant]
agent = "assistant"

[assistant.tools]
confirm = ["config.update_config", "fs_write", "github_backup"]
review = ["compute.run_command", "compute.execute_python"]

[agents.assistant]
delegates_to = ["researcher", "coder"]

[agents.assistant.tools]
available = ["memory", "documents", "config", "scheduling", "conversations", "planning", "capabilities", "time",
             "benchmark", "messaging", "github_backup", "fs", "fs_write", "web", "misc", "image", "audio"]

[agents.researcher.tools]
available = ["web", "misc", "time", "messaging", "fs"]

[agents.coder.tools]
available = ["fs", "fs_write", "compute", "time", "messaging"]

[github_backup]
# repo = "me/kokua-state"
`

// TestBrowserEveryCellInViewIsDrawn (issue 38): at the narrowest and the
// widest window and two zoom levels (a zoomed window is a narrower one
// in CSS pixels, with more device pixels to each), scrolled to the left, the middle and the
// right of the matrix and to its top and bottom, every cell in view is
// drawn: at the point of the page where each shown tool's header stands,
// beside each row in view, the element there is a cell of that column in
// a drawn row, showing a letter, and never a spacer or nothing. The
// points come from the page's real layout (elementFromPoint), so columns
// of any width are held: a wide group header, a cell with a mark. The
// reach graph and the agents' table are laid out from the first frame.
func TestBrowserEveryCellInViewIsDrawn(t *testing.T) {
	wide, res, err := diff.Load(lint.Source{Name: "config.toml", Data: []byte(wideConfig)}, lint.DefaultManifest(), nil)
	if err != nil || wide == nil {
		t.Fatalf("%v %v", err, res.Diagnostics)
	}
	migrated, err := os.ReadFile(filepath.Join(golden.Root(t), "testdata", "migrate", "agents-tools-list", "want.toml"))
	if err != nil {
		t.Fatal(err)
	}
	mig, res, err := diff.Load(lint.Source{Name: "config.toml", Data: migrated}, lint.DefaultManifest(), nil)
	if err != nil || mig == nil {
		t.Fatalf("%v %v", err, res.Diagnostics)
	}
	subjects := []struct {
		name string
		in   report.Input
	}{
		{"shipped", caseInput(t, "shipped")},
		{"team-diff (marked cells)", caseInput(t, "team-diff")},
		{"wide columns", report.Input{Name: "config.toml", Policy: wide.Policy, Config: []byte(wideConfig)}},
		{"a migrated config", report.Input{Name: "config.toml", Policy: mig.Policy, Config: migrated}},
		{"generated, 40 agents by 30 toolsets", report.Input{Name: "gen", Policy: compiled(t, 40, 30)}},
	}
	// Width and height of the window in CSS pixels, and device pixels
	// to each: 1400 and 2000 pixels at 150% and 200% zoom are the last.
	// The narrowest and the widest window of the range where cells were
	// left blank (1,000 to 2,600 pixels), and the two zooms: each view
	// is five page loads on every subject, and on a loaded machine the
	// six views this test had took over six of the package's ten minutes
	// (issue 37, Must 5).
	views := []struct {
		w, h  int64
		scale float64
	}{{1000, 800, 1}, {2600, 1200, 1}, {933, 600, 1.5}, {1000, 500, 2}}
	// One browser for every subject: on a loaded machine starting one
	// costs as much as a subject's checks (issue 37, Must 5).
	b := browser.New(t, 1400, 900)
	for _, s := range subjects {
		url := file(t, page(t, s.in))
		for _, v := range views {
			if _, err := chromedp.Call(b.Ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
				Width: v.w, Height: v.h, DeviceScaleFactor: v.scale}); err != nil {
				t.Fatal(err)
			}
			b.Open(t, url)
			// The graph and the agents' table take part in the first
			// frame's layout: nothing holds them back.
			if got := browser.Eval[[]string](t, b, `[document.documentElement.className, getComputedStyle(document.getElementById("graph")).contentVisibility, getComputedStyle(document.getElementById("agents")).contentVisibility]`); got[0] != "" || got[1] != "visible" || got[2] != "visible" {
				t.Errorf("%s at %dx%d: the page's class and the graph's and agents' content-visibility are %q", s.name, v.w, v.h, got)
			}
			for _, at := range [][2]float64{{0, 0}, {1, 0}, {0.5, 0.5}, {0, 1}, {1, 1}} {
				got := browser.EvalAwait[[]any](t, b, fmt.Sprintf(blankCells, at[0], at[1]))
				checked, blank := int(got[0].(float64)), got[1].([]any)
				if checked == 0 {
					t.Errorf("%s at %dx%d x%.1f, scrolled to %v: no cell in view was checked", s.name, v.w, v.h, v.scale, at)
				}
				if len(blank) > 0 {
					t.Errorf("%s at %dx%d x%.1f, scrolled to %v: %d of %d points in view show no drawn cell, such as %v", s.name, v.w, v.h, v.scale, at, len(blank), checked, blank[:min(3, len(blank))])
				}
			}
		}
	}
	b.Clean(t)
}

// blankCells scrolls the matrix's box to a fraction of its width and
// height, waits two frames for the page to draw, and returns how many
// points it checked and those that show no cell: at the horizontal
// middle of each shown tool's header that is in view (right of the
// sticky agents' column, inside the box and the window), every 8 pixels
// down from below the sticky headers to the last row or the box's
// bottom, the element must be a td of that column (aria-colindex) in a
// drawn row, holding a letter.
const blankCells = `new Promise(function (done) {
  var box = document.getElementById("matrix-scroll"), table = document.getElementById("m");
  box.scrollIntoView({ block: "start" });
  box.scrollLeft = (box.scrollWidth - box.clientWidth) * %[1]g;
  box.scrollTop = (box.scrollHeight - box.clientHeight) * %[2]g;
  requestAnimationFrame(function () { requestAnimationFrame(function () {
    var r = box.getBoundingClientRect();
    var left = Math.max(table.tHead.rows[1].cells[0].getBoundingClientRect().right, 0);
    var right = Math.min(r.left + box.clientLeft + box.clientWidth, window.innerWidth);
    // The headers are sticky, not their rows: the corner's bottom is
    // where the rows begin to show.
    var top = Math.max(table.tHead.rows[1].cells[0].getBoundingClientRect().bottom, 0);
    var bottom = Math.min(r.top + box.clientTop + box.clientHeight, window.innerHeight, table.tBodies[0].getBoundingClientRect().bottom);
    var checked = 0, blank = [];
    Array.from(table.tHead.rows[1].cells).forEach(function (th) {
      if (!th.classList.contains("tool") || getComputedStyle(th).display === "none") return;
      var h = th.getBoundingClientRect(), x = (h.left + h.right) / 2;
      if (x <= left + 1 || x >= right - 1) return;
      for (var y = top + 2; y < bottom - 1; y += 8) {
        var e = document.elementFromPoint(x, y);
        checked++;
        var ok = e && e.tagName === "TD" && e.getAttribute("aria-colindex") === th.getAttribute("aria-colindex") &&
          e.parentNode.hasAttribute("data-row") && e.textContent !== "";
        if (!ok) blank.push([th.textContent, Math.round(x), Math.round(y), e ? e.tagName + "." + e.className : "nothing"]);
      }
    });
    done([checked, blank]);
  }); });
})`
