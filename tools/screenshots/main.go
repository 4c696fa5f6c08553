// Command screenshots takes the policy explorer's screenshots for
// docs/explorer.md and the README (scripts/screenshots.sh runs it): the
// page of the shipped config with a cell's reason open, and the first
// screen of the page of a team config's change (testdata/report/team-diff),
// its verdict, each in Chromium at 1280x800.
//
//	go run ./tools/screenshots [-chromium PATH] DIR
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/chromedp/chromedp"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/report"
	"github.com/kokua-policy/kokua-policy/lint"
)

func main() {
	chromium := flag.String("chromium", "", "the Chromium binary (default: chromium on PATH)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: screenshots [-chromium PATH] DIR")
		os.Exit(2)
	}
	if err := run(*chromium, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

// side reads one config of a case as kokua-compile report does.
func side(path string) (*diff.Side, []byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	s, res, err := diff.Load(lint.Source{Name: "config.toml", Data: data}, lint.DefaultManifest(), nil)
	if err != nil {
		return nil, nil, err
	}
	if s == nil {
		return nil, nil, fmt.Errorf("%s has errors: %v", path, res.Diagnostics)
	}
	return s, data, nil
}

// shot is one screenshot: a case's page, a script run on it, the file.
type shot struct {
	dir, script, file string
}

func run(chromium, out string) error {
	if chromium == "" {
		var err error
		if chromium, err = exec.LookPath("chromium"); err != nil {
			return fmt.Errorf("no chromium on PATH (apt-get install chromium), or give -chromium")
		}
	}
	tmp, err := os.MkdirTemp("", "screenshots")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 800), chromedp.Flag("hide-scrollbars", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	for _, s := range []shot{
		{"testdata/report/shipped", `(function () {
  var X = window.kokuaExplorer, D = X.data;
  var j = D.tools.findIndex(function (t, j) { return D.toolsets[D.columns[j]] === "config" && t === "update_config"; });
  document.getElementById("matrix").scrollIntoView();
  X.reveal(0, j).click();
  return true; })()`, "explorer-matrix.png"},
		{"testdata/report/team-diff", `(function () { window.scrollTo(0, 0); return true; })()`, "explorer-diff.png"},
	} {
		newSide, cfg, err := side(filepath.Join(s.dir, "config.toml"))
		if err != nil {
			return err
		}
		in := report.Input{Name: "config.toml", Policy: newSide.Policy, Config: cfg}
		if _, err := os.Stat(filepath.Join(s.dir, "base.toml")); err == nil {
			oldSide, _, err := side(filepath.Join(s.dir, "base.toml"))
			if err != nil {
				return err
			}
			in.Changes = diff.Compare(oldSide, newSide)
			in.Changes.Old = "main:config.toml"
		}
		var page bytes.Buffer
		if err := report.Write(&page, report.Build(in)); err != nil {
			return err
		}
		path := filepath.Join(tmp, s.file+".html")
		if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
			return err
		}
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path)); err != nil {
			return err
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](s.script)); err != nil {
			return err
		}
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, s.file), png, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %d bytes\n", filepath.Join(out, s.file), len(png))
	}
	return nil
}
