// Package tampered builds the corpus of hostile policies the tests of
// package policy, the server and kokua-run share: a valid compiled policy
// changed in one place and, for most, sealed again with the digest of its
// new content, so that only the change is wrong with it. Every case must
// be refused, with the kind of refusal and the reason it names.
package tampered

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/kokua-policy/kokua-policy/policy"
)

// Case is one hostile policy.
type Case struct {
	Name string
	Data []byte
	// Kind is the refusal it must get (errors.Is): policy.ErrShape,
	// policy.ErrTampered or policy.ErrVersion.
	Kind error
	// Reason is a part of the refusal's message.
	Reason string
}

type doc = map[string]any

// edit is a change to a decoded policy.
type edit struct {
	name   string
	change func(d doc)
	reason string
}

func obj(v any, path ...string) doc {
	d := v.(doc)
	for _, p := range path {
		d = d[p].(doc)
	}
	return d
}

func appendTo(d doc, member string, v any) { d[member] = append(d[member].([]any), v) }

// The base policy's names: testdata/compile/skills-on-entry/want.json.
const (
	entry  = "assistant"
	worker = "writer"
)

var edits = []edit{
	{"trust-order-names-a-missing-toolset", func(d doc) { appendTo(d, "trust_order", "ghost") },
		`trust_order[25]: "ghost" is not a member of toolsets`},
	{"trust-order-leaves-a-toolset-out", func(d doc) { d["trust_order"] = d["trust_order"].([]any)[1:] },
		"trust_order: lists 24 toolsets, but toolsets has 25"},
	{"trust-order-repeats-a-toolset", func(d doc) { appendTo(d, "trust_order", "fs") }, `"fs" is listed twice`},
	{"trust-order-null", func(d doc) { d["trust_order"] = nil }, "trust_order: is null"},
	{"resident-names-a-missing-toolset", func(d doc) { appendTo(obj(d, "agents", worker), "resident", "ghost") },
		`agents.writer.resident[2]: "ghost" is not a member of toolsets`},
	{"resident-outside-available", func(d doc) { appendTo(obj(d, "agents", worker), "resident", "fs") },
		`agents.writer.resident[2]: "fs" is not in available.expanded`},
	{"skills-name-a-missing-toolset", func(d doc) { appendTo(obj(d, "agents", entry), "skills", "ghost") },
		`agents.assistant.skills[2]: "ghost" is not a member of toolsets`},
	{"deferred-names-a-missing-toolset", func(d doc) { appendTo(obj(d, "agents", entry), "deferred", "ghost") },
		`agents.assistant.deferred[1]: "ghost" is not a member of toolsets`},
	{"deferred-and-resident", func(d doc) { appendTo(obj(d, "agents", entry), "deferred", "memory") },
		`"memory" is resident too`},
	{"delegate-names-a-missing-agent", func(d doc) { appendTo(obj(d, "agents", entry), "delegates_to", "ghost") },
		`agents.assistant.delegates_to[1]: "ghost" is not a member of agents`},
	{"held-tool-of-a-missing-toolset", func(d doc) {
		obj(d, "agents", worker)["tools"].([]any)[0].(doc)["toolset"] = "ghost"
	}, `agents.writer.tools[0].toolset: "ghost" is neither core nor a member of toolsets`},
	{"expanded-names-a-missing-toolset", func(d doc) {
		a := obj(d, "agents", worker, "available")
		appendTo(a, "expanded", "ghost")
		a["count"] = len(a["expanded"].([]any))
	}, `agents.writer.available.expanded[2]: "ghost" is not a member of toolsets`},
	{"count-disagrees", func(d doc) { obj(d, "agents", worker, "available")["count"] = 7 },
		"agents.writer.available.count: is 7, but expanded lists 2"},
	{"entry-agent-missing", func(d doc) { d["entry_agent"] = "ghost" }, `entry_agent: "ghost" is not a member of agents`},
	{"two-entry-agents", func(d doc) { obj(d, "agents", worker)["entry"] = true }, "agents.writer.entry: is true"},
	{"pending-entry-of-a-missing-toolset", func(d doc) {
		obj(d, "default_tier", "confirm")["entries"].([]any)[0].(doc)["toolset"] = "ghost"
	}, `default_tier.confirm.entries[0].toolset: "ghost" is not a member of toolsets`},
	{"unknown-status", func(d doc) {
		obj(d, "default_tier", "confirm")["entries"].([]any)[0].(doc)["status"] = "maybe"
	}, `default_tier.confirm.entries[0].status: is "maybe"`},
	{"active-floor-with-inactive-entries", func(d doc) {
		obj(d, "auto_approval")["enabled"] = true
		obj(d, "floor")["active"] = true
	}, `floor.list.entries[0].status: is "inactive"`},
	{"floor-active-while-auto-approval-off", func(d doc) { obj(d, "floor")["active"] = true }, "floor.active: is true"},
	{"toolset-tools-null", func(d doc) { obj(d, "toolsets", "fs")["tools"] = nil }, "toolsets.fs.tools: is null"},
	{"toolset-null", func(d doc) { obj(d, "toolsets")["fs"] = nil }, "toolsets.fs: is null"},
	{"agent-null", func(d doc) { obj(d, "agents")[worker] = nil }, "agents.writer: is null"},
	{"agents-null", func(d doc) { d["agents"] = nil }, "agents: is null"},
	{"toolsets-empty", func(d doc) { d["toolsets"] = doc{} }, "is not a member of toolsets"},
	{"resident-null", func(d doc) { obj(d, "agents", worker)["resident"] = nil }, "agents.writer.resident: is null"},
	{"entry-tools-null", func(d doc) {
		obj(d, "default_tier", "confirm")["entries"].([]any)[0].(doc)["tools"] = nil
	}, "default_tier.confirm.entries[0].tools: is null"},
	{"declared-pair-without-lists", func(d doc) { obj(d, "agents", worker, "approval")["source"] = "declared" },
		"agents.writer.approval: is declared, but a list is null"},
	{"unknown-pair-source", func(d doc) { obj(d, "agents", worker, "approval")["source"] = "borrowed" },
		`agents.writer.approval.source: is "borrowed"`},
	{"reserved-toolset-name", func(d doc) {
		ts := obj(d, "toolsets")
		ts["core"] = ts["fs"]
		delete(ts, "fs")
		for i, n := range d["trust_order"].([]any) {
			if n == "fs" {
				d["trust_order"].([]any)[i] = "core"
			}
		}
	}, `toolsets.core: "core" cannot name a toolset`},
	{"dotted-toolset-name", func(d doc) {
		ts := obj(d, "toolsets")
		ts["f.s"] = ts["fs"]
		delete(ts, "fs")
	}, `toolsets["f.s"]: "f.s" cannot name a toolset`},
	{"agent-name-with-a-colon", func(d doc) {
		as := obj(d, "agents")
		as["composed:x"] = as[worker]
		delete(as, worker)
		obj(d, "agents", entry)["delegates_to"] = []any{"composed:x"}
	}, `agents["composed:x"]: "composed:x" cannot name an agent`},
	{"unknown-kind", func(d doc) { obj(d, "toolsets", "fs")["kind"] = "vendor" }, `toolsets.fs.kind: is "vendor"`},
	{"spec-bytes-negative", func(d doc) { obj(d, "toolsets", "fs")["tools"].([]any)[0].(doc)["spec_bytes"] = -1 },
		"toolsets.fs.tools[0].spec_bytes: -1 is not between 0"},
	{"spec-bytes-near-2-63", func(d doc) {
		obj(d, "toolsets", "fs")["tools"].([]any)[0].(doc)["spec_bytes"] = json.Number("9223372036854775000")
	}, "toolsets.fs.tools[0].spec_bytes: 9223372036854775000 is not between 0"},
	{"spec-bytes-beyond-int64", func(d doc) {
		obj(d, "toolsets", "fs")["tools"].([]any)[0].(doc)["spec_bytes"] = json.Number("1e30")
	}, "it does not have the policy's shape"},
	{"core-tool-unknown", func(d doc) { appendTo(d, "core_tools", "sudo") }, `core_tools[4]: "sudo" is not a core tool`},
	{"position-before-line-one", func(d doc) {
		obj(d, "default_tier", "confirm")["entries"].([]any)[0].(doc)["position"].(doc)["line"] = 0
	}, "default_tier.confirm.entries[0].position: is not a range"},
	{"input-digest-not-hex", func(d doc) { obj(d, "inputs", "config")["sha256"] = "nothex" }, "inputs.config.sha256"},
	{"held-tools-one-short", func(d doc) {
		a := obj(d, "agents", worker)
		a["tools"] = a["tools"].([]any)[1:]
	}, "agents.writer.tools: lists 6 tools, but its resident toolsets build 7 at the first turn"},
	{"held-tool-renamed", func(d doc) { obj(d, "agents", worker)["tools"].([]any)[1].(doc)["name"] = "save_document" },
		"agents.writer.tools[1]: is documents.save_document, but its resident toolsets build documents.read_document there"},
	{"held-tool-of-another-toolset", func(d doc) { obj(d, "agents", worker)["tools"].([]any)[4].(doc)["toolset"] = "documents" },
		"agents.writer.tools[4]: is documents.activate_skill, but its resident toolsets build core.activate_skill there"},
	{"default-tier-source-unknown", func(d doc) { obj(d, "default_tier")["source"] = "vendor" },
		`default_tier.source: is "vendor"`},
	{"reviewer-model-source-unknown", func(d doc) { d["reviewers"] = doc{"guard": reviewer("local:tiny-1b", "borrowed")} },
		`reviewers.guard.model_source: is "borrowed"`},
	{"reviewer-builtin-model-with-a-value", func(d doc) { d["reviewers"] = doc{"guard": reviewer("local:tiny-1b", "builtin")} },
		`reviewers.guard.model: is "local:tiny-1b", but model_source is "builtin"`},
	{"toolset-member-inside-a-toolset", func(d doc) {
		obj(d, "toolsets", "fs")["tools"].([]any)[0].(doc)["toolset"] = "fs"
	}, "toolsets.fs.tools[0].toolset: is written inside a toolset"},
}

// reviewer is a reviewers member whose model comes from source.
func reviewer(model, source string) doc {
	return doc{"model": model, "model_source": source, "system_message": "Approve reads only.", "thinking": "", "thinking_source": "builtin",
		"generation": "", "position": doc{"line": 1, "column": 1, "end_line": 1, "end_column": 2}}
}

// Corpus returns the hostile policies made from valid, a valid policy
// compiled from testdata/compile/skills-on-entry (whose agent and toolset
// names the cases use).
func Corpus(valid []byte) ([]Case, error) {
	var cases []Case
	for _, e := range edits {
		data, err := Resealed(valid, e.change)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.name, err)
		}
		cases = append(cases, Case{Name: e.name, Data: data, Kind: policy.ErrShape, Reason: e.reason})
	}
	// Cases that cannot be sealed: a repeated member has no canonical
	// form, so no digest makes it valid.
	for _, dup := range []struct{ name, at, insert, reason string }{
		{"repeated-top-member", `"compiler":`, `"entry_agent": "writer", `, `"entry_agent" is repeated`},
		{"repeated-agent-member", `"alerts":`, `"entry": false, "entry": true, `, `"entry" is repeated`},
		{"repeated-tool-member", `"name":`, `"n\u0061me": "x", `, `"name" is repeated`},
		{"repeated-digest", `"compiler":`, `"digest": "sha256:00", `, `"digest" is repeated`},
	} {
		i := bytes.Index(valid, []byte(dup.at))
		if i < 0 {
			return nil, fmt.Errorf("%s: the base policy has no %s", dup.name, dup.at)
		}
		data := append(append(bytes.Clone(valid[:i]), dup.insert...), valid[i:]...)
		cases = append(cases, Case{Name: dup.name, Data: data, Kind: policy.ErrShape, Reason: dup.reason})
	}
	changed, err := edited(valid, func(d doc) { appendTo(d, "trust_order", "ghost") })
	if err != nil {
		return nil, err
	}
	cases = append(cases,
		Case{Name: "changed-without-a-new-digest", Data: changed, Kind: policy.ErrTampered, Reason: "its digest does not match"},
		Case{Name: "version-2", Data: bytes.Replace(valid, []byte(`"policy_version": 1`), []byte(`"policy_version": 2`), 1),
			Kind: policy.ErrVersion, Reason: "policy_version 2 is not supported"},
		Case{Name: "truncated", Data: valid[:len(valid)/2], Kind: policy.ErrShape, Reason: "not a JSON policy document"},
	)
	return cases, nil
}

// edited decodes a policy, numbers kept as written, and writes it back
// changed, with its digest as it was.
func edited(data []byte, change func(d doc)) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var d doc
	if err := dec.Decode(&d); err != nil {
		return nil, err
	}
	change(d)
	return json.Marshal(d)
}

// Resealed changes a policy and seals it again: its digest is set to the
// one its new content has, so that a loader that only checked the digest
// would accept it.
func Resealed(data []byte, change func(d map[string]any)) ([]byte, error) {
	out, err := edited(data, change)
	if err != nil {
		return nil, err
	}
	digest, err := policy.DigestOf(out)
	if err != nil {
		return nil, err
	}
	return edited(out, func(d doc) { d["digest"] = digest })
}
