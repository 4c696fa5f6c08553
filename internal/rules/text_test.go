package rules

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/manifest"
	"github.com/kokua-policy/kokua-policy/internal/model"
	"github.com/kokua-policy/kokua-policy/internal/testing/needs"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// awkward are names a config may hold that Go's %q or a message's quoting
// would not write as TOML: quotes, a backslash, control characters, a
// bidirectional override, and a character outside the BMP.
var awkward = []string{"plain", "it's", `back\slash`, "bell\a", "tab\there", "line\nbreak", "del\x7f", "rtl\u202eoverride", "emoji😀", "wide\U000E0001tag", `"quoted"`}

// TestTOMLQuotingReadsBack holds the suggestion quoting to TOML: each form
// parses and reads back as the name it quotes.
func TestTOMLQuotingReadsBack(t *testing.T) {
	for _, name := range awkward {
		for _, form := range []struct {
			what, text string
		}{
			{"tomlString", tomlString(name)},
			{"tomlName", tomlName(name)},
			{"tomlStrings", "[" + tomlStrings([]string{name, name}) + "]"},
		} {
			doc := "x = " + form.text + "\n"
			root, err := tomlpos.Parse("suggestion", []byte(doc))
			if err != nil {
				t.Errorf("%s(%q) = %s, which is not TOML: %v", form.what, name, form.text, err)
				continue
			}
			v := root.Get("x")
			if v.Kind == tomlpos.KindArray {
				v = v.Items[0]
			}
			if v.Str != name {
				t.Errorf("%s(%q) = %s, which reads back as %q", form.what, name, form.text, v.Str)
			}
		}
	}
	// A name a literal string can hold keeps the quotes messages use.
	if got := tomlName("compute.execute_python"); got != "'compute.execute_python'" {
		t.Errorf("tomlName of a plain entry = %s", got)
	}
}

// keyValue finds a key = value in a suggestion's prose.
var keyValue = regexp.MustCompile(`(?:^|[\s(:])([A-Za-z0-9_-]+) = `)

// tomlInProse returns each key = value a suggestion shows, as a one-line
// TOML document. A value of [...] is a placeholder the user fills in, not
// TOML, and is left out.
func tomlInProse(s string) []string {
	var out []string
	for _, m := range keyValue.FindAllStringSubmatchIndex(s, -1) {
		rest := s[m[1]:]
		value := scanValue(rest)
		if value == "" || strings.HasPrefix(rest, "[...]") {
			continue
		}
		out = append(out, s[m[2]:m[3]]+" = "+value+"\n")
	}
	return out
}

// scanValue returns the TOML value at the start of s: a string up to its
// closing quote, an array up to its closing bracket, or a bare word. It
// stops at what closes a value without checking the value itself; parsing
// does that.
func scanValue(s string) string {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
				if depth == 0 {
					return s[:i+1]
				}
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
			if depth == 0 {
				return s[:i+1]
			}
		case depth == 0 && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == '_'):
			return s[:i]
		}
	}
	return s
}

// checkTOML parses each document with tomlpos, then all of them with
// Python's tomllib when python3 is installed, a parser the project does
// not own.
func checkTOML(t *testing.T, docs map[string]string) {
	t.Helper()
	for doc, where := range docs {
		if _, err := tomlpos.Parse("suggestion", []byte(doc)); err != nil {
			t.Errorf("%s: the suggestion shows %q, which is not TOML: %v", where, strings.TrimSpace(doc), err)
		}
	}
	if testing.Short() && !needs.CI() {
		t.Log("-short: the suggestions are checked with tomlpos only, not with Python's tomllib")
		return
	}
	python := needs.Program(t, "python3", "python3 3.11 or later, which has tomllib (.ci/run installs it under CI=true)")
	list := make([]string, 0, len(docs))
	for doc := range docs {
		list = append(list, doc)
	}
	in, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	const script = `
import json, sys
try:
    import tomllib
except ImportError:
    sys.exit(3)
for doc in json.load(sys.stdin):
    try:
        tomllib.loads(doc)
    except Exception as e:
        print("%r: %s" % (doc, e))
`
	cmd := exec.Command(python, "-I", "-S", "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		needs.Missing(t, "this python3 has no tomllib", "python3 3.11 or later")
	}
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	if len(out) > 0 {
		t.Errorf("tomllib refuses suggestions:\n%s", out)
	}
}

// TestGoldenSuggestionsAreTOML lints every golden case of testdata/lint
// that reads as a config and holds each suggestion that shows a
// key = value to TOML.
func TestGoldenSuggestionsAreTOML(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "lint", "*", "config.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no lint cases found: %v", err)
	}
	base, problems := manifest.Load(manifest.DefaultManifestName, manifest.DefaultManifest())
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	docs := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load("config.toml", data)
		if err != nil {
			continue // a case about a file that is no config
		}
		m := base
		if data, err := os.ReadFile(filepath.Join(filepath.Dir(f), "manifest.json")); err == nil {
			if m, problems = manifest.Load("manifest.json", data); len(problems) > 0 {
				continue // a case about the manifest itself
			}
		}
		in := &Input{ConfigFile: "config.toml", Config: cfg, World: model.Build(cfg, m)}
		for _, d := range Run(in) {
			for _, doc := range tomlInProse(d.Suggestion) {
				docs[doc] = filepath.Base(filepath.Dir(f)) + " (" + d.Rule + ")"
			}
		}
	}
	if len(docs) < 5 {
		t.Fatalf("only %d key = value suggestions found in the goldens; is the pattern still right?", len(docs))
	}
	checkTOML(t, docs)
}

// TestSuggestionsWithAwkwardNamesAreTOML lints configs whose names need
// escapes and holds each key = value suggestion to TOML, reading back the
// name it suggests.
func TestSuggestionsWithAwkwardNamesAreTOML(t *testing.T) {
	m, problems := manifest.Load(manifest.DefaultManifestName, manifest.DefaultManifest())
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	docs := map[string]string{}
	for _, tt := range []struct {
		name, config, rule, want string
	}{
		{"entry agent", "[assistant]\nagent = \"helper\\u0007x\"\n[agents.\"helper\\u0007\"]\n",
			"entry-agent-missing", "agent = \"helper\\u0007\"\n"},
		{"available string", "[agents.assistant.tools]\navailable = \"web, \\\"time\\\"\"\nresident = []\n",
			"available-string", "available = [\"web\", \"\\\"time\\\"\"]\n"},
		{"old tools", "[agents.assistant]\ntools = [\"we\\u0007b\", \"it's\"]\n",
			"old-agent-tools", "available = [\"we\\u0007b\", \"it's\"]\n"},
	} {
		cfg, err := config.Load("config.toml", []byte(tt.config))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		in := &Input{ConfigFile: "config.toml", Config: cfg, World: model.Build(cfg, m)}
		var shown []string
		for _, d := range Run(in) {
			for _, doc := range tomlInProse(d.Suggestion) {
				docs[doc] = tt.name + " (" + d.Rule + ")"
				if d.Rule == tt.rule {
					shown = append(shown, doc)
				}
			}
		}
		if !slices.Contains(shown, tt.want) {
			t.Errorf("%s: %s suggests %q, not %q", tt.name, tt.rule, shown, tt.want)
		}
	}
	checkTOML(t, docs)
}

// TestListedIsBounded holds every list a finding writes to maxListed names
// and a count of the rest (issue 18: a note naming every agent made n
// findings cost n squared).
func TestListedIsBounded(t *testing.T) {
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "a" + strconv.Itoa(i)
		}
		return out
	}
	for _, c := range []struct {
		items []string
		last  string
		want  string
	}{
		{nil, "and", ""},
		{names(1), "and", "'a0'"},
		{names(2), "or", "'a0' or 'a1'"},
		{names(5), "and", "'a0', 'a1', 'a2', 'a3' and 'a4'"},
		{names(5), "", "'a0', 'a1', 'a2', 'a3', 'a4'"},
		{names(6), "and", "'a0', 'a1', 'a2', 'a3', 'a4' and 1 more"},
		{names(3002), "", "'a0', 'a1', 'a2', 'a3', 'a4' and 2,997 more"},
		{names(3002), "or", "'a0', 'a1', 'a2', 'a3', 'a4' or 2,997 more"},
	} {
		if got := listed(c.items, q, c.last); got != c.want {
			t.Errorf("listed(%d names, %q) = %q, want %q", len(c.items), c.last, got, c.want)
		}
	}
}

// TestCyclePathIsBounded holds a delegation cycle's message to the first
// three and last two agents of a long cycle.
func TestCyclePathIsBounded(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"a", "a"}, "a -> a"},
		{[]string{"a", "b", "c", "d", "e", "a"}, "a -> b -> c -> d -> e -> a"},
		{[]string{"a", "b", "c", "d", "e", "f", "a"}, "a -> b -> c -> 1 more -> e -> f -> a"},
	} {
		if got := cyclePath(c.names); got != c.want {
			t.Errorf("cyclePath(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}
