package policy_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/policy"
)

// FuzzParse feeds policy.Parse arbitrary bytes, seeded with every golden
// policy: it must never panic, and a policy it accepts must answer and
// hold sessions without panicking either; a refusal is of exactly one
// kind (ErrTampered, ErrVersion or ErrShape). Fuzzed bytes rarely keep a valid
// digest, so each input is also parsed resealed, its digest recomputed,
// to reach the checks behind verification.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "compile", "*", "want.json"))
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"policy_version": 1, "digest": "sha256:00"}`))
	f.Add([]byte(`{"policy_version": 2}`))
	f.Add([]byte("\x00\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		exercise(t, data)
		if resealed, ok := reseal(data); ok {
			exercise(t, resealed)
		}
	})
}

// reseal sets a document's digest to the one its content has.
func reseal(data []byte) ([]byte, bool) {
	digest, err := policy.DigestOf(data)
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if dec.Decode(&doc) != nil || doc == nil {
		return nil, false
	}
	doc["digest"] = digest
	out, err := json.Marshal(doc)
	return out, err == nil
}

// exercise parses a document and, if it is accepted, asks it everything.
func exercise(t *testing.T, data []byte) {
	p, err := policy.Parse("fuzz", data)
	if err != nil {
		if strings.Contains(err.Error(), "internal error") {
			t.Fatalf("Parse panicked: %v", err)
		}
		var le *policy.LoadError
		if !errors.As(err, &le) {
			t.Fatalf("Parse returned %T, not a *LoadError: %v", err, err)
		}
		kinds := 0
		for _, kind := range []error{policy.ErrTampered, policy.ErrVersion, policy.ErrShape} {
			if errors.Is(err, kind) {
				kinds++
			}
		}
		if kinds != 1 {
			t.Fatalf("the refusal is of %d kinds, not one: %v", kinds, err)
		}
		return
	}
	query(t, p)
}
