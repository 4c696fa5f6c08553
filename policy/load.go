package policy

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
// errors.Is and errors.As see through it: ErrTampered, ErrVersion,
// ErrShape or ErrSignature, or the error of opening or reading the file.
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
	data, err := read(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// read reads a policy file, and no more than one byte over MaxBytes.
func read(path string) ([]byte, error) {
	data, err := readRegular(path, MaxBytes)
	switch {
	case errors.Is(err, errNotRegular):
		return nil, &LoadError{Source: path, Reason: errNotRegular.Error() + ", so it is not read", Err: err}
	case err != nil:
		return nil, &LoadError{Source: path, Reason: unwrapPath(err).Error(), Err: err}
	}
	return data, nil
}

// errNotRegular is what readRegular refuses a named pipe, a device or a
// directory with.
var errNotRegular = errors.New("it is not a regular file (a named pipe, a device or a directory)")

// readRegular reads a file, and no more than one byte over limit. What is
// not a regular file is refused by its status, without being opened:
// opening a named pipe would block until something writes to it.
//
// The buffer is sized from the file's status, so a file of 60 MB is read
// into one allocation of its size; io.ReadAll would grow its buffer step
// by step, allocating and copying about twice the file. A file that grows
// while it is read still stops one byte over limit.
func readRegular(path string, limit int64) ([]byte, error) {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errNotRegular}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var buf bytes.Buffer
	if info, err := f.Stat(); err == nil {
		// Room past the file's size, to read its end without growing.
		buf.Grow(int(min(max(info.Size(), 0), limit) + bytes.MinRead))
	}
	_, err = buf.ReadFrom(io.LimitReader(f, limit+1))
	return buf.Bytes(), err
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
//
// A panic while verifying or indexing, which would be a bug of this
// package that Validate missed, is a refusal too (ErrShape, the reason
// starting "internal error"): a bad file can only ever be refused.
func Parse(source string, data []byte) (*Policy, error) { return parse(source, data, nil) }

// parse is Parse, and with a key ParseVerified: the signature is checked
// once the digest is, before the document is decoded.
func parse(source string, data []byte, key ed25519.PublicKey) (p *Policy, err error) {
	refuse := func(kind error, format string, args ...any) error {
		return &LoadError{Source: source, Reason: fmt.Sprintf(format, args...), Err: kind}
	}
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, refuse(ErrShape, "internal error while loading it: %v", r)
		}
	}()
	if len(data) > MaxBytes {
		return nil, refuse(ErrShape, "it is larger than %d MiB", MaxBytes>>20)
	}
	s, err := seal(data)
	if err != nil {
		return nil, refuse(ErrShape, "it is not a JSON policy document (%v)", err)
	}
	if s.version == nil {
		return nil, refuse(ErrShape, "it has no policy_version")
	}
	if string(s.version) != strconv.Itoa(Version) {
		return nil, refuse(ErrVersion, "policy_version %s is not supported (this runtime reads %d)", s.version, Version)
	}
	var digest string
	if s.stored == nil || json.Unmarshal(s.stored, &digest) != nil || digest == "" {
		return nil, refuse(ErrShape, "it has no digest")
	}
	if s.digest != digest {
		return nil, refuse(ErrTampered, "its digest does not match its content: it was changed after kokua-compile wrote it")
	}
	if key != nil {
		if why := verify(s, key); why != "" {
			return nil, refuse(ErrSignature, "%s", why)
		}
	}
	// json.Unmarshal decodes in place; a json.Decoder, which alone can
	// refuse unknown members, first copies the whole input into a buffer
	// it grows by doubling (twice the size of a large policy, allocated
	// and copied). The canonical form written back, below, refuses unknown
	// members anyway, and strict names the first one when it does. The
	// signature member is outside the canonical form, so strict reads it.
	var doc Document
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, refuse(ErrShape, "it does not have the policy's shape (%v)", err)
	}
	if s.signature != nil {
		if err := strict(s.signature, new(*Signature)); err != nil {
			return nil, refuse(ErrShape, "it does not have the policy's shape (%v)", err)
		}
	}
	// Go's decoder forgives what a policy must not have: a missing member,
	// null for an object or a string, a name in another case, a member it
	// does not know. Written back and sealed again, such a document has
	// another canonical form; a complete one has the same.
	raw, err := json.Marshal(&doc)
	if err != nil {
		return nil, refuse(ErrShape, "it does not have the policy's shape (%v)", err)
	}
	if back, err := seal(raw); err != nil || !bytes.Equal(back.canonical, s.canonical) {
		if err := strict(data, new(Document)); err != nil {
			return nil, refuse(ErrShape, "it does not have the policy's shape (%v)", err)
		}
		return nil, refuse(ErrShape, "it does not have the policy's shape: a member is missing, null, or named otherwise than policy.schema.json says")
	}
	if why := checkSignatureShape(s, doc.Signature); why != "" {
		return nil, refuse(ErrShape, "%s", why)
	}
	if err := doc.Validate(); err != nil {
		return nil, refuse(ErrShape, "%v", err)
	}
	if p, err = index(&doc); err != nil {
		return nil, refuse(ErrShape, "%v", err)
	}
	return p, nil
}

// strict decodes JSON into v refusing unknown members, to name the first
// one in the reason of a refusal.
func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
