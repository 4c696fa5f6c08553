package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kokua-policy/kokua-policy/internal/testing/browser"
	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"
)

// get fetches a URL and returns its status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestServePageInBrowser: kokua-run serve shows the policy explorer at /
// in Chromium; its decision tester asks /v1/decide and shows the answer,
// with the simulator's unattended turn; after the policy file changes, the
// page is the new policy's. Nothing is requested but the server's own
// URLs, and nothing goes wrong on the page.
func TestServePageInBrowser(t *testing.T) {
	b := browser.New(t, 1280, 800)
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	sv := startServeWith(t, serveOptions{policy: path})
	b.Open(t, sv.url+"/")
	// The cell as the page draws it, scrolled into view.
	cell := `(function () { var X = window.kokuaExplorer, D = X.data;
  var r = D.rows.findIndex(function (row) { return row.agent === "coder"; });
  var j = D.tools.findIndex(function (t, j) { return D.toolsets[D.columns[j]] === "compute" && t === "run_command"; });
  return X.reveal(r, j).textContent; })()`
	if got := browser.Eval[string](t, b, cell); got != "V" {
		t.Errorf("the served page shows the coder's run_command as %q, want V (review)", got)
	}
	b.Do(t,
		chromedp.Click(chromedp.ID("unattended")),
		chromedp.SendKeys(chromedp.ID("t-agent"), "coder"),
		chromedp.SendKeys(chromedp.ID("t-tool"), "compute.run_command"),
		chromedp.Click(chromedp.CSS(`#tester-form button[type=submit]`)),
	)
	policytest.WaitFor(t, "the decision tester's answer", func() bool {
		return strings.Contains(browser.Eval[string](t, b, `document.getElementById("t-answer").textContent`), `"decision":"denied"`)
	})
	replace := filepath.Join(filepath.Dir(path), "next.json")
	if err := os.WriteFile(replace, policytest.Compile(t, policytest.ConfigB), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(replace, path); err != nil {
		t.Fatal(err)
	}
	policytest.WaitFor(t, "the page of the new policy", func() bool {
		_, body := get(t, sv.url+"/")
		return strings.Contains(body, `<td class=c>C`)
	})
	b.Open(t, sv.url+"/")
	if got := browser.Eval[string](t, b, cell); got != "C" {
		t.Errorf("after the reload, the page shows the coder's run_command as %q, want C (confirm)", got)
	}
	b.Clean(t, sv.url+"/v1/decide")
}

// TestServeNoUI: with --no-ui, / is a 404 error object, as any unknown
// path, and the API answers as ever.
func TestServeNoUI(t *testing.T) {
	path := policytest.File(t, policytest.Compile(t, policytest.ConfigA))
	sv := startServeWith(t, serveOptions{policy: path, noUI: true})
	if code, body := get(t, sv.url+"/"); code != http.StatusNotFound || !strings.Contains(body, `"not_found"`) {
		t.Errorf("GET / with --no-ui: %d %s", code, body)
	}
	if code, _ := get(t, sv.url+"/healthz"); code != http.StatusOK {
		t.Errorf("GET /healthz with --no-ui: %d", code)
	}
	sv2 := startServeWith(t, serveOptions{policy: path})
	if code, body := get(t, sv2.url+"/"); code != http.StatusOK || !strings.HasPrefix(body, "<!DOCTYPE html>") {
		t.Errorf("GET / without --no-ui: %d", code)
	}
}
