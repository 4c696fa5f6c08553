// Package expect is policy tests: a team's claims about what its config
// lets agents do, written in a test file (kokua.test.toml, one [[expect]]
// table per claim), checked against a compiled policy with the runtime's
// own decisions (package policy) and, for reach, the delegation graph of
// package reach. kokua-compile test is its face; the reports (human, JSON,
// JUnit, SARIF, GitHub workflow commands) are written here, and the
// language server checks a test file's selectors with Selectors.
//
// No host imports this package; it lives under internal/. What a program
// needs of a test run is the command's JSON report (docs/json-output.md),
// a contract that does not move with this package's types.
package expect

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/printable"
	"github.com/kokua-policy/kokua-policy/internal/similar"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
	"github.com/kokua-policy/kokua-policy/policy"
)

// DefaultFile is the test file read beside the config when none is named.
const DefaultFile = "kokua.test.toml"

// Rule is the rule ID of every diagnostic about a test file itself: invalid
// TOML, an unknown key, a value of the wrong type, a missing key.
const Rule = "test-file"

// Selectors that are no name of the config.
const (
	// Every is the agent selector of every declared agent, and the tool
	// selector of every tool.
	Every = "*"
	// Composed is the agent selector of composed workers.
	Composed = "composed"
)

// Groups of decisions a claim can want.
const (
	// Asks is confirm and review: the call stops for someone first.
	Asks = "asks"
	// NotRun is every decision but run.
	NotRun = "not run"
)

// Decisions are the decisions a claim can name, in the runtime's order.
var Decisions = []policy.Decision{policy.Run, policy.Confirm, policy.Review, policy.NotLoaded, policy.Unavailable, policy.Denied}

// Words are what a decision key may hold: each decision and each group.
func Words() []string {
	out := make([]string, 0, len(Decisions)+2)
	for _, d := range Decisions {
		out = append(out, string(d))
	}
	return append(out, Asks, NotRun)
}

// Expand turns a decision word into the decisions it stands for; nil for a
// word that is none.
func Expand(word string) []policy.Decision {
	switch word {
	case Asks:
		return []policy.Decision{policy.Confirm, policy.Review}
	case NotRun:
		return []policy.Decision{policy.Confirm, policy.Review, policy.NotLoaded, policy.Unavailable, policy.Denied}
	}
	for _, d := range Decisions {
		if string(d) == word {
			return []policy.Decision{d}
		}
	}
	return nil
}

// Value is a string of the test file with where it is written.
type Value struct {
	Text string
	Span diag.Span
}

// Expect is one [[expect]] table.
type Expect struct {
	// Span is the table's header, [[expect]].
	Span diag.Span
	// Name is the claim in words, "" when the file gives none.
	Name  string
	Agent Value
	Tool  Value
	// Decision holds each word written, one or a list.
	Decision []Value
	// Unattended is a turn nobody watches.
	Unattended bool
	// Loaded are the toolsets the session has loaded; HasLoaded says the
	// key is written (an empty list is a session that loaded nothing).
	Loaded    []Value
	HasLoaded bool
	// Reach extends the claim to every agent this one can set running.
	Reach bool
}

// Title is the claim's name, or its selectors when it has none.
func (e *Expect) Title() string {
	if e.Name != "" {
		return e.Name
	}
	words := make([]string, len(e.Decision))
	for i, d := range e.Decision {
		words[i] = d.Text
	}
	s := fmt.Sprintf("%s %s: %s", e.Agent.Text, e.Tool.Text, strings.Join(words, " or "))
	if e.Unattended {
		s += " (unattended)"
	}
	if e.Reach {
		s += " (reach)"
	}
	return s
}

// Wanted are the decisions that satisfy the claim.
func (e *Expect) Wanted() map[policy.Decision]bool {
	out := map[policy.Decision]bool{}
	for _, w := range e.Decision {
		for _, d := range Expand(w.Text) {
			out[d] = true
		}
	}
	return out
}

// File is a test file read.
type File struct {
	Name    string
	Expects []*Expect
}

// Keys are the keys of an [[expect]] table, in the order the docs list them.
var Keys = []string{"name", "agent", "tool", "decision", "unattended", "loaded", "reach"}

// Parse reads a test file. A file with any diagnostic (every one an
// error) is not checked: the diagnostics say where and why.
func Parse(name string, data []byte) (*File, []diag.Diagnostic) {
	f := &File{Name: name}
	root, err := tomlpos.Parse(name, data)
	if err != nil {
		var se *tomlpos.SyntaxError
		if errors.As(err, &se) {
			return nil, []diag.Diagnostic{problem(se.Span, "", "%s", se.Message)}
		}
		return nil, []diag.Diagnostic{problem(diag.Span{File: name}, "", "%v", err)}
	}
	var ds []diag.Diagnostic
	for _, fl := range root.Fields {
		if fl.Name != "expect" {
			ds = append(ds, unknownKey(fl, []string{"expect"}, ""))
			continue
		}
		v := fl.Value
		if v.Kind != tomlpos.KindArray {
			ds = append(ds, problem(v.Span(), "expect", "expect is %s; write each claim as an [[expect]] table", v.Kind))
			continue
		}
		for _, item := range v.Items {
			if item.Kind != tomlpos.KindTable {
				ds = append(ds, problem(item.Span(), "expect", "an element of expect is %s; write each claim as an [[expect]] table", item.Kind))
				continue
			}
			e, more := parseExpect(item)
			ds = append(ds, more...)
			if e != nil {
				f.Expects = append(f.Expects, e)
			}
		}
	}
	if len(ds) == 0 && len(f.Expects) == 0 {
		ds = append(ds, problem(diag.Span{File: name}, "", "the test file holds no [[expect]] table: a test file with no claim would pass whatever the config says"))
	}
	if len(ds) > 0 {
		return nil, diag.Sort(ds)
	}
	return f, nil
}

// parseExpect reads one [[expect]] table; nil when it has a problem.
func parseExpect(t *tomlpos.Node) (*Expect, []diag.Diagnostic) {
	e := &Expect{Span: header(t)}
	var ds []diag.Diagnostic
	str := func(f tomlpos.Field) (Value, bool) {
		if f.Value.Kind != tomlpos.KindString {
			ds = append(ds, wrongType(f, "a string"))
			return Value{}, false
		}
		return Value{Text: f.Value.Str, Span: f.Value.Span()}, true
	}
	boolean := func(f tomlpos.Field) bool {
		if f.Value.Kind != tomlpos.KindBool {
			ds = append(ds, wrongType(f, "true or false"))
			return false
		}
		return f.Value.Bool
	}
	strs := func(f tomlpos.Field, what string) ([]Value, bool) {
		if f.Value.Kind == tomlpos.KindString {
			v, _ := str(f)
			return []Value{v}, true
		}
		if f.Value.Kind != tomlpos.KindArray {
			ds = append(ds, wrongType(f, what))
			return nil, false
		}
		out := make([]Value, 0, len(f.Value.Items))
		for _, it := range f.Value.Items {
			if it.Kind != tomlpos.KindString {
				ds = append(ds, problem(it.Span(), "expect."+f.Name, "an element of %s is %s; write %s", f.Name, it.Kind, what))
				return nil, false
			}
			out = append(out, Value{Text: it.Str, Span: it.Span()})
		}
		return out, true
	}
	seen := map[string]bool{}
	for _, f := range t.Fields {
		seen[f.Name] = true
		switch f.Name {
		case "name":
			if v, ok := str(f); ok {
				e.Name = v.Text
			}
		case "agent":
			if v, ok := str(f); ok {
				e.Agent = v
				if v.Text == "" {
					ds = append(ds, problem(v.Span, "expect.agent", "agent is empty; write a declared agent, %q or %q", Every, Composed))
				}
			}
		case "tool":
			if v, ok := str(f); ok {
				e.Tool = v
				if v.Text == "" {
					ds = append(ds, problem(v.Span, "expect.tool", "tool is empty; write toolset.tool, a toolset, toolset.* or %q", Every))
				}
			}
		case "decision":
			vs, ok := strs(f, "a decision or a list of them")
			if !ok {
				break
			}
			if len(vs) == 0 {
				ds = append(ds, problem(f.Value.Span(), "expect.decision", "decision is an empty list, which no call could satisfy; name at least one of %s", strings.Join(Words(), ", ")))
			}
			for _, v := range vs {
				if Expand(v.Text) == nil {
					d := problem(v.Span, "expect.decision", "%s is no decision: write one of %s", printable.Quote(v.Text), strings.Join(Words(), ", "))
					if s := similar.Suggest(v.Text, Words()); len(s) > 0 {
						d.Suggestion = fmt.Sprintf("write %q", s[0])
						d.Notes = []string{fmt.Sprintf("Did you mean %s?", printable.Quote(s[0]))}
					}
					ds = append(ds, d)
				}
			}
			e.Decision = vs
		case "unattended":
			e.Unattended = boolean(f)
		case "reach":
			e.Reach = boolean(f)
		case "loaded":
			if f.Value.Kind != tomlpos.KindArray {
				ds = append(ds, wrongType(f, "a list of toolsets"))
				break
			}
			vs, ok := strs(f, "a list of toolsets")
			if ok {
				e.Loaded, e.HasLoaded = vs, true
			}
		default:
			ds = append(ds, unknownKey(f, Keys, "expect."))
		}
	}
	for _, k := range []string{"agent", "tool", "decision"} {
		if !seen[k] {
			ds = append(ds, problem(e.Span, "expect", "this [[expect]] table has no %s key: every claim names an agent, a tool and the decision it wants", k))
		}
	}
	if len(ds) > 0 {
		return nil, ds
	}
	return e, nil
}

// header is the span of a table's [[expect]] header: the first line of
// the table's span.
func header(t *tomlpos.Node) diag.Span {
	s := t.Span()
	if s.End.Line > s.Start.Line {
		s.End = s.Start
		s.End.Column += len("[[expect]]")
		s.End.Offset += len("[[expect]]")
	}
	return s
}

func problem(at diag.Span, key, format string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{Rule: Rule, Severity: diag.Error, Phase: diag.PhaseParse, Message: fmt.Sprintf(format, args...), Span: at, Key: key}
}

func wrongType(f tomlpos.Field, want string) diag.Diagnostic {
	return problem(f.Value.Span(), "expect."+f.Name, "%s is %s; write %s", f.Name, f.Value.Kind, want)
}

func unknownKey(f tomlpos.Field, known []string, prefix string) diag.Diagnostic {
	at := f.Value.Key()
	if at.IsZero() {
		at = f.Value.Span()
	}
	d := problem(at, prefix+f.Name, "unknown key %s: a test file's [[expect]] table takes %s", printable.Quote(f.Name), strings.Join(known, ", "))
	if prefix == "" {
		d.Message = fmt.Sprintf("unknown key %s: a test file holds only [[expect]] tables", printable.Quote(f.Name))
	}
	if s := similar.Suggest(f.Name, known); len(s) > 0 && !slices.Contains(known, f.Name) {
		d.Suggestion = fmt.Sprintf("write %q", s[0])
		d.Notes = []string{fmt.Sprintf("Did you mean %s?", printable.Quote(s[0]))}
	}
	return d
}
