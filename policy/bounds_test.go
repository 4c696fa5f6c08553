package policy_test

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/tampered"
	"github.com/kokua-policy/kokua-policy/policy"
)

// member walks a decoded policy: object members by name, array elements
// by "0", "1", ...
func member(t *testing.T, v any, path ...string) map[string]any {
	t.Helper()
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[p]
		case []any:
			v = x[p[0]-'0']
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%v is not an object in the base policy", path)
	}
	return m
}

// TestValidateBoundaries edits one field of a valid policy at a time, to
// the last value accepted and the first refused on each side: the input
// digests' length and alphabet, a tool's spec_bytes, an entry's position,
// an agent's tool block, and the default tier's source (each value it may
// take, and one it may not). Each edit is sealed again, so only
// validation can refuse it.
func TestValidateBoundaries(t *testing.T) {
	base := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "compile", name, "want.json"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	hex := strings.Repeat("0", 16) + strings.Repeat("9", 16) + strings.Repeat("a", 16) + strings.Repeat("f", 16)
	digest := func(s string) func(*testing.T, map[string]any) {
		return func(t *testing.T, d map[string]any) { member(t, d, "inputs", "config")["sha256"] = s }
	}
	specBytes := func(n int) func(*testing.T, map[string]any) {
		return func(t *testing.T, d map[string]any) {
			member(t, d, "toolsets", "aimu_agents", "tools", "0")["spec_bytes"] = n
		}
	}
	position := func(line, column, endLine, endColumn int) func(*testing.T, map[string]any) {
		return func(t *testing.T, d map[string]any) {
			p := member(t, d, "default_tier", "confirm", "entries", "0", "position")
			p["line"], p["column"], p["end_line"], p["end_column"] = line, column, endLine, endColumn
		}
	}
	toolBlock := func(field string, n int) func(*testing.T, map[string]any) {
		return func(t *testing.T, d map[string]any) { member(t, d, "agents", "assistant", "tool_block")[field] = n }
	}
	for _, c := range []struct {
		name, base string
		edit       func(*testing.T, map[string]any)
		ok         bool
	}{
		{"sha256 of 0-9 and a-f", "skills-on-entry", digest(hex), true},
		{"sha256 of 63 digits", "skills-on-entry", digest(hex[1:]), false},
		{"sha256 of 65 digits", "skills-on-entry", digest(hex + "0"), false},
		{"sha256 with / (before 0)", "skills-on-entry", digest("/" + hex[1:]), false},
		{"sha256 with : (after 9)", "skills-on-entry", digest(":" + hex[1:]), false},
		{"sha256 with ` (before a)", "skills-on-entry", digest("`" + hex[1:]), false},
		{"sha256 with g (after f)", "skills-on-entry", digest("g" + hex[1:]), false},
		{"sha256 with an upper-case A", "skills-on-entry", digest("A" + hex[1:]), false},
		{"spec_bytes 0", "skills-on-entry", specBytes(0), true},
		{"spec_bytes -1", "skills-on-entry", specBytes(-1), false},
		{"spec_bytes MaxSpecBytes", "skills-on-entry", specBytes(policy.MaxSpecBytes), true},
		{"spec_bytes MaxSpecBytes+1", "skills-on-entry", specBytes(policy.MaxSpecBytes + 1), false},
		{"a one-character position at 1:1", "skills-on-entry", position(1, 1, 1, 1), true},
		{"line 0", "skills-on-entry", position(0, 1, 1, 1), false},
		{"column 0", "skills-on-entry", position(1, 0, 1, 1), false},
		{"an end line before the line", "skills-on-entry", position(2, 1, 1, 5), false},
		{"an end column before the column on one line", "skills-on-entry", position(1, 2, 1, 1), false},
		{"an end column before the column on a later line", "skills-on-entry", position(1, 9, 2, 1), true},
		{"default_tier.source builtin", "skills-on-entry", func(t *testing.T, d map[string]any) { member(t, d, "default_tier")["source"] = "builtin" }, true},
		{"default_tier.source declared", "skills-on-entry", func(t *testing.T, d map[string]any) { member(t, d, "default_tier")["source"] = "declared" }, true},
		{"default_tier.source inherited", "skills-on-entry", func(t *testing.T, d map[string]any) { member(t, d, "default_tier")["source"] = "inherited" }, false},
		{"a tool block of zeros", "tool-block", func(t *testing.T, d map[string]any) {
			for _, f := range []string{"resident_bytes", "resident_tools", "all_resident_bytes", "all_resident_tools"} {
				toolBlock(f, 0)(t, d)
			}
		}, true},
		{"resident_bytes -1", "tool-block", toolBlock("resident_bytes", -1), false},
		{"resident_tools -1", "tool-block", toolBlock("resident_tools", -1), false},
		{"all_resident_bytes -1", "tool-block", toolBlock("all_resident_bytes", -1), false},
		{"all_resident_tools -1", "tool-block", toolBlock("all_resident_tools", -1), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := tampered.Resealed(base(c.base), func(d map[string]any) { c.edit(t, d) })
			if err != nil {
				t.Fatal(err)
			}
			_, err = policy.Parse(c.name, data)
			switch {
			case c.ok && err != nil:
				t.Errorf("refused: %v", err)
			case !c.ok && err == nil:
				t.Error("accepted")
			case !c.ok && !errors.Is(err, policy.ErrShape):
				t.Errorf("refused, but not as ErrShape: %v", err)
			}
		})
	}
}

// TestSignatureLength: a signature member must hold 64 bytes of standard
// base64 whether or not the host verifies it; 63 or 65 bytes are refused
// by a host that does not verify, and by one that does.
func TestSignatureLength(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("..", "testdata", "compile", "shipped", "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{63, 64, 65} {
		data, err := tampered.Resealed(base, func(d map[string]any) {
			d["signature"] = map[string]any{"ed25519": base64.StdEncoding.EncodeToString(make([]byte, n)), "key_id": "ed25519:abc"}
		})
		if err != nil {
			t.Fatal(err)
		}
		_, err = policy.Parse("unverified", data)
		if n == 64 && err != nil {
			t.Errorf("a 64-byte signature, not verified, is refused: %v", err)
		}
		if n != 64 && (err == nil || !strings.Contains(err.Error(), "64 bytes")) {
			t.Errorf("a %d-byte signature, not verified: %v, want a refusal saying it is not 64 bytes", n, err)
		}
	}
}
