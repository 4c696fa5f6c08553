package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/policy"
)

// TestAnswerShape fails when policy.Answer, Reason or Position change:
// appendAnswer writes their fields by hand and must then be updated (and
// TestAppendAnswer will say whether it is right).
func TestAnswerShape(t *testing.T) {
	shape := func(v any) string {
		var b strings.Builder
		typ := reflect.TypeOf(v)
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			fmt.Fprintf(&b, "%s %s %q; ", f.Name, f.Type, f.Tag.Get("json"))
		}
		for _, m := range []string{"MarshalJSON", "MarshalText"} {
			if _, ok := typ.MethodByName(m); ok {
				fmt.Fprintf(&b, "%s; ", m)
			}
			if _, ok := reflect.PointerTo(typ).MethodByName(m); ok {
				fmt.Fprintf(&b, "*%s; ", m)
			}
		}
		return b.String()
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{policy.Answer{}, `Decision policy.Decision "decision"; Agent string "agent"; Tool string "tool"; Toolset string "toolset"; Reason *policy.Reason "reason"; `},
		{policy.Reason{}, `Summary string "summary"; List string "list,omitempty"; Key string "key,omitempty"; Entry string "entry,omitempty"; Position *policy.Position "position,omitempty"; Inherited bool "inherited"; Reviewer bool "reviewer"; `},
		{policy.Position{}, `Column int "column"; EndColumn int "end_column"; EndLine int "end_line"; Line int "line"; `},
	} {
		if got := shape(c.v); got != c.want {
			t.Errorf("%T changed; update appendAnswer in fastjson.go:\n got %s\nwant %s", c.v, got, c.want)
		}
	}
	if reflect.TypeOf(policy.Decision("")).Kind() != reflect.String {
		t.Error("policy.Decision is no longer a string")
	}
}

func encodingJSON(t testing.TB, a policy.Answer) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(a); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestAppendAnswer compares appendAnswer with encoding/json on every
// answer of the golden policies, and on answers with strings that need
// escaping.
func TestAppendAnswer(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/compile/*/want.json")
	n := 0
	for _, path := range paths {
		p, err := policy.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range questions(p) {
			for _, un := range []bool{false, true} {
				a := p.Decide(q[0], q[1], policy.Turn{Unattended: un})
				if got, want := string(appendAnswer(nil, &a))+"\n", encodingJSON(t, a); got != want {
					t.Fatalf("%s %s:\n got %s\nwant %s", q[0], q[1], got, want)
				}
				n++
			}
		}
	}
	odd := []string{"", "a<b>&c", "quote \" and \\ backslash", "\b\f\n\r\t\x00\x1f\x7f", "caf\u00e9 \u2028\u2029 \U0001F600",
		"bad \xff\xfe utf-8 \xe2\x82", "</script>", "\u0000"}
	for _, s := range odd {
		for _, a := range []policy.Answer{
			{Decision: policy.Decision(s), Agent: s, Tool: s, Toolset: s},
			{Decision: policy.Review, Agent: s, Tool: s, Reason: &policy.Reason{Summary: s, List: s, Key: s, Entry: s,
				Position: &policy.Position{Line: 1, Column: -2, EndLine: 1 << 40, EndColumn: 0}, Inherited: true, Reviewer: true}},
		} {
			if got, want := string(appendAnswer(nil, &a))+"\n", encodingJSON(t, a); got != want {
				t.Fatalf("%q:\n got %s\nwant %s", s, got, want)
			}
			n++
		}
	}
	t.Logf("%d answers compared", n)
}

func FuzzAppendAnswer(f *testing.F) {
	for _, s := range []string{"run", "a<b", "\xff", "\u2028", "\"\\", "\x01"} {
		f.Add(s, s, s, true)
	}
	f.Fuzz(func(t *testing.T, agent, tool, summary string, withPosition bool) {
		a := policy.Answer{Decision: policy.Confirm, Agent: agent, Tool: tool, Toolset: summary,
			Reason: &policy.Reason{Summary: summary, List: tool, Entry: agent}}
		if withPosition {
			a.Reason.Position = &policy.Position{Line: len(agent), Column: len(tool)}
		}
		if got, want := string(appendAnswer(nil, &a))+"\n", encodingJSON(t, a); got != want {
			t.Fatalf("\n got %s\nwant %s", got, want)
		}
	})
}

// fastSeeds are bodies for the fast readers: ones they accept and ones
// they leave to encoding/json.
var fastSeeds = []string{
	`{"agent":"coder","tool":"compute.run_command"}`,
	`{"agent":"coder","tool":"compute.run_command","unattended":true}`,
	` {"unattended" : false , "tool":"x", "agent":"y"} `,
	`{}`,
	`{"agent":"coder","tool":"x","unattended":truex}`,
	`{"agent":"coder","tool":"x","unattended":null}`,
	`{"agent":"co\u0064er","tool":"x"}`,
	`{"Agent":"coder","tool":"x"}`,
	`{"agent":"coder","agent":"assistant","tool":"x"}`,
	`{"agent":"coder","tool":"x",}`,
	`{"agent":"coder","tool":"x"}}`,
	`{"agent":"café","tool":"x"}`,
	`{"agent":1,"tool":"x"}`,
	`[]`,
	`{"requests":[{"agent":"coder","tool":"x"},{"agent":"a","tool":"b","unattended":true}]}`,
	`{"requests":[]}`,
	`{"requests":[{}]}`,
	`{"requests":[{"agent":"coder","tool":"x"},]}`,
	`{"requests":[],"requests":[]}`,
	`{"requests":null}`,
}

// FuzzParseRequest checks that whatever the fast reader accepts,
// encoding/json reads the same way.
func FuzzParseRequest(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	intern := map[string]string{"coder": "coder", "compute.run_command": "compute.run_command"}
	f.Fuzz(func(t *testing.T, body []byte) {
		q, ok := parseRequest(body, intern)
		if !ok {
			return
		}
		want, e := decodeRequest(body)
		if e != nil {
			t.Fatalf("the fast reader accepted %q, encoding/json refused it: %s", body, e.message)
		}
		if q != want {
			t.Fatalf("%q: fast %+v, encoding/json %+v", body, q, want)
		}
	})
}

// FuzzParseBatch is FuzzParseRequest for batches.
func FuzzParseBatch(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		qs, ok := parseBatch(body, nil, 50, nil)
		if !ok {
			return
		}
		valid := true
		for i := range qs {
			valid = valid && qs[i].check(i) == nil
		}
		want, e := decodeBatch(body)
		switch {
		case e != nil && valid:
			t.Fatalf("the fast reader accepted %q, encoding/json refused it: %s", body, e.message)
		case e == nil && !reflect.DeepEqual(append([]decideRequest{}, qs...), append([]decideRequest{}, want...)):
			t.Fatalf("%q: fast %+v, encoding/json %+v", body, qs, want)
		}
	})
}

// TestFastReaders checks which bodies the fast readers take themselves.
func TestFastReaders(t *testing.T) {
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{fastSeeds[0], true}, {fastSeeds[1], true}, {fastSeeds[2], true}, {`{}`, true},
		{`{"agent":"coder","tool":"x","unattended":truex}`, false},
		{`{"agent":"coder","tool":"x","unattended":null}`, false},
		{`{"agent":"co\u0064er","tool":"x"}`, false},
		{`{"Agent":"coder","tool":"x"}`, false},
		{`{"agent":"coder","agent":"assistant","tool":"x"}`, false},
		{`{"agent":"coder","tool":"x",}`, false},
		{`{"agent":"coder","tool":"x"}}`, false},
		{`{"agent":"café","tool":"x"}`, false},
		{`{"requests":[]}`, false},
	} {
		if _, ok := parseRequest([]byte(c.body), nil); ok != c.ok {
			t.Errorf("parseRequest(%s) = %v, want %v", c.body, ok, c.ok)
		}
	}
	qs, ok := parseBatch([]byte(fastSeeds[14]), nil, 10, nil)
	if !ok || len(qs) != 2 || qs[1] != (decideRequest{"a", "b", true}) {
		t.Errorf("parseBatch: %v %+v", ok, qs)
	}
	if _, ok := parseBatch([]byte(fastSeeds[14]), nil, 1, nil); ok {
		t.Error("parseBatch went past its maximum")
	}
	// Known names come from the intern table, not a new allocation.
	intern := map[string]string{"coder": "coder"}
	body := []byte(`{"agent":"coder","tool":"x"}`)
	if n := testing.AllocsPerRun(100, func() { parseRequest(body, intern) }); n > 1 {
		t.Errorf("%v allocations for one unknown name", n)
	}
}
