// Package escape writes text from outside (a name from a config or a
// manifest, a path, a message that quotes them) into each format the
// commands write, so that nothing in it acts as that format's syntax:
// Markdown (the job summary and pull-request comment of kokua-compile diff
// and risks, the language server's hovers), GitHub workflow commands (the
// annotations of kokua-lint, kokua-compile diff and test) and SARIF message
// text. Each function first makes the text printable as printable.String
// does (control characters, bidirectional controls and invalid UTF-8
// written as escapes), which is also what a terminal or a log gets.
//
// The Markdown functions answer for GitHub's rendering: CommonMark with the
// GFM extensions (tables, strikethrough, autolinks, task lists), then
// GitHub's own passes over the rendered text, which no backslash escape
// reaches (@-mentions, #-references, GH- references, emoji shortcodes, bare
// URLs). The first are escaped with a backslash or an HTML character
// reference; the second are broken by a zero-width space written as the
// reference &#8203;, invisible on the page and absent from the Markdown's
// bytes, so that no raw invisible character reaches a terminal that shows
// the Markdown.
package escape

import (
	"strings"
	"unicode"

	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// ZeroWidthSpace is the character reference MarkdownText writes where
// GitHub would otherwise find a mention, a reference, an emoji shortcode or
// a bare link in the rendered text.
const ZeroWidthSpace = "&#8203;"

// MarkdownText writes s as inline Markdown text that renders as
// printable.String(s) with, at most, zero-width spaces added: no link,
// autolink, image, emphasis, strikethrough, code, math, raw HTML or
// character reference, no table cell boundary, and none of GitHub's
// mentions, references or emoji. It is for inline text: a paragraph, a
// list item after its marker, a heading after its marker, a table cell; at
// the start of a line it does not open a block either (list, heading,
// quote, thematic break).
func MarkdownText(s string) string {
	s = printable.String(s)
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '<':
			b.WriteString("&lt;")
			continue
		case '>':
			b.WriteString("&gt;")
			continue
		case '&':
			b.WriteString("&amp;")
			continue
		case ' ':
			if i == 0 || i == len(s)-1 {
				// Spaces that start a line (an indented code block, or
				// stripped) or end one (a hard line break, or stripped),
				// and those a table cell trims.
				b.WriteString("&#32;")
				continue
			}
		case '\\', '`', '*', '~', '[', ']', '|', '$':
			// Escapes, code spans, emphasis, strikethrough, links and
			// images, table cells, math.
			b.WriteByte('\\')
		case '_':
			// An underscore between two letters or digits opens and closes
			// nothing (CommonMark's flanking rules); any other may.
			if i == 0 || i == len(s)-1 || !alnum(s[i-1]) || !alnum(s[i+1]) {
				b.WriteByte('\\')
			}
		case '-', '+', '=':
			// A list item, a thematic break or a setext underline, when
			// the text starts a line.
			if i == 0 {
				b.WriteByte('\\')
			}
		case '.', ')':
			if digitsBefore(s, i) {
				// An ordered list item, when the text starts a line.
				b.WriteByte('\\')
			} else if c == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www") {
				// A bare www. link.
				b.WriteString(ZeroWidthSpace)
			}
		}
		b.WriteByte(c)
		switch {
		case c == '@' || c == '#':
			// A mention (@user, @org/team, an e-mail address,
			// owner/repo@sha) or a reference (#12, owner/repo#12).
			b.WriteString(ZeroWidthSpace)
		case c == ':' && i+1 < len(s) && (s[i+1] == '/' || emojiName(s[i+1])):
			// A link with a scheme (https://, mailto:) or an emoji
			// shortcode (:name:).
			b.WriteString(ZeroWidthSpace)
		case c == '-' && i >= 2 && i+1 < len(s) && strings.EqualFold(s[i-2:i], "gh") && digit(s[i+1]):
			// A GH-12 reference.
			b.WriteString(ZeroWidthSpace)
		}
	}
	return b.String()
}

// MarkdownCode writes s as inline code that renders as printable.String(s),
// in a table cell as anywhere else: a code span whose fence is longer than
// any run of backticks in s, so that none closes it, padded with a space
// when s starts or ends with a backtick (CommonMark strips one space from
// each end); a '|', which would end a table cell even inside a code span,
// is written between spans as an escaped '|'. Nothing in a code span is
// live, on GitHub neither (no mention, reference or link).
func MarkdownCode(s string) string {
	s = printable.String(s)
	if s == "" {
		return ""
	}
	parts := strings.Split(s, "|")
	for i, p := range parts {
		if p != "" {
			parts[i] = codeSpan(p)
		}
	}
	return strings.Join(parts, `\|`)
}

func codeSpan(s string) string {
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") ||
		strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.Trim(s, " ") != ""
	if pad {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// MarkdownFence is the fence of a fenced code block that holds text: at
// least three backticks, and more than the longest run of backticks in
// text, so that no line of it closes the block.
func MarkdownFence(text string) string {
	return strings.Repeat("`", max(3, longestRun(text, '`')+1))
}

// MarkdownBlock writes text as a fenced code block with the info string
// info ("diff", "text"): each line printable (printable.String), the fence
// longer than any run of backticks in them (MarkdownFence), so that no
// line closes the block, and a line feed after the closing fence. Nothing
// in a code block is live. A line feed that ends text is not a line of it.
func MarkdownBlock(info, text string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = printable.String(l)
	}
	body := strings.Join(lines, "\n")
	fence := MarkdownFence(body)
	return fence + info + "\n" + body + "\n" + fence + "\n"
}

// GitHubData writes s as the message of a GitHub workflow command
// (::error file=...::MESSAGE): printable, its line feeds kept as the
// runner's %0A, so that the command is one line and the text shown is s;
// '%' is escaped first, so that an escape already in s is not decoded.
func GitHubData(s string) string {
	return githubData.Replace(printable.Lines(s))
}

// GitHubProperty writes s as a property value of a workflow command
// (file=VALUE): one printable line, with ':' and ',', which would end the
// value or the properties, escaped as well.
func GitHubProperty(s string) string {
	return githubProperty.Replace(printable.String(s))
}

// LogText writes printable text (printable.String's, or lines of it) for a
// log a CI runner reads, so that no line of it is a GitHub workflow
// command: the runner acts on a line that, its leading white space
// trimmed, starts with "::", and, in its older syntax, on "##[" anywhere
// in a line; it splits lines at "\n" and "\r". Such a line gets a
// backslash before its first "::" (`\::add-mask::x`), and every "##[" is
// written `#\#[`; other text is unchanged. The Action also stops the
// runner's commands around what it prints (::stop-commands::); this is
// the report's own guard, for a log read without that.
func LogText(s string) string {
	if !strings.Contains(s, "::") && !strings.Contains(s, "##[") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '\n' && s[i] != '\r' {
			continue
		}
		line := strings.ReplaceAll(s[start:i], "##[", `#\#[`)
		if rest := strings.TrimLeftFunc(line, unicode.IsSpace); strings.HasPrefix(rest, "::") {
			line = line[:len(line)-len(rest)] + `\` + rest
		}
		b.WriteString(line)
		if i < len(s) {
			b.WriteByte(s[i])
		}
		start = i + 1
	}
	return b.String()
}

var (
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// SARIFText writes s as the text of a SARIF message (SARIF 2.1.0,
// 3.11.5 and 3.11.6): a curly brace doubled, as a placeholder's braces
// are the only single ones; and a ']' followed by '(' escaped with a
// backslash, with the backslashes right before it doubled, so that no
// embedded link ([text](target)) forms, which GitHub's code scanning would
// show as a link. Other brackets, which cannot end a link, are left as
// they are, so that a key path such as [agents.coder] reads as written.
func SARIFText(s string) string {
	if !strings.ContainsAny(s, "{}") && !strings.Contains(s, "](") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' || c == '}':
			b.WriteByte(c)
		case c == ']' && i+1 < len(s) && s[i+1] == '(':
			b.WriteString(strings.Repeat(`\`, trailing(s[:i], '\\')))
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

func alnum(c byte) bool {
	return digit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func digit(c byte) bool { return '0' <= c && c <= '9' }

func emojiName(c byte) bool { return alnum(c) || c == '_' || c == '+' || c == '-' }

// digitsBefore reports whether s[:i] is one to nine digits: s[i] would
// then end an ordered list item's marker at the start of a line.
func digitsBefore(s string, i int) bool {
	if i == 0 || i > 9 {
		return false
	}
	for j := range i {
		if !digit(s[j]) {
			return false
		}
	}
	return true
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	return longest
}

// trailing counts the c at the end of s.
func trailing(s string, c byte) int {
	n := 0
	for n < len(s) && s[len(s)-1-n] == c {
		n++
	}
	return n
}
