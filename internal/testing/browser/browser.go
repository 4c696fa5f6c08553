// Package browser runs tests in Debian's Chromium through chromedp: it
// finds the browser (internal/testing/needs: a failure under CI=true, a
// skip elsewhere), starts it headless, and records what a page must never
// do: write an error to the console, throw, break its Content-Security-
// Policy, or make a request other than the pages the test opens.
package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
	"github.com/kokua-policy/kokua-policy/internal/testing/patience"
)

// Install says how to get the browser.
const Install = "apt-get install chromium (.ci/run does under CI=true)"

// Path returns the Chromium binary, or ends the test as needs.Missing
// says. $CHROMIUM names another one.
func Path(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	needs.Missing(tb, "chromium is not on PATH", Install)
	return ""
}

// Browser is a headless Chromium tab with what it recorded.
type Browser struct {
	Ctx context.Context
	mu  sync.Mutex
	// Problems are console errors, exceptions, log errors (a CSP
	// violation is one) and dialogs.
	problems []string
	// Requests are the URLs the page asked for; opened, the pages Open
	// loaded.
	requests, opened []string
}

// New starts Chromium with a window of width by height and returns its
// tab; the test's cleanup closes it.
func New(tb testing.TB, width, height int) *Browser {
	tb.Helper()
	path := Path(tb)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.WindowSize(width, height),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	// The tab's patience scales with the test binary's time: a loaded
	// machine draws slowly, and a fixed bound failed tests that were
	// only slow (package patience).
	ctx, cancelTime := context.WithTimeout(ctx, patience.Timeout(tb, 3*time.Minute))
	tb.Cleanup(func() {
		cancelTime()
		cancelTab()
		cancelAlloc()
	})
	b := &Browser{Ctx: ctx}
	listen := func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				b.problems = append(b.problems, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(parts, " ")))
			}
		case *runtime.EventExceptionThrown:
			b.problems = append(b.problems, "exception: "+exceptionText(e.ExceptionDetails))
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				b.problems = append(b.problems, fmt.Sprintf("log %s (%s): %s %s", e.Entry.Level, e.Entry.Source, e.Entry.Text, e.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, e.Request.URL)
		case *page.EventJavascriptDialogOpening:
			// A page that opens a dialog ran script it should not have
			// (an injected alert): record it, and close the dialog so
			// that the page does not wait on it.
			b.problems = append(b.problems, fmt.Sprintf("a %s dialog opened: %q", e.Type, e.Message))
			go func() {
				_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{})
			}()
		}
	}
	err := chromedp.Listen(ctx, listen)
	if err == nil {
		_, err = chromedp.Call(ctx, network.Enable, network.EnableParams{})
	}
	if err == nil {
		_, err = chromedp.Call(ctx, log.Enable, cdp.Empty{})
	}
	if err == nil {
		_, err = chromedp.Call(ctx, runtime.Enable, cdp.Empty{})
	}
	if err != nil {
		if needs.CI() {
			tb.Fatalf("cannot start %s: %v", path, err)
		}
		tb.Skipf("cannot start %s, so this test is skipped (it fails under CI=true): %v", path, err)
	}
	return b
}

// Open loads a page and waits for it to load and, on the policy
// explorer, for its matrix to be drawn (window.kokuaExplorer.ready).
func (b *Browser) Open(tb testing.TB, url string) {
	tb.Helper()
	b.mu.Lock()
	b.opened = append(b.opened, url)
	b.mu.Unlock()
	b.Do(tb, chromedp.Navigate(url))
	if _, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](`window.kokuaExplorer ? window.kokuaExplorer.ready : true`, chromedp.EvalAwaitPromise)); err != nil {
		tb.Fatalf("chromium: waiting for %s: %v", url, err)
	}
}

// Do runs actions in the tab, failing the test on an error.
func (b *Browser) Do(tb testing.TB, actions ...chromedp.Action[chromedp.Void]) {
	tb.Helper()
	if err := chromedp.Do(b.Ctx, actions...); err != nil {
		tb.Fatalf("chromium: %v", err)
	}
}

// Eval evaluates a JavaScript expression in the page and decodes its
// value, failing the test on an error.
func Eval[T any](tb testing.TB, b *Browser, expr string) T {
	tb.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.Fatalf("chromium: evaluating %.80s: %v", expr, err)
	}
	return v
}

// EvalAwait evaluates a JavaScript expression whose value is a promise
// and decodes what the promise resolves to, failing the test on an error.
func EvalAwait[T any](tb testing.TB, b *Browser, expr string) T {
	tb.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("chromium: evaluating %.80s: %v", expr, err)
	}
	return v
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "an exception"
	}
	s := d.Text
	if d.Exception != nil {
		s += " " + d.Exception.Description
	}
	return fmt.Sprintf("%s (%s:%d:%d)", s, d.URL, d.LineNumber, d.ColumnNumber)
}

// Problems returns what went wrong on the page so far.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// Requests returns every URL requested so far, the pages opened included.
func (b *Browser) Requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.requests...)
}

// Clean fails the test when a page had a problem or requested anything
// but the pages Open loaded and the URLs allowed (a prefix allows every
// URL it starts).
func (b *Browser) Clean(tb testing.TB, allowed ...string) {
	tb.Helper()
	b.mu.Lock()
	allowed = append(allowed, b.opened...)
	b.mu.Unlock()
	for _, p := range b.Problems() {
		tb.Errorf("the page had a problem: %s", p)
	}
	for _, u := range b.Requests() {
		ok := false
		for _, a := range allowed {
			if u == a || strings.HasPrefix(u, a) {
				ok = true
			}
		}
		if !ok {
			tb.Errorf("the page requested %s", u)
		}
	}
}
