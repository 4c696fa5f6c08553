package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// DigestPrefix starts every policy digest.
const DigestPrefix = "sha256:"

// Canonical returns the canonical form of a policy document given as JSON:
// the digest member removed, object keys sorted by their bytes, no white
// space, numbers as written, and strings escaped as encoding/json writes
// them with HTML escaping off. The digest is the SHA-256 of this form, so
// reformatting a policy file does not change it, and any other change does.
func Canonical(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("unexpected data after the policy object")
	}
	delete(v, "digest")
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // maps marshal with sorted keys
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// DigestOf returns the digest of a policy document given as JSON.
func DigestOf(doc []byte) (string, error) {
	c, err := Canonical(doc)
	if err != nil {
		return "", err
	}
	return digestOfCanonical(c), nil
}

func digestOfCanonical(c []byte) string {
	sum := sha256.Sum256(c)
	return DigestPrefix + hex.EncodeToString(sum[:])
}

// Marshal writes the document as indented JSON with its digest set, the
// form kokua-compile writes.
func Marshal(d *Document) ([]byte, error) {
	d.Digest = ""
	raw, err := encode(d)
	if err != nil {
		return nil, err
	}
	digest, err := DigestOf(raw)
	if err != nil {
		return nil, fmt.Errorf("policy digest: %w", err)
	}
	d.Digest = digest
	return encode(d)
}

func encode(d *Document) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
