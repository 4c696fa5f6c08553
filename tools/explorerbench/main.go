// Command explorerbench measures the policy explorer at scale: it compiles
// a generated config of AGENTS agents over TOOLSETS toolsets
// (internal/testing/gen; 36 toolsets give about 200 tools), writes its page
// as kokua-compile report does, and opens it in Chromium several times
// from file://, printing the page's size, the time to build it, and, per
// opening, when the load event ended, when the first frame after it was
// drawn, when the page was usable (a click on a cell had opened its
// reason and the frame showing it was drawn) and when the page's script
// had drawn the matrix (from the navigation's start), and how long
// scrolling to the matrix's bottom right corner, ticking the simulator's
// "unattended" and the simulator's repaint take (see benchJS).
//
//	go run ./tools/explorerbench [-agents 1000] [-toolsets 36] [-runs 5] [-chromium PATH] [-o report.html]
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/internal/report"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
	"github.com/kokua-policy/kokua-policy/policy"
)

func main() {
	agents := flag.Int("agents", 1000, "agents of the generated config")
	toolsets := flag.Int("toolsets", 36, "toolsets of the generated install (3 to 8 tools each)")
	runs := flag.Int("runs", 5, "how many times to open the page")
	chromium := flag.String("chromium", "", "the Chromium binary (default: chromium on PATH)")
	out := flag.String("o", "", "keep the page in this file (default: a temporary one)")
	open := flag.String("open", "", "open this page instead of writing one")
	flag.Parse()
	var err error
	if *open != "" {
		err = measure(*open, *runs, *chromium)
	} else {
		err = run(*agents, *toolsets, *runs, *chromium, *out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "explorerbench:", err)
		os.Exit(1)
	}
}

func run(agents, toolsets, runs int, chromium, out string) error {
	if agents < 1 || toolsets < 1 || runs < 1 {
		return fmt.Errorf("-agents, -toolsets and -runs take 1 or more")
	}
	doc, _, err := compile.Compile(gen.Config(agents, toolsets), gen.Manifest(toolsets), compile.Options{})
	if err != nil {
		return err
	}
	data, err := policy.Marshal(doc)
	if err != nil {
		return err
	}
	p, err := policy.Parse("generated", data)
	if err != nil {
		return err
	}
	start := time.Now()
	var page bytes.Buffer
	m := report.Build(report.Input{Name: fmt.Sprintf("gen.Config(%d, %d)", agents, toolsets), Policy: p})
	if err := report.Write(&page, m); err != nil {
		return err
	}
	built := time.Since(start)
	if out == "" {
		dir, err := os.MkdirTemp("", "explorerbench")
		if err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(dir) }()
		out = filepath.Join(dir, "report.html")
	}
	if err := os.WriteFile(out, page.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("page: %d agents (%d rows) x %d tools, %d bytes (%.2f MB), built in %s\n",
		len(doc.Agents), len(m.Rows), len(m.Columns), page.Len(), float64(page.Len())/1e6, built.Round(time.Millisecond))
	return measure(out, runs, chromium)
}

// measure opens a page runs times and prints the timings.
func measure(out string, runs int, chromium string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if chromium == "" {
		if chromium, err = exec.LookPath("chromium"); err != nil {
			return fmt.Errorf("no chromium on PATH (apt-get install chromium), or give -chromium")
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 800), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return err
	}
	var loads, frames, usables, completes, scrolls, toggles, repaints []float64
	for i := range runs {
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+abs)); err != nil {
			return err
		}
		t, err := chromedp.Run(ctx, chromedp.Evaluate[[9]float64](benchJS, chromedp.EvalAwaitPromise))
		if err != nil {
			return err
		}
		fmt.Printf("run %d: script started %.0f ms, matrix drawn %.0f ms, ", i+1, t[7], t[8])
		fmt.Printf("load event %.0f ms, first frame %.0f ms, usable %.0f ms, matrix complete %.0f ms; scroll to the bottom right %.0f ms, simulator toggle %.0f ms, repaint %.0f ms\n",
			t[0], t[1], t[2], t[3], t[4], t[5], t[6])
		loads, frames, usables, completes = append(loads, t[0]), append(frames, t[1]), append(usables, t[2]), append(completes, t[3])
		scrolls, toggles, repaints = append(scrolls, t[4]), append(toggles, t[5]), append(repaints, t[6])
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
			return err
		}
	}
	fmt.Printf("median: load event %.0f ms, first frame %.0f ms, usable %.0f ms, matrix complete %.0f ms; scroll to the bottom right %.0f ms, simulator toggle %.0f ms, repaint %.0f ms\n",
		median(loads), median(frames), median(usables), median(completes), median(scrolls), median(toggles), median(repaints))
	return nil
}

// benchJS runs in the opened page and answers, in milliseconds: when the
// load event ended and when the first frame after it was drawn (from the
// navigation's start); when the page was usable, that is when a click on
// the matrix's first cell had opened its reason and the frame showing it
// was drawn; when the page's script had built or drawn the matrix it
// builds (window.kokuaExplorer.ready); how long scrolling the matrix to
// its bottom right corner and ticking the simulator's "unattended" take
// until the next frame is drawn; and how long the simulator's repaint of
// the matrix takes in script; then when the page's script started and
// when it had drawn the matrix (0 for a page that does not say).
const benchJS = `new Promise(function (done) {
  function frame(f) { requestAnimationFrame(function () { requestAnimationFrame(f); }); }
  var load = performance.getEntriesByType("navigation")[0].loadEventEnd;
  frame(function () {
    var first = performance.now(), X = window.kokuaExplorer;
    var cell = document.querySelector("#m tbody tr[data-row] td, #m tbody tr td");
    if (cell) cell.click();
    frame(function () {
      var usable = performance.now();
      (X && X.ready ? X.ready : Promise.resolve(true)).then(function () {
        var complete = performance.now(), box = document.getElementById("matrix-scroll");
        setTimeout(function () {
          var t0 = performance.now();
          box.scrollTop = box.scrollHeight;
          box.scrollLeft = box.scrollWidth;
          frame(function () {
            var scroll = performance.now() - t0;
            setTimeout(function () {
              var t1 = performance.now();
              document.getElementById("unattended").click();
              frame(function () {
                var toggle = performance.now() - t1, t2 = performance.now();
                if (X) X.paint();
                done([load, first, usable, complete, scroll, toggle, performance.now() - t2,
                  X && X.startedAt || 0, X && X.drawnAt || 0]);
              });
            }, 50);
          });
        }, 50);
      });
    });
  });
})`

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
