package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// MaxBytes bounds the size of a policy Load reads.
const MaxBytes = 64 << 20

// The kinds of refusal a host can test for with errors.Is on the error
// Load or Parse returns. A policy file that does not exist gives an error
// that is fs.ErrNotExist too, and one that cannot be read the error of the
// read (fs.ErrPermission, for instance).
var (
	// ErrTampered: the digest does not match the content, so the document
	// was changed after kokua-compile wrote it.
	ErrTampered = errors.New("the policy's digest does not match its content")
	// ErrVersion: policy_version is not the one this package reads.
	ErrVersion = errors.New("the policy's version is not supported")
	// ErrShape: the bytes are not a policy document: not JSON, truncated,
	// larger than MaxBytes, a member missing, null, of the wrong type or
	// unknown, or a reference to an agent or toolset it does not define.
	ErrShape = errors.New("the policy does not have the policy document's shape")
)

// LoadError is a policy that was refused: missing, unreadable, truncated,
// tampered with, or of a version this runtime does not read. Err is what
// errors.Is and errors.As see through it: ErrTampered, ErrVersion or
// ErrShape, or the error of opening or reading the file.
type LoadError struct {
	Source string
	Reason string
	Err    error
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("policy %s refused: %s", e.Source, e.Reason)
}

// Unwrap returns the kind of refusal, or the error of the file system.
func (e *LoadError) Unwrap() error { return e.Err }

// Load reads and verifies a policy file.
func Load(path string) (*Policy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &LoadError{Source: path, Reason: unwrapPath(err).Error(), Err: err}
	}
	defer func() { _ = f.Close() }()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, &LoadError{Source: path, Reason: unwrapPath(err).Error(), Err: err}
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
// digest that does not match the content, a member missing, null where
// the document never has null, of the wrong type or unknown, or a
// reference to an agent or toolset the document does not define.
func Parse(source string, data []byte) (*Policy, error) {
	refuse := func(kind error, format string, args ...any) (*Policy, error) {
		return nil, &LoadError{Source: source, Reason: fmt.Sprintf(format, args...), Err: kind}
	}
	if len(data) > MaxBytes {
		return refuse(ErrShape, "it is larger than %d MiB", MaxBytes>>20)
	}
	s, err := seal(data)
	if err != nil {
		return refuse(ErrShape, "it is not a JSON policy document (%v)", err)
	}
	if s.version == nil {
		return refuse(ErrShape, "it has no policy_version")
	}
	if string(s.version) != strconv.Itoa(Version) {
		return refuse(ErrVersion, "policy_version %s is not supported (this runtime reads %d)", s.version, Version)
	}
	var digest string
	if s.stored == nil || json.Unmarshal(s.stored, &digest) != nil || digest == "" {
		return refuse(ErrShape, "it has no digest")
	}
	if s.digest != digest {
		return refuse(ErrTampered, "its digest does not match its content: it was changed after kokua-compile wrote it")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc Document
	if err := dec.Decode(&doc); err != nil {
		return refuse(ErrShape, "it does not have the policy's shape (%v)", err)
	}
	// Go's decoder forgives what a policy must not have: a missing member,
	// null for an object or a string, a name in another case. Written back
	// and sealed again, such a document has another canonical form; a
	// complete one has the same.
	raw, err := json.Marshal(&doc)
	if err != nil {
		return refuse(ErrShape, "it does not have the policy's shape (%v)", err)
	}
	if back, err := seal(raw); err != nil || !bytes.Equal(back.canonical, s.canonical) {
		return refuse(ErrShape, "it does not have the policy's shape: a member is missing, null, or named otherwise than policy.schema.json says")
	}
	p, err := index(&doc)
	if err != nil {
		return refuse(ErrShape, "%v", err)
	}
	return p, nil
}
