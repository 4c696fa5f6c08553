package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxBytes bounds the size of a policy Load reads.
const MaxBytes = 64 << 20

// LoadError is a policy that was refused: missing, unreadable, truncated,
// tampered with, or of a version this runtime does not read.
type LoadError struct {
	Source string
	Reason string
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("policy %s refused: %s", e.Source, e.Reason)
}

// Load reads and verifies a policy file.
func Load(path string) (*Policy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &LoadError{Source: path, Reason: unwrapPath(err).Error()}
	}
	defer func() { _ = f.Close() }()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, &LoadError{Source: path, Reason: unwrapPath(err).Error()}
	}
	return Parse(path, data)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Parse verifies a policy's bytes and builds its decision index. The
// policy is refused whole, never half loaded: a wrong policy_version, a
// digest that does not match the content, a field of the wrong type or an
// unknown one, or a reference to an agent or toolset the document does not
// define.
func Parse(source string, data []byte) (*Policy, error) {
	refuse := func(format string, args ...any) (*Policy, error) {
		return nil, &LoadError{Source: source, Reason: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxBytes {
		return refuse("it is larger than %d MiB", MaxBytes>>20)
	}
	var head struct {
		Version *json.RawMessage `json:"policy_version"`
		Digest  *string          `json:"digest"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return refuse("it is not a JSON policy document (%v)", err)
	}
	switch {
	case head.Version == nil:
		return refuse("it has no policy_version")
	case string(*head.Version) != fmt.Sprint(Version):
		return refuse("policy_version %s is not supported (this runtime reads %d)", *head.Version, Version)
	case head.Digest == nil || *head.Digest == "":
		return refuse("it has no digest")
	}
	canonical, err := Canonical(data)
	if err != nil {
		return refuse("it is not a JSON policy document (%v)", err)
	}
	if digestOfCanonical(canonical) != *head.Digest {
		return refuse("its digest does not match its content: it was changed after kokua-compile wrote it")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var sealed struct {
		Document
		Digest string `json:"digest"`
	}
	if err := dec.Decode(&sealed); err != nil {
		return refuse("it does not have the policy's shape (%v)", err)
	}
	doc := sealed.Document
	doc.Digest = sealed.Digest
	// Go's decoder forgives what a policy must not have: missing members,
	// null for a list, a name in another case. Written back, such a
	// document differs from its canonical form; a complete one does not.
	if !bytes.Equal(compact(&doc), canonical) {
		return refuse("it does not have the policy's shape: a member is missing, null, or named otherwise than policy.schema.json says")
	}
	p, err := index(&doc)
	if err != nil {
		return refuse("%v", err)
	}
	return p, nil
}
