package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/testing/gen"
)

// Run a target for a minute with
//
//	go test ./lint -run '^$' -fuzz FuzzLint -fuzztime 60s -fuzzminimizetime 2s
//	go test ./lint -run '^$' -fuzz FuzzManifest -fuzztime 60s -fuzzminimizetime 2s
//
// A crasher lands in lint/testdata/fuzz/<target>/ and is replayed by every
// later go test ./lint as a regression seed. -fuzzminimizetime keeps the
// engine from spending the whole run (60 s by default per input) shrinking
// each new interesting input: a manifest seed is kilobytes long.

// fuzzSeeds are inputs people do not write on purpose but editors, copy and
// paste and broken disks produce.
var fuzzSeeds = []string{
	"",
	"\x00\x01\x02\xff\xfe\x7f binary junk \x1b[31m",
	"a = " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n",
	"a = " + strings.Repeat("[", 5000) + "\n",
	"x = " + strings.Repeat("{a = ", 100) + "1" + strings.Repeat("}", 100) + "\n",
	strings.Repeat("k", 70000) + " = 1\n[agents." + strings.Repeat("n", 5000) + ".tools]\navailable = [\"web\"]\n",
	"[agents.a\x00b]\n[agents.coder.tools]\navailable = [\"we\x00b\"]\nconfirm = [\"\x00\"]\n",
	"[agents.\"caf\xe9\"]\n[agents.coder.tools]\navailable = [\"w\xffeb\", \"\xc3\x28\"]\n",
	"[assistant.tools]\r\nconfirm = []\r\nreview = []\r\n\r\n[agents.assistant.tools]\r\navailable = [\"web\", \"fs\"]\r\nresident = [\"web\"]\r\n",
	"[assistant.tools]\n\tconfirm = [ \"web.get_webpage\" ]\t# tab\n\treview\t=\t[]\n[agents.assistant]\n\tdelegates_to\t= [\"coder\"]\n[agents.coder.tools]\n\tavailable = [\t\"compute\",\t\"fs_write\" ]\n",
	"[agents.assistant.tools]\navailable = [\n  \"web\",\n  # a comment\n  \"fs\",\n\n]\nresident = [\n]\n",
	"agents = { assistant = { tools = { available = [\"web\"], confirm = [\"web.get_webpage\"] } }, coder = { delegates_to = [\"assistant\"] } }\n",
	"[agents.assistant]\ntools = [\"web\", { a = 1 }, [1, 2], 3.5, 1979-05-27T07:32:00Z]\n",
	"[[mcp.server]]\nname = \"\"\nurl = 1\n[[mcp.server]]\nname = \"x.y*\"\n[agents.assistant.tools]\navailable = \"ALL\"\n",
	"[agents.\"a:b\"]\n[agents.\"[c\"]\n[agents.assistant]\ndelegates_to = [\"assistant\", \"a:b\", \"nobody\"]\n",
	"[assistant]\nagent = \"\u202eevil\"\n[agents.\"\u202eevil\".tools]\navailable = [\"\u200fweb\"]\nconfirm = [\"web.\u2066x\"]\n",
	"a = \"\"\"\nmulti\nline\"\"\"\nb = '''\nraw\n'''\n[agents.x]\ndescription = \"\"\"\r\n\"\"\"\n",
	"[agents.assistant.tools]\navailable = [\"web\"]\nconfirm = [\"web.*\", \"web.x.y\", \"*\", \".\", \"web.\", \".x\", \"core\", \"core.*\", \"comp*.x\"]\n",
	"[agents.coder]\ndescription = \"\\u001b]0;title\\u0007\"\n[agents.coder.tools]\navailable = [\"\\u001b[2Jweb\\nx\"]\nconfirm = [\"web.\\u0007\", \"\\u009b31m\"]\n",
	"[security.auto_approval]\nenabled = true\nreviewers = [\"approval\", \"approval\"]\n[reviewers.approval]\nthinking = \"high\"\nsystem_message = \" \\t\"\n[agents.a]\n",
}

// checkDiagnostics holds the findings of one lint to the properties every
// output relies on.
func checkDiagnostics(t *testing.T, ds []diag.Diagnostic, files ...string) {
	t.Helper()
	for _, d := range ds {
		if d.Rule == "" {
			t.Errorf("a diagnostic without a rule ID: %+v", d)
		}
		if d.Message == "" {
			t.Errorf("%s: a diagnostic without a message: %+v", d.Rule, d)
		}
		known := false
		for _, f := range files {
			known = known || d.Span.File == f
		}
		if !known {
			t.Errorf("%s: diagnostic in file %q, want one of %q", d.Rule, d.Span.File, files)
		}
		s := d.Span
		if s.IsZero() {
			// A deliberately empty span points at the whole file.
			if !s.End.IsZero() {
				t.Errorf("%s: a span with no start but an end %+v", d.Rule, s)
			}
			continue
		}
		if s.Start.Line < 1 || s.Start.Column < 1 || s.End.Line < 1 || s.End.Column < 1 {
			t.Errorf("%s: position below 1:1 in %+v (%s)", d.Rule, s, d.Message)
		}
		if s.End.Compare(s.Start) < 0 {
			t.Errorf("%s: span ends before it starts: %+v (%s)", d.Rule, s, d.Message)
		}
	}
}

// ansiStyle paints every role of the human output with an ANSI colour, as
// the commands' --color always does.
var ansiStyle = Style{
	Location:  ansi("1"),
	Error:     ansi("31;1"),
	Warning:   ansi("33;1"),
	Info:      ansi("36;1"),
	Gutter:    ansi("34"),
	Underline: ansi("32;1"),
	Help:      ansi("36"),
}

func ansi(code string) func(string) string {
	return func(s string) string { return "\x1b[" + code + "m" + s + "\x1b[0m" }
}

// render writes the human (without and with colour) and JSON output of one
// lint, and checks that the JSON is valid and that the plain human output
// carries nothing a terminal would interpret.
func render(t *testing.T, ds []diag.Diagnostic, sources map[string][]byte) []byte {
	t.Helper()
	var plain, colored, js bytes.Buffer
	if err := Write(&plain, "human", ds, WriteOptions{Sources: sources}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&colored, "human", ds, WriteOptions{Sources: sources, Style: ansiStyle}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, ds); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(js.Bytes()) {
		t.Errorf("invalid JSON output:\n%s", js.Bytes())
	}
	var back JSONReport
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Diagnostics) != len(ds) {
		t.Errorf("JSON output does not read back as %d diagnostics (%v)", len(ds), err)
	}
	if !utf8.Valid(plain.Bytes()) {
		t.Errorf("human output is not valid UTF-8:\n%q", plain.Bytes())
	}
	for i, r := range plain.String() {
		if r != '\n' && unsafeRune(r) {
			t.Errorf("human output holds control character %U at byte %d:\n%q", r, i, plain.String())
			break
		}
	}
	return bytes.Join([][]byte{plain.Bytes(), colored.Bytes(), js.Bytes()}, nil)
}

// unsafeRune reports the runes a terminal would act on rather than print:
// C0 and C1 controls, DEL, and the bidirectional formatting characters.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x200e || r == 0x200f ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// FuzzLint lints arbitrary bytes as a config against the default install:
// no panic, every finding positioned, and the same output every time.
func FuzzLint(f *testing.F) {
	cases, err := filepath.Glob(filepath.Join("..", "testdata", "lint", "*", "config.toml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range cases {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add(gen.Config(3, 8))
	m := DefaultManifest()
	f.Fuzz(func(t *testing.T, data []byte) {
		src := Source{Name: "config.toml", Data: data}
		sources := map[string][]byte{src.Name: data, m.Source.Name: m.Source.Data}
		first := Lint(src, m)
		checkDiagnostics(t, first.Diagnostics, src.Name)
		out1 := render(t, first.Diagnostics, sources)
		second := Lint(src, m)
		out2 := render(t, second.Diagnostics, sources)
		if !bytes.Equal(out1, out2) {
			t.Errorf("two lints of one input differ:\n--- first\n%s\n--- second\n%s", out1, out2)
		}
	})
}

// FuzzManifest loads arbitrary bytes as a manifest and lints the shipped
// config against it: no panic, and every finding positioned in one of the
// two files.
func FuzzManifest(f *testing.F) {
	cfg, err := os.ReadFile(shippedConfig)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(manifest.DefaultManifest())
	f.Add(gen.Manifest(3))
	for _, s := range []string{
		"", "null", "[]", "{}", `{"manifest_version": 1}`, `{"manifest_version": 1, "toolsets": []}`,
		`{"manifest_version": 1, "toolsets": [{"name": "web", "kind": "kokua", "description": "", "tools": [{"name": "x"}, {"name": "x"}]}]}`,
		`{"manifest_version": 1, "toolsets": [{"name": "core", "kind": "skill", "description": "d", "tools": []}, {"name": "core", "kind": "mcp", "description": "d", "tools": [], "connected": false}]}`,
		`{"manifest_version": 2.5e308, "toolsets": {"a": 1}}`,
		"{\"manifest_version\": 1, \"source\": \"\xff\x00\u202e\", \"toolsets\": [{\"name\": \"\\u0000\", \"kind\": \"kokua\", \"description\": \"\", \"tools\": []}]}",
		strings.Repeat("[", 10000),
		"{\"a\":1,\"a\":2}\r\n\t",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m := LoadManifest(Source{Name: "manifest.json", Data: data})
		src := Source{Name: "config.toml", Data: cfg}
		res := Lint(src, m)
		checkDiagnostics(t, res.Diagnostics, src.Name, "manifest.json")
		sources := map[string][]byte{src.Name: cfg, "manifest.json": data}
		out1 := render(t, res.Diagnostics, sources)
		out2 := render(t, Lint(src, LoadManifest(Source{Name: "manifest.json", Data: data})).Diagnostics, sources)
		if !bytes.Equal(out1, out2) {
			t.Errorf("two lints against one manifest differ:\n--- first\n%s\n--- second\n%s", out1, out2)
		}
	})
}
