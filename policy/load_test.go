package policy_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/policy"
)

// shippedPolicy is the golden policy of the shipped config.
func shippedPolicy(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "compile", "shipped", "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// edited decodes a policy, changes it, and writes it back with the digest
// of its new content, so that only the change is wrong with it.
func edited(t *testing.T, data []byte, change func(d map[string]any)) []byte {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	change(d)
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	digest, err := policy.DigestOf(out)
	if err != nil {
		t.Fatal(err)
	}
	d["digest"] = digest
	if out, err = json.Marshal(d); err != nil {
		t.Fatal(err)
	}
	return out
}

// withDigest is a policy with its digest member set to digest, or taken
// out when digest is nil.
func withDigest(t *testing.T, data []byte, digest any) []byte {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	d["digest"] = digest
	if digest == nil {
		delete(d, "digest")
	}
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func agent(d map[string]any, name string) map[string]any {
	return d["agents"].(map[string]any)[name].(map[string]any)
}

var kinds = []error{policy.ErrTampered, policy.ErrVersion, policy.ErrShape, fs.ErrNotExist}

// TestLoadErrors: each refusal is a *LoadError that names the file, says
// why as before, and is errors.Is its kind and no other kind.
func TestLoadErrors(t *testing.T) {
	good := shippedPolicy(t)
	if _, err := policy.Parse("good", good); err != nil {
		t.Fatalf("the unchanged policy is refused: %v", err)
	}
	dir := t.TempDir()
	cases := []struct {
		name string
		data []byte // nil: no such file
		kind error
		msg  string
	}{
		{"missing", nil, fs.ErrNotExist, "no such file or directory"},
		{"tampered", bytes.Replace(good, []byte(`"max_per_turn": 5`), []byte(`"max_per_turn": 6`), 1), policy.ErrTampered,
			"its digest does not match its content"},
		{"digest changed", bytes.Replace(good, []byte(`"digest": "sha256:`), []byte(`"digest": "sha256:0`), 1), policy.ErrTampered,
			"its digest does not match its content"},
		{"version 2", bytes.Replace(good, []byte(`"policy_version": 1`), []byte(`"policy_version": 2`), 1), policy.ErrVersion,
			"policy_version 2 is not supported"},
		{"version 1.0", bytes.Replace(good, []byte(`"policy_version": 1`), []byte(`"policy_version": 1.0`), 1), policy.ErrVersion,
			"policy_version 1.0 is not supported"},
		{"version as a string", edited(t, good, func(d map[string]any) { d["policy_version"] = "1" }), policy.ErrVersion,
			`policy_version "1" is not supported`},
		{"truncated", good[:len(good)/2], policy.ErrShape, "not a JSON policy document"},
		{"empty", []byte{}, policy.ErrShape, "not a JSON policy document"},
		{"not JSON", []byte("policy_version = 1\n"), policy.ErrShape, "not a JSON policy document"},
		{"null", []byte("null"), policy.ErrShape, "not a JSON policy document"},
		{"an array", []byte("[]"), policy.ErrShape, "not a JSON policy document"},
		{"data after the object", append(bytes.Clone(good), "{}"...), policy.ErrShape, "not a JSON policy document"},
		{"no version", edited(t, good, func(d map[string]any) { delete(d, "policy_version") }), policy.ErrShape,
			"it has no policy_version"},
		{"no digest", withDigest(t, good, nil), policy.ErrShape, "it has no digest"},
		{"empty digest", withDigest(t, good, ""), policy.ErrShape, "it has no digest"},
		{"digest not a string", withDigest(t, good, 1), policy.ErrShape, "it has no digest"},
		{"missing member", edited(t, good, func(d map[string]any) { delete(d, "default_tier") }), policy.ErrShape,
			"a member is missing, null, or named otherwise"},
		{"missing member of an agent", edited(t, good, func(d map[string]any) { delete(agent(d, "coder"), "approval") }),
			policy.ErrShape, "a member is missing, null, or named otherwise"},
		{"null object", edited(t, good, func(d map[string]any) { d["floor"] = nil }), policy.ErrShape,
			"a member is missing, null, or named otherwise"},
		{"member in another case", edited(t, good, func(d map[string]any) { d["Compiler"] = d["compiler"]; delete(d, "compiler") }),
			policy.ErrShape, "a member is missing, null, or named otherwise"},
		{"wrong type", edited(t, good, func(d map[string]any) { d["compiler"] = 3 }), policy.ErrShape,
			"it does not have the policy's shape"},
		{"unknown member", edited(t, good, func(d map[string]any) { d["comment"] = "hand-edited" }), policy.ErrShape,
			"it does not have the policy's shape"},
		{"unknown entry agent", edited(t, good, func(d map[string]any) { d["entry_agent"] = "ghost" }), policy.ErrShape,
			`entry_agent: "ghost" is not a member of agents`},
		{"undefined deferred toolset", edited(t, good, func(d map[string]any) { agent(d, "assistant")["deferred"] = []any{"ghost"} }),
			policy.ErrShape, `agents.assistant.deferred[0]: "ghost" is not a member of toolsets`},
		{"too large", bytes.Repeat([]byte(" "), policy.MaxBytes+1), policy.ErrShape, "it is larger than 64 MiB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if c.data != nil {
				if err := os.WriteFile(path, c.data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p, err := policy.Load(path)
			if p != nil || err == nil {
				t.Fatalf("Load accepted the policy")
			}
			var le *policy.LoadError
			if !errors.As(err, &le) || le.Source != path {
				t.Errorf("Load returned %T %v, want a *LoadError naming %s", err, err, path)
			}
			if !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), path) {
				t.Errorf("the message %q does not name the file and say %q", err, c.msg)
			}
			for _, kind := range kinds {
				if got, want := errors.Is(err, kind), errors.Is(c.kind, kind); got != want {
					t.Errorf("errors.Is(err, %v) = %v (err: %v)", kind, got, err)
				}
			}
		})
	}
}

// TestLoadUnreadable: a file that cannot be read is refused with the read
// error, reachable through the LoadError, and no refusal kind.
func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	_, err := policy.Load(dir) // a folder opens but does not read
	var pe *fs.PathError
	if err == nil || !errors.As(err, &pe) {
		t.Fatalf("Load(a folder) = %v, want the *fs.PathError of the read", err)
	}
	for _, kind := range kinds {
		if errors.Is(err, kind) {
			t.Errorf("reading a folder is reported as %v", kind)
		}
	}
}
