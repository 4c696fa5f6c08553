package manifest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/printable"
)

// DigestPrefix starts every digest a manifest records: the algorithm, then
// 64 lowercase hexadecimal digits.
const DigestPrefix = "sha256:"

// Canonical writes a JSON value in the one form a digest is taken of: no
// space, every object's members sorted by name (a repeated name keeps its
// last value, as JSON readers do), strings escaped as encoding/json
// escapes them without its HTML escapes, and every rune printable.JSON
// escapes (bidirectional overrides, invisible separators) as a \u escape;
// numbers are kept as written. Two texts that hold the same value, however
// spaced, ordered or escaped, have one canonical form, so that a digest
// changes only when what the model is sent does.
func Canonical(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return printable.JSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// SpecDigest is the digest of a tool's spec: DigestPrefix and the SHA-256
// of the spec's Canonical form.
func SpecDigest(spec []byte) (string, error) {
	c, err := Canonical(spec)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return DigestPrefix + hex.EncodeToString(sum[:]), nil
}

// ToolDigest is one tool as a toolset's digest counts it: its name and
// its spec's digest ("" when the manifest records none).
type ToolDigest struct {
	Name   string
	Digest string
}

// ToolsetDigest is the digest of a toolset's tools, in their order:
// DigestPrefix and the SHA-256 of the compact JSON array of [name, digest]
// pairs. Two lists of the same tools with the same specs in the same order
// have the same digest; a tool added, removed, moved or changed changes it.
func ToolsetDigest(tools []ToolDigest) string {
	pairs := make([][2]string, len(tools))
	for i, t := range tools {
		pairs[i] = [2]string{t.Name, t.Digest}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// An array of string pairs always encodes.
	_ = enc.Encode(pairs)
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return DigestPrefix + hex.EncodeToString(sum[:])
}

// wellFormedDigest reports whether s is DigestPrefix and 64 lowercase
// hexadecimal digits.
func wellFormedDigest(s string) bool {
	hexPart, ok := strings.CutPrefix(s, DigestPrefix)
	return ok && len(hexPart) == 64 && strings.Trim(hexPart, "0123456789abcdef") == ""
}
