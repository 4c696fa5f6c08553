package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
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

// Marshal writes the document the way kokua-compile does: indented two
// spaces a level, an object or list of scalars on one line (a tool, a
// position, a few names), every member in sorted order and the digest
// last. The document types declare their fields in the order of their
// JSON names, so their compact encoding is already the canonical form;
// one pass writes it, to digest, and the layout beside it, without
// decoding anything.
func Marshal(d *Document) ([]byte, error) {
	hint := sizeHint(d)
	e := enc{b: make([]byte, 0, hint), p: make([]byte, 0, 2*hint), pretty: true}
	e.document(d)
	d.Digest = digestOfCanonical(e.b)
	out := e.p[:len(e.p)-len("\n}")] // the digest goes before the closing brace
	out = append(out, ",\n  \"digest\": \""...)
	out = append(out, d.Digest...)
	return append(out, "\"\n}\n"...), nil
}

// margin is a new line and the indentation of up to 64 levels.
var margin = "\n" + strings.Repeat("  ", 64)

func appendMargin(out []byte, depth int) []byte {
	for depth > 64 {
		out = append(out, margin[1:]...)
		depth -= 64
	}
	return append(out, margin[:1+2*depth]...)
}

// sizeHint guesses the compact size of a document from what it holds, so
// that a large policy is not copied over and over as its buffer grows.
func sizeHint(d *Document) int {
	n := 4 << 10
	for _, a := range d.Agents {
		if a != nil {
			n += 800 + 60*len(a.Tools) + 20*(2*len(a.Available.Expanded)+len(a.Resident)+len(a.Deferred))
		}
	}
	for _, t := range d.Toolsets {
		if t != nil {
			n += 120 + 40*len(t.Tools)
		}
	}
	return n
}

// compact encodes a document without white space and without its digest:
// its canonical form.
func compact(d *Document) []byte {
	e := enc{b: make([]byte, 0, sizeHint(d))}
	e.document(d)
	return e.b
}
