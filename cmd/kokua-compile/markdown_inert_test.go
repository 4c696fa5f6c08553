package main

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/kokua-policy/kokua-policy/cmd/internal/cli"
	"github.com/kokua-policy/kokua-policy/cmd/internal/clitest"
	"github.com/kokua-policy/kokua-policy/internal/testing/hostile"
)

// markdownAgents are agent names a config may hold (no ':' or '[', which
// reserved-agent-name refuses) that would be live Markdown on GitHub if
// written as they are: a mention, a team mention, references, a bare
// link, emphasis, strikethrough, HTML, an image's tail, a backtick, a
// table cell's end, math.
var markdownAgents = []string{
	"@octocat", "@org/security-team", "#12", "GH-7", "www.xlink.example", "*xbold*", "_xem_", "~~xgone~~",
	"<img src=x onerror=alert(1)>", "ximg](https", "x`tick", "xa|xb", "$xmath$", "x@y.example",
}

// TestMarkdownNamesInert (issue 35, Must 7): the Markdown of diff and
// risks, with every agent named after something GitHub would make live,
// rendered by a CommonMark and GFM renderer: no link, autolink or image,
// no HTML but the report's own <br> and digest comment, no emphasis or
// strikethrough around a name, every name shown as written, and none of
// GitHub's mentions, references or bare links in the text.
func TestMarkdownNamesInert(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old := write("old.toml", hostile.DelegatingConfig(markdownAgents, "confirm = []\nreview = [\"fs.read_file\"]", `available = ["fs"]`))
	wide := write("new.toml", hostile.DelegatingConfig(markdownAgents, "confirm = []\nreview = []", `available = ["web", "fs"]`))
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))
	live := regexp.MustCompile(`(?i)[@#][a-z0-9]|www\.|://|gh-[0-9]`)
	for _, args := range [][]string{
		{"diff", "--allow-widen", "--format", "markdown", old, wide},
		{"risks", "--format", "markdown", wide},
	} {
		code, stdout, stderr := clitest.Run(Main, "kokua-compile", "", args...).Split()
		if code != cli.ExitOK {
			t.Fatalf("kokua-compile %q: exit %d: %s", args[0], code, stderr)
		}
		src := []byte(stdout)
		root := md.Parser().Parse(text.NewReader(src))
		headings := map[string]bool{}
		err := ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *ast.Heading:
				headings[nodeText(n, src)] = true
			case *ast.Link, *ast.AutoLink, *ast.Image:
				return ast.WalkStop, fmt.Errorf("a %s: %q", n.Kind(), nodeText(n, src))
			case *ast.RawHTML:
				if raw := string(n.Segments.Value(src)); raw != "<br>" {
					return ast.WalkStop, fmt.Errorf("raw HTML %q", raw)
				}
			case *ast.HTMLBlock:
				if raw := string(n.Lines().Value(src)); !strings.HasPrefix(raw, "<!-- kokua-widenings: sha256:") {
					return ast.WalkStop, fmt.Errorf("an HTML block %q", raw)
				}
			case *ast.Emphasis:
				for _, name := range markdownAgents {
					if strings.Contains(nodeText(n, src), strings.Trim(name, "*_~")) {
						return ast.WalkStop, fmt.Errorf("emphasis around %q", name)
					}
				}
			case *ast.CodeSpan:
				return ast.WalkSkipChildren, nil // nothing in code is live
			case *ast.Text:
				if v := resolved(string(n.Value(src))); live.MatchString(v) {
					return ast.WalkStop, fmt.Errorf("GitHub would read %q in %q", live.FindString(v), v)
				}
			}
			if n.Kind().String() == "Strikethrough" {
				return ast.WalkStop, fmt.Errorf("strikethrough %q", nodeText(n, src))
			}
			return ast.WalkContinue, nil
		})
		if err != nil {
			t.Fatalf("kokua-compile %s --format markdown: %v\n%s", args[0], err, stdout)
		}
		var page bytes.Buffer
		if err := md.Renderer().Render(&page, src, root); err != nil {
			t.Fatal(err)
		}
		// No HTML but <br> passed, so every '<' left is a tag the renderer wrote.
		shown := html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page.String(), ""))
		for _, name := range markdownAgents {
			// Each agent's own section, its name in code.
			if !headings["Agent "+name] {
				t.Errorf("kokua-compile %s --format markdown has no heading Agent %q:\n%s", args[0], name, stdout)
			}
			if !strings.Contains(strings.ReplaceAll(shown, "\u200b", ""), name) {
				t.Errorf("kokua-compile %s --format markdown does not show %q as written:\n%s", args[0], name, stdout)
			}
		}
	}
}

// nodeText is the text under n as it shows: a code span's as written,
// other text with its backslash escapes and character references
// resolved.
func nodeText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			if t.Parent().Kind() == ast.KindCodeSpan {
				b.Write(t.Value(src))
			} else {
				b.WriteString(resolved(string(t.Value(src))))
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

var backslashEscape = regexp.MustCompile(`\\([!-/:-@[-` + "`" + `{-~])`)

// resolved is text as CommonMark shows it: escaped punctuation without
// its backslash, character references decoded.
func resolved(s string) string {
	return html.UnescapeString(backslashEscape.ReplaceAllString(s, "$1"))
}
