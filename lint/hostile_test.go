package lint

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// hostileNames are strings from outside that carry what must never reach
// a terminal or a workflow log raw (issue 13, "Why" 3): ESC and a colour
// sequence, an OSC 8 hyperlink, BEL, CR, LF followed by a forged workflow
// command, the right-to-left override, DEL, a C1 control and invalid
// UTF-8.
var hostileNames = []string{
	"esc\x1b[31m", "osc\x1b]8;;http://x\x1b\\", "bell\a", "cr\r", "lf\n::error file=x::forged",
	"rtl\u202e", "del\x7f", "c1\u009b", "bad\xff",
}

// rawByte returns a description of the first rune of out that no output
// may carry raw, the line feeds of the format excepted; "" when none.
func rawByte(out []byte) string {
	for i := 0; i < len(out); {
		r, w := utf8.DecodeRune(out[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			return fmt.Sprintf("invalid UTF-8 byte %#x at %d", out[i], i)
		case r == '\n':
		case printable.Unsafe(r):
			return fmt.Sprintf("%U at byte %d", r, i)
		}
		i += w
	}
	return ""
}

// hostileDiagnostics lints a config whose file name and agent and toolset
// names are each of hostileNames, so that the paths, the messages that
// quote the names, the suggestions and the source lines all carry them;
// one diagnostic with a hostile note and suggestion is added, as a rule
// could write.
func hostileDiagnostics(t *testing.T) ([]diag.Diagnostic, map[string][]byte) {
	t.Helper()
	var all []diag.Diagnostic
	sources := map[string][]byte{}
	m := DefaultManifest()
	for i, name := range hostileNames {
		quoted := strings.NewReplacer("\\", "\\\\", "\"", "\\\"").Replace(name)
		var toml strings.Builder
		fmt.Fprintf(&toml, "[agents.assistant.tools]\navailable = [%s]\n", tomlString(quoted))
		fmt.Fprintf(&toml, "[agents.%s.tools]\navailable = [\"memory\"] # %s\n", tomlString(quoted), tomlComment(name))
		file := fmt.Sprintf("case%d/%s.toml", i, name)
		src := Source{Name: file, Data: []byte(toml.String())}
		sources[file] = src.Data
		all = append(all, Lint(src, m).Diagnostics...)
	}
	all = append(all, diag.Diagnostic{
		Rule: "unknown-toolset", Severity: diag.Error, Message: "m " + strings.Join(hostileNames, " "),
		Span:       diag.Span{File: hostileNames[4], Start: diag.Position{Line: 1, Column: 1}, End: diag.Position{Line: 1, Column: 2}},
		Notes:      hostileNames,
		Suggestion: strings.Join(hostileNames, ","),
		Key:        hostileNames[0],
	})
	if len(all) < len(hostileNames) {
		t.Fatalf("only %d diagnostics for %d hostile configs", len(all), len(hostileNames))
	}
	return diag.Sort(all), sources
}

// tomlComment keeps what a TOML comment may hold of s: the C1 controls
// and the bidirectional overrides, which reach the quoted source line.
func tomlComment(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}

// tomlString writes a TOML basic string whose control characters are
// escapes, so that the config is valid TOML and the name read from it
// holds the raw character.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e {
			fmt.Fprintf(&b, `\u%04X`, r)
			continue
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func TestNoFormatWritesARawControlCharacter(t *testing.T) {
	ds, sources := hostileDiagnostics(t)
	for _, format := range formats.Names() {
		for _, style := range []Style{{}, testStyle()} {
			var out bytes.Buffer
			if err := Write(&out, format, ds, WriteOptions{Sources: sources, Style: style}); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			if what := rawByte(out.Bytes()); what != "" {
				t.Errorf("--format %s writes %s raw:\n%s", format, what, out.String())
			}
		}
	}
}

// testStyle marks every role with brackets, so that a test can see that
// the escaping leaves the painting alone.
func testStyle() Style {
	mark := func(s string) string { return "[" + s + "]" }
	return Style{Location: mark, Error: mark, Warning: mark, Info: mark, Gutter: mark, Underline: mark, Help: mark}
}

func TestGitHubWritesOneLinePerDiagnostic(t *testing.T) {
	ds, _ := hostileDiagnostics(t)
	var out bytes.Buffer
	if err := WriteGitHub(&out, ds); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(ds) {
		t.Fatalf("%d lines for %d diagnostics:\n%s", len(lines), len(ds), out.String())
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "::error ") && !strings.HasPrefix(l, "::warning ") && !strings.HasPrefix(l, "::notice ") {
			t.Errorf("a line is not a workflow command: %q", l)
		}
	}
	// The forged command of a file name is no command: its line feed and
	// colons are escaped inside the file property.
	if strings.Contains(out.String(), "\n::error file=x::") {
		t.Errorf("a file name forged a workflow command:\n%s", out.String())
	}
}

func TestHumanEscapesThePathAndKeepsTheColours(t *testing.T) {
	d := diag.Diagnostic{Rule: "no-agents", Severity: diag.Error, Message: "m",
		Span: diag.Span{File: "a\n\x1b[2Jb.toml", Start: diag.Position{Line: 1, Column: 1}}}
	var out bytes.Buffer
	if err := Write(&out, "human", []diag.Diagnostic{d}, WriteOptions{Style: testStyle()}); err != nil {
		t.Fatal(err)
	}
	want := "[a\\n\\u001b[2Jb.toml:1:1:] [error:] m [no-agents]\n1 error, 0 warnings, 0 info\n"
	if out.String() != want {
		t.Errorf("human output\n got %q\nwant %q", out.String(), want)
	}
}

// TestWriteJSONIsTheWholeReport holds the streaming JSON writer to the
// document it stands for: jsonReport's report, indented by two spaces, with
// printable.JSON applied, for hostile diagnostics, every format case
// and none at all.
func TestWriteJSONIsTheWholeReport(t *testing.T) {
	hostile, _ := hostileDiagnostics(t)
	sets := [][]diag.Diagnostic{nil, {}, hostile}
	for _, dir := range formatCases(t) {
		_, ds := renderCase(t, dir, "json")
		sets = append(sets, ds)
	}
	for _, ds := range sets {
		var got, want bytes.Buffer
		if err := WriteJSON(&got, ds); err != nil {
			t.Fatal(err)
		}
		if err := writeIndentedJSON(&want, jsonReport(ds)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("WriteJSON of %d diagnostics:\n%s\nwant:\n%s", len(ds), got.Bytes(), want.Bytes())
		}
	}
}
