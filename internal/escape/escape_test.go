package escape

import (
	"bytes"
	"fmt"
	"html"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/testing/ghrunner"
)

// gfm renders as GitHub does at parse time: CommonMark with tables,
// strikethrough, bare links (linkify), task lists and footnotes.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))

// hostile are the pieces of names the property tests put together: every
// construct that could make a name live in GitHub's Markdown.
var hostile = []string{
	"@octocat", "@org/team", "a@b.example", "mailto:a@b.example", "owner/repo@abc1234", "@", "@@x",
	"#12", "owner/repo#12", "GH-12", "gh-7", "# heading", "## x", "#",
	"[Security review passed](https://example.com)", "[x]", "[x]: /url", "[^1]", "[ ] task", "[x] done",
	"![img](https://example.com/i.png)", "![", "](", "]",
	"<https://example.com>", "<a@b.example>", "<img src=x onerror=alert(1)>", "<b>", "</p>", "<!-- c -->", "<",
	"https://example.com", "http://x.example/a_b", "www.example.com", "WWW.Example.com", "ftp://x.example", "xmpp:a@b.example",
	"*em*", "**strong**", "_em_", "__strong__", "~~gone~~", "~x~", "a_b_c", "_", "*", "~",
	"`code`", "``", "`", "```", "` x `",
	"|", "a|b", "||", "\\|", "\\", "\\\\", "\\*",
	"&amp;", "&#64;", "&lt;b&gt;", "&", "&#8203;",
	"$x$", "$$", "\\$", ":smile:", ":+1:", ":shipit:", "::error::",
	"1. ", "1) ", "- ", "+ ", "= ", "> quote", "---", "***", "___", "===", "    indented", "  two  ", " ",
	"\n", "\r\n", "\t", "\x1b[31m", "\u202e", "\u2066", "\u200b", "\u00a0", "\x00", "\xff",
	"é", "日本", "ß", "x", "web_search", "fs.write_file", "composed:*", "a.b", ".", ":", "!", "(", ")",
}

// names yields n generated names, with the seed's pieces and random ASCII.
func names(seed uint64, n int) []string {
	rng := rand.New(rand.NewPCG(seed, 35))
	out := append([]string{}, hostile...)
	for range n {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			if rng.IntN(4) == 0 {
				b.WriteByte(byte(0x20 + rng.IntN(0x5f)))
			} else {
				b.WriteString(hostile[rng.IntN(len(hostile))])
			}
			if rng.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		out = append(out, b.String())
	}
	return out
}

// contexts are the places a report writes an escaped name: mid-line, at a
// line's start, after a list marker, in a heading, in a table cell.
type context struct {
	name, before, after string
	blocks              []ast.NodeKind // the block nodes the document must have
}

var contexts = []context{
	{"mid-line", "before ", " after\n", []ast.NodeKind{ast.KindParagraph}},
	{"line start", "", "\n", []ast.NodeKind{ast.KindParagraph}},
	{"line end", "text ", "\n\nnext\n", []ast.NodeKind{ast.KindParagraph, ast.KindParagraph}},
	{"list item", "- ", "\n", []ast.NodeKind{ast.KindList, ast.KindListItem, ast.KindTextBlock}},
	{"heading", "#### Agent ", "\n", []ast.NodeKind{ast.KindHeading}},
	{"table cell", "| a | b |\n| --- | --- |\n| ", " | z |\n", []ast.NodeKind{east.KindTable, east.KindTableHeader, east.KindTableCell,
		east.KindTableCell, east.KindTableRow, east.KindTableCell, east.KindTableCell}},
}

// inlineKinds are the only inline nodes an escaped name may render as.
var inlineKinds = map[ast.NodeKind]bool{ast.KindText: true, ast.KindString: true}

// codeKinds are those of an escaped code span: code, and the '|' between
// spans.
var codeKinds = map[ast.NodeKind]bool{ast.KindCodeSpan: true, ast.KindText: true, ast.KindString: true}

var tag = regexp.MustCompile(`<[^>]*>`)

// render parses doc as GitHub would, checks that its blocks are blocks
// and its inlines only kinds allowed, and returns the text it shows.
func render(t *testing.T, doc string, blocks []ast.NodeKind, allowed map[ast.NodeKind]bool, checkBlocks bool) (string, error) {
	t.Helper()
	src := []byte(doc)
	root := gfm.Parser().Parse(text.NewReader(src))
	var gotBlocks []ast.NodeKind
	var bad error
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Kind() == ast.KindDocument {
			return ast.WalkContinue, nil
		}
		if n.Type() == ast.TypeBlock {
			gotBlocks = append(gotBlocks, n.Kind())
		} else if !allowed[n.Kind()] && bad == nil {
			bad = fmt.Errorf("renders a %s node", n.Kind())
		}
		return ast.WalkContinue, nil
	})
	if bad != nil {
		return "", bad
	}
	if checkBlocks && fmt.Sprint(gotBlocks) != fmt.Sprint(blocks) {
		return "", fmt.Errorf("blocks %v, want %v", gotBlocks, blocks)
	}
	var out bytes.Buffer
	if err := gfm.Renderer().Render(&out, src, root); err != nil {
		return "", err
	}
	// No raw HTML passed the check above, so every '<' is a tag the
	// renderer wrote; what is left, unescaped, is the text shown.
	return html.UnescapeString(tag.ReplaceAllString(out.String(), "")), nil
}

// placeholder stands for the name in a context's frame.
const placeholder = "PLACEHOLDER"

// shown is what a context shows around a name that shows as s: the
// context rendered with a plain placeholder, the placeholder replaced.
func shown(t *testing.T, before, after, s string) string {
	t.Helper()
	frame, err := render(t, before+placeholder+after, nil, inlineKinds, false)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(frame, placeholder, s, 1)
}

// live finds, in the text GitHub's passes over the rendered page read,
// what they would turn into a mention, a reference, an emoji or a link.
var live = regexp.MustCompile(`(?i)[@#][a-z0-9]|www\.|:[/a-z0-9_+-]|gh-[0-9]`)

// check renders before+esc+after and holds it to the context's blocks,
// the allowed inline nodes, the text shown (want, once the zero-width
// spaces are taken out) and, for text, no live GitHub syntax.
func check(t *testing.T, c context, name, esc string, allowed map[ast.NodeKind]bool) {
	t.Helper()
	got, err := render(t, c.before+esc+c.after, c.blocks, allowed, true)
	if err != nil {
		t.Fatalf("%s: %q written as %q: %v", c.name, name, esc, err)
	}
	if want := shown(t, c.before, c.after, printable.String(name)); strings.ReplaceAll(got, "\u200b", "") != want {
		t.Fatalf("%s: %q written as %q shows %q, want %q", c.name, name, esc, got, want)
	}
	if allowed[ast.KindCodeSpan] {
		return
	}
	if m := live.FindString(got); m != "" {
		t.Fatalf("%s: %q written as %q shows %q: GitHub would read %q", c.name, name, esc, got, m)
	}
	// GitHub reads $...$ as math, which goldmark does not: every '$' must
	// be escaped, an odd run of backslashes before it.
	for i := range len(esc) {
		if esc[i] == '$' && trailing(esc[:i], '\\')%2 == 0 {
			t.Fatalf("%s: %q written as %q: a '$' at %d is not escaped", c.name, name, esc, i)
		}
	}
}

// TestMarkdownTextInert renders every generated name, escaped, in every
// context a report puts one, with a CommonMark and GFM renderer: nothing
// but text, the blocks of the context alone, the text shown equal to
// printable.String of the name once the zero-width spaces are taken out, and
// none of GitHub's own passes finding a mention, a reference, an emoji or
// a bare link in the text as shown.
func TestMarkdownTextInert(t *testing.T) {
	all := names(1, 3000)
	for _, c := range contexts {
		for _, name := range all {
			check(t, c, name, MarkdownText(name), inlineKinds)
		}
	}
	t.Logf("%d names in %d contexts", len(all), len(contexts))
}

// TestMarkdownCodeInert does the same for code spans: code and the '|'
// between spans only, the text shown exactly printable.String of the name.
func TestMarkdownCodeInert(t *testing.T) {
	all := names(2, 3000)
	for _, c := range contexts {
		for _, name := range all {
			check(t, c, name, MarkdownCode(name), codeKinds)
		}
	}
}

// TestMarkdownTextExamples pins what a reader of the Markdown sees for the
// common cases: names as written, live syntax escaped.
func TestMarkdownTextExamples(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"web_search", "web_search"},
		{"researcher reads web.web_search: runs unasked", "researcher reads web.web_search: runs unasked"},
		{"<default install>", "&lt;default install&gt;"},
		{"@octocat", "@&#8203;octocat"},
		{"see #12", "see #&#8203;12"},
		{"[ok](https://x.example)", `\[ok\](https:&#8203;//x.example)`},
		{"_em_ *b* ~s~", `\_em\_ \*b\* \~s\~`},
		{"a|b", `a\|b`},
		{"- x", `\- x`},
		{"1. x", `1\. x`},
		{"www.x.example", "www&#8203;.x.example"},
		{"line\nbreak", `line\\nbreak`},
		{" padded ", "&#32;padded&#32;"},
	} {
		if got := MarkdownText(c.in); got != c.want {
			t.Errorf("MarkdownText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"edit_file", "`edit_file`"},
		{"a`b", "``a`b``"},
		{"`x", "`` `x ``"},
		{"a|b", "`a`\\|`b`"},
		{"", ""},
	} {
		if got := MarkdownCode(c.in); got != c.want {
			t.Errorf("MarkdownCode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMarkdownFence holds each generated text, in a fenced block, to one
// block showing exactly the text.
func TestMarkdownFence(t *testing.T) {
	for _, s := range append(names(3, 500), "```", "````diff", "a\n```\nb", "~~~") {
		s = printable.Lines(s)
		fence := MarkdownFence(s)
		if len(fence) < 3 || strings.Contains(s, fence) {
			t.Fatalf("fence %q for %q", fence, s)
		}
		src := []byte(fence + "diff\n" + s + "\n" + fence + "\n")
		root := gfm.Parser().Parse(text.NewReader(src))
		block, ok := root.FirstChild().(*ast.FencedCodeBlock)
		if !ok || block.NextSibling() != nil {
			t.Fatalf("%q: not one fenced block", s)
		}
		var got strings.Builder
		for i := 0; i < block.Lines().Len(); i++ {
			seg := block.Lines().At(i)
			got.Write(seg.Value(src))
		}
		if got.String() != s+"\n" {
			t.Fatalf("%q: the block holds %q", s, got.String())
		}
	}
}

// TestMarkdownBlock: a block of any text, rendered as GitHub would, is
// one fenced code block with the info string asked for that holds the
// text's lines, each printable, whatever backticks or fences they hold.
func TestMarkdownBlock(t *testing.T) {
	for _, s := range append(names(3, 500), "```", "````diff\n```", "a\n```\nb\n", "~~~", "x\x1b[31m\u202e\n", "") {
		out := MarkdownBlock("diff", s)
		src := []byte(out)
		root := gfm.Parser().Parse(text.NewReader(src))
		block, ok := root.FirstChild().(*ast.FencedCodeBlock)
		if !ok || block.NextSibling() != nil || !strings.HasSuffix(out, "\n") {
			t.Fatalf("%q: not one fenced block ending a line:\n%s", s, out)
		}
		if info := string(block.Language(src)); info != "diff" {
			t.Errorf("%q: info string %q, want diff", s, info)
		}
		var got strings.Builder
		for i := 0; i < block.Lines().Len(); i++ {
			seg := block.Lines().At(i)
			got.Write(seg.Value(src))
		}
		var want []string
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			want = append(want, printable.String(l))
		}
		if got.String() != strings.Join(want, "\n")+"\n" {
			t.Errorf("%q: the block holds %q, want its printable lines", s, got.String())
		}
	}
}

// TestGitHubEscape checks the escaping of workflow commands: the message
// escapes '%', CR and LF; a property value also ':' and ','. '%' is
// escaped first, so an escape already in the text is not decoded by the
// runner. Text that is not printable is made so first.
func TestGitHubEscape(t *testing.T) {
	for _, c := range []struct{ in, data, property string }{
		{"", "", ""},
		{"plain text", "plain text", "plain text"},
		{"100%", "100%25", "100%25"},
		{"%0A is not a newline", "%250A is not a newline", "%250A is not a newline"},
		{"a\nb", "a%0Ab", `a\nb`},
		{"a\r\nb", `a\r%0Ab`, `a\r\nb`},
		{"key: value, more", "key: value, more", "key%3A value%2C more"},
		{"::error::", "::error::", "%3A%3Aerror%3A%3A"},
		{"C:\\dir,x/config.toml", "C:\\dir,x/config.toml", "C%3A\\dir%2Cx/config.toml"},
		{"é 日本", "é 日本", "é 日本"},
		{"esc\x1b[31m\u202e", `esc\u001b[31m\u202e`, `esc\u001b[31m\u202e`},
	} {
		if got := GitHubData(c.in); got != c.data {
			t.Errorf("GitHubData(%q) = %q, want %q", c.in, got, c.data)
		}
		if got := GitHubProperty(c.in); got != c.property {
			t.Errorf("GitHubProperty(%q) = %q, want %q", c.in, got, c.property)
		}
	}
}

// TestGitHubOneLine holds every generated name to one line of a workflow
// command that the runner decodes back to the printable name.
func TestGitHubOneLine(t *testing.T) {
	decode := strings.NewReplacer("%0A", "\n", "%0D", "\r", "%3A", ":", "%2C", ",", "%25", "%")
	for _, s := range names(4, 2000) {
		for _, c := range []struct {
			got, want string
			stops     string
		}{
			{GitHubData(s), printable.Lines(s), "\r\n"},
			{GitHubProperty(s), printable.String(s), "\r\n:,"},
		} {
			if strings.ContainsAny(c.got, c.stops) {
				t.Fatalf("%q escaped as %q holds one of %q", s, c.got, c.stops)
			}
			if got := decode.Replace(c.got); got != c.want {
				t.Fatalf("%q escaped as %q decodes to %q, want %q", s, c.got, got, c.want)
			}
		}
	}
}

// TestSARIFText holds every generated text to a SARIF message with no
// embedded link (no ']' before '(' that an even number of backslashes, or
// none, precedes) and no single brace, and checks the text comes back
// when the escapes SARIFText adds are taken out.
func TestSARIFText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"[agents.coder.tools].available", "[agents.coder.tools].available"},
		{"[passed](https://x.example)", `[passed\](https://x.example)`},
		{`a\](b`, `a\\\](b`},
		{"{0} and }", "{{0}} and }}"},
	} {
		if got := SARIFText(c.in); got != c.want {
			t.Errorf("SARIFText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, s := range append(names(5, 3000), `\\](`, `\](`, `{{`, `}`) {
		got := SARIFText(s)
		for i := strings.Index(got, "]("); i >= 0; i = next(got, i) {
			if trailing(got[:i], '\\')%2 == 0 {
				t.Fatalf("%q escaped as %q holds a link's ]( at %d", s, got, i)
			}
		}
		if back := unSARIF(t, got); back != s {
			t.Fatalf("%q escaped as %q reads back as %q", s, got, back)
		}
	}
}

// unSARIF takes out the escapes SARIFText adds: a doubled brace, and
// before "](" an odd run of backslashes, 2k+1 for the k of the text.
func unSARIF(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '{', '}':
			if i+1 >= len(s) || s[i+1] != c {
				t.Fatalf("%q has a single brace at %d", s, i)
			}
			b.WriteByte(c)
			i++
		case '\\':
			j := i
			for j < len(s) && s[j] == '\\' {
				j++
			}
			n := j - i
			if strings.HasPrefix(s[j:], "](") {
				n = (n - 1) / 2
			}
			b.WriteString(strings.Repeat(`\`, n))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func next(s string, i int) int {
	j := strings.Index(s[i+1:], "](")
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// FuzzMarkdownText runs the checks of TestMarkdownTextInert and
// TestMarkdownCodeInert on fuzzed names, in a table cell and mid-line.
func FuzzMarkdownText(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, c := range []context{contexts[0], contexts[5]} {
			check(t, c, name, MarkdownText(name), inlineKinds)
			check(t, c, name, MarkdownCode(name), codeKinds)
		}
	})
}

// TestLogTextIssuesNoCommand holds LogText, on generated text made of the
// pieces of workflow commands (both syntaxes, white space the runner
// trims, every line break it splits at), to output in which the runner
// finds no command (internal/testing/ghrunner reads it as the runner
// does), and which gives the text back once the escapes are taken out.
func TestLogTextIssuesNoCommand(t *testing.T) {
	pieces := []string{"::", "##[", "#", ":", "[", " ", "\t", "\u00a0", "\u2003", "\u3000", "\n", "\r", "\r\n",
		"stop-commands", "add-mask", "error", "x", "é"}
	rng := rand.New(rand.NewPCG(35, 7))
	unescape := func(s string) string {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			parts := strings.Split(l, "\r")
			for j, p := range parts {
				rest := strings.TrimLeftFunc(p, unicode.IsSpace)
				if strings.HasPrefix(rest, `\::`) {
					p = p[:len(p)-len(rest)] + rest[1:]
				}
				parts[j] = strings.ReplaceAll(p, `#\#[`, "##[")
			}
			lines[i] = strings.Join(parts, "\r")
		}
		return strings.Join(lines, "\n")
	}
	commands := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if len(ghrunner.Commands(s)) > 0 {
			commands++
		}
		got := LogText(s)
		if c := ghrunner.Commands(got); len(c) > 0 {
			t.Fatalf("LogText(%q) = %q: the runner reads line %d as a command", s, got, c[0].Line)
		}
		if back := unescape(got); back != s {
			t.Fatalf("LogText(%q) = %q, which gives back %q", s, got, back)
		}
	}
	if commands < 1000 {
		t.Errorf("only %d of the generated texts hold a command: the generator should make plenty", commands)
	}
}
