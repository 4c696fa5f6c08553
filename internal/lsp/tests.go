package lsp

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/diff"
	"github.com/kokua-policy/kokua-policy/internal/engine"
	"github.com/kokua-policy/kokua-policy/internal/expect"
	"github.com/kokua-policy/kokua-policy/kokua"
	"github.com/kokua-policy/kokua-policy/lint"
	"github.com/kokua-policy/kokua-policy/policy"
)

// A policy test file (kokua.test.toml, or any *.test.toml: see
// docs/policy-tests.md) is checked against the config.toml beside it: the
// open document of that name when there is one, else the file. Its
// diagnostics are the test file's own mistakes, and each selector that
// matches nothing in that config's policy; completion offers the config's
// agents, tools and toolsets, and the decisions.

// isTestFile reports whether a document is a policy test file.
func isTestFile(name string) bool {
	return strings.HasSuffix(filepath.Base(name), ".test.toml")
}

// configBeside is the config a test file is checked against, compiled
// with the server's manifest; nil when there is none, or it has errors.
// The caller holds mu.
func (s *server) configBeside(d *document) *policy.Policy {
	path := filepath.Join(filepath.Dir(d.name), "config.toml")
	var data []byte
	for _, o := range s.docs {
		if o.name == path {
			data = []byte(o.text.s)
		}
	}
	if data == nil {
		src, err := lint.ReadFile(path)
		if err != nil {
			return nil
		}
		data = src.Data
	}
	side, _, err := diff.Load(lint.Source{Name: path, Data: data}, s.manifest, nil)
	if err != nil || side == nil {
		return nil
	}
	return side.Policy
}

// retest checks again the open test files beside a config that was just
// linted: their selectors are checked against it. The caller holds mu.
func (s *server) retest(d *document) {
	if filepath.Base(d.name) != "config.toml" {
		return
	}
	for _, o := range s.docs {
		if isTestFile(o.name) && filepath.Dir(o.name) == filepath.Dir(d.name) {
			s.publish(o.uri, o.version, s.diagnoseTests(o))
		}
	}
}

// diagnoseTests checks a test file: its parse, then its selectors against
// the policy of the config beside it.
func (s *server) diagnoseTests(d *document) []Diagnostic {
	d.linted, d.kokua = &engine.Linted{}, true
	f, ds := expect.Parse(d.name, []byte(d.text.s))
	if p := s.configBeside(d); p != nil {
		d.policy = p
		if f != nil {
			ds = append(ds, expect.Selectors(p, f)...)
		}
	}
	d.linted.Diagnostics = ds
	out := make([]Diagnostic, 0, len(ds))
	for _, x := range ds {
		pd := s.toProtocol(d, x)
		pd.CodeDescription = nil // the test file's rules have no page of their own
		out = append(out, pd)
	}
	return out
}

// completeTests completes a value of an [[expect]] table: agents, tools,
// decisions, toolsets for loaded; or its keys.
func (s *server) completeTests(d *document, at place, replace Range, list *CompletionList) {
	add := func(name string, kind CompletionItemKind, detail string) {
		list.Items = append(list.Items, CompletionItem{Label: name, Kind: kind, Detail: detail,
			FilterText: name, TextEdit: &TextEdit{Range: replace, NewText: name}})
	}
	if at.atKey {
		if len(at.table) == 1 && at.table[0] == "expect" {
			for _, k := range expect.Keys {
				add(k, KindProperty, "a key of [[expect]] (docs/policy-tests.md)")
			}
		}
		return
	}
	if len(at.table) != 1 || at.table[0] != "expect" || len(at.key) != 1 || at.quote == 0 {
		return
	}
	if at.key[0] == "decision" {
		for _, w := range expect.Words() {
			add(w, KindEnumMember, "a decision the claim accepts")
		}
		return
	}
	p := d.policy
	if p == nil {
		return
	}
	doc := p.Document()
	switch at.key[0] {
	case "agent":
		add(expect.Every, KindValue, "every declared agent")
		if doc.Composed.Possible {
			add(expect.Composed, KindValue, "composed workers (the default tier)")
		}
		for _, name := range sortedKeys(doc.Agents) {
			add(name, KindClass, "a declared agent")
		}
	case "tool":
		add(expect.Every, KindValue, "every tool of the registry")
		for _, t := range doc.CoreTools {
			add(kokua.Core+"."+t, KindFunction, "a core tool")
		}
		for _, ts := range doc.TrustOrder {
			add(ts, KindModule, "every tool of "+ts)
			if doc.Toolsets[ts] == nil {
				continue
			}
			for _, t := range doc.Toolsets[ts].Tools {
				add(ts+"."+t.Name, KindFunction, "a tool of "+ts)
			}
		}
	case "loaded":
		for _, ts := range doc.TrustOrder {
			add(ts, KindModule, "a toolset the session has loaded")
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
