package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/rules"
	"github.com/kokua-policy/kokua-policy/internal/testing/golden"
)

// The SARIF log of every lint gives the whole rule table (its driver's
// rules, 48 entries, 78 KB), the same whatever the findings. The goldens
// of testdata/formats leave it out: each case's want.sarif.json holds its
// log with the table replaced by sarifRulesMark, the table must be the one
// a log of no findings gives, and TestSARIFRuleTable checks that table
// once, entry by entry.
const (
	sarifRulesOpen  = "\n          \"rules\": [\n"
	sarifRulesClose = "\n          ]"
	sarifRulesMark  = "\n          \"rules\": \"the rule table, which TestSARIFRuleTable checks\""
)

// cutSARIFRules returns a SARIF log with its rule table replaced by
// sarifRulesMark, and the table, from its "[" to its "]".
func cutSARIFRules(log []byte) (rest, table []byte, ok bool) {
	from := bytes.Index(log, []byte(sarifRulesOpen))
	if from < 0 {
		return nil, nil, false
	}
	n := bytes.Index(log[from+len(sarifRulesOpen):], []byte(sarifRulesClose))
	if n < 0 {
		return nil, nil, false
	}
	to := from + len(sarifRulesOpen) + n + len(sarifRulesClose)
	table = log[from+len(sarifRulesOpen)-len("[\n") : to]
	rest = append(append(append([]byte{}, log[:from]...), sarifRulesMark...), log[to:]...)
	return rest, table, true
}

// sarifRuleTable is the rule table of the SARIF log of no findings.
func sarifRuleTable(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, "sarif", nil, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, table, ok := cutSARIFRules(b.Bytes())
	if !ok {
		t.Fatalf("the SARIF log of no findings has no rule table at the driver's indent:\n%s", b.Bytes())
	}
	return table
}

// checkSARIFGolden compares a case's SARIF log with its want.sarif.json,
// the rule table left out, and the table with the one TestSARIFRuleTable
// checks. TestFormats validates the whole log against the SARIF schema.
func checkSARIFGolden(t *testing.T, dir string, got []byte) {
	t.Helper()
	rest, table, ok := cutSARIFRules(got)
	if !ok {
		t.Fatalf("the SARIF log has no rule table at the driver's indent:\n%s", got)
	}
	if !bytes.Equal(table, sarifRuleTable(t)) {
		t.Errorf("the SARIF log's rule table is not the one a log of no findings gives:\n%s", table)
	}
	golden.Check(t, filepath.Join(dir, "want.sarif.json"), rest)
}

// TestSARIFRuleTable checks the rule table of the SARIF output once: one
// entry per rule, in the rule set's order, each with the rule's ID,
// summary, level, page, phase and rules.md numbers in every field that
// gives them; the first entry, indented from the left, is
// testdata/formats/sarif-rule.json, as the shape of them all.
func TestSARIFRuleTable(t *testing.T) {
	table := sarifRuleTable(t)
	var entries []json.RawMessage
	if err := json.Unmarshal(table, &entries); err != nil {
		t.Fatal(err)
	}
	all := rules.All()
	if len(entries) != len(all) {
		t.Fatalf("%d entries for %d rules", len(entries), len(all))
	}
	var first bytes.Buffer
	if err := json.Compact(&first, entries[0]); err != nil {
		t.Fatal(err)
	}
	var shape bytes.Buffer
	if err := json.Indent(&shape, first.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join(golden.Root(t), "testdata", "formats", "sarif-rule.json"), append(shape.Bytes(), '\n'))
	for i, r := range all {
		var e struct {
			ID               string `json:"id"`
			ShortDescription struct {
				Text string `json:"text"`
			} `json:"shortDescription"`
			DefaultConfiguration struct {
				Level string `json:"level"`
			} `json:"defaultConfiguration"`
			HelpURI string `json:"helpUri"`
			Help    struct {
				Text     string `json:"text"`
				Markdown string `json:"markdown"`
			} `json:"help"`
			Properties struct {
				Phase string   `json:"phase"`
				Refs  []string `json:"refs"`
			} `json:"properties"`
		}
		dec := json.NewDecoder(bytes.NewReader(entries[i]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		page := "https://github.com/kokua-policy/kokua-policy/blob/main/docs/rules/" + r.ID + ".md"
		facts := fmt.Sprintf("%s, phase %s", r.Severity, r.Phase)
		if len(r.Refs) > 0 {
			facts += ", " + strings.Join(r.Refs, ", ")
		}
		problems := []string{}
		check := func(ok bool, what string) {
			if !ok {
				problems = append(problems, what)
			}
		}
		check(e.ID == r.ID, "id")
		check(e.ShortDescription.Text == r.Summary, "shortDescription")
		check(e.DefaultConfiguration.Level == wantSARIFLevel[r.Severity], "level")
		check(e.HelpURI == page, "helpUri")
		check(e.Properties.Phase == string(r.Phase), "properties.phase")
		check(slices.Equal(e.Properties.Refs, r.Refs) || (len(r.Refs) == 0 && e.Properties.Refs != nil && len(e.Properties.Refs) == 0), "properties.refs")
		check(strings.HasPrefix(e.Help.Text, r.ID+": "+r.Summary+" ("+facts+"). ") && strings.Contains(e.Help.Text, page), "help.text")
		check(strings.HasPrefix(e.Help.Markdown, fmt.Sprintf("**%s** · phase `%s`", r.Severity, r.Phase)) &&
			strings.HasSuffix(e.Help.Markdown, "See [docs/rules/"+r.ID+".md]("+page+") for what it catches, an example and the fix."), "help.markdown")
		for _, ref := range r.Refs {
			check(strings.Contains(e.Help.Markdown, "["+ref+"](") && strings.Contains(e.Help.Markdown, "#"+strings.ToLower(ref)+")"), "help.markdown's link to "+ref)
		}
		if len(problems) > 0 {
			t.Errorf("the entry of rule %s gets %s wrong:\n%s", r.ID, strings.Join(problems, ", "), entries[i])
		}
	}
}
