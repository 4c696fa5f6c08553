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

// Marshal writes the document the way kokua-compile does: indented, with
// every member in sorted order and the digest last. The document types
// declare their fields in the order of their JSON names, so their compact
// encoding is already the canonical form; Marshal digests it and adds the
// digest, without decoding anything.
func Marshal(d *Document) ([]byte, error) {
	canonical := compact(d)
	d.Digest = digestOfCanonical(canonical)
	sealed := make([]byte, 0, len(canonical)+len(d.Digest)+16)
	sealed = append(sealed, canonical[:len(canonical)-1]...) // drop the closing brace
	sealed = append(sealed, `,"digest":"`...)
	sealed = append(sealed, d.Digest...)
	sealed = append(sealed, `"}`...)
	return indent(sealed), nil
}

// indent lays out compact JSON written by encoding/json, two spaces a
// level as json.Indent does, except that an object or array holding no
// other, up to maxInline bytes, stays on one line (a tool, a position, a
// short list of names). One plain pass copies whole runs: its input is
// known to be valid and to hold no white space outside strings.
func indent(src []byte) []byte {
	out := make([]byte, 0, 2*len(src)+64)
	depth := 0
	for i := 0; i < len(src); {
		j := i
		for j < len(src) && !structural[src[j]] {
			j++
		}
		out = append(out, src[i:j]...)
		if j == len(src) {
			break
		}
		c := src[j]
		i = j + 1
		switch c {
		case '"':
			end := stringEnd(src, j)
			out = append(out, src[j:end]...)
			i = end
		case '{', '[':
			if end := leafEnd(src, j); end > 0 {
				// An object or array holding no other stays on one line.
				out = appendInline(out, src[j:end])
				i = end
				continue
			}
			depth++
			out = append(out, c)
			out = appendMargin(out, depth)
		case '}', ']':
			depth--
			out = appendMargin(out, depth)
			out = append(out, c)
		case ',':
			out = append(out, c)
			out = appendMargin(out, depth)
		case ':':
			out = append(out, ':', ' ')
		}
	}
	return append(out, '\n')
}

// maxInline bounds the compact length of an object or array written on
// one line.
const maxInline = 100

// leafEnd returns the offset just past the object or array that opens at
// i when it holds no object or array and is short enough for one line, or
// 0.
func leafEnd(src []byte, i int) int {
	limit := min(len(src), i+maxInline)
	for j := i + 1; j < limit; j++ {
		switch src[j] {
		case '"':
			j = stringEnd(src, j) - 1
		case '{', '[':
			return 0
		case '}', ']':
			return j + 1
		}
	}
	return 0
}

// appendInline writes a leaf object or array with the spacing of the rest:
// a space after each colon and comma.
func appendInline(out, leaf []byte) []byte {
	for i := 0; i < len(leaf); {
		j := i
		for j < len(leaf) && leaf[j] != '"' && leaf[j] != ',' && leaf[j] != ':' {
			j++
		}
		out = append(out, leaf[i:j]...)
		if j == len(leaf) {
			break
		}
		switch leaf[j] {
		case '"':
			end := stringEnd(leaf, j)
			out = append(out, leaf[j:end]...)
			i = end
			continue
		default:
			out = append(out, leaf[j], ' ')
		}
		i = j + 1
	}
	return out
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

// structural marks the bytes indent acts on outside strings.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true, ',': true, ':': true}

// stringEnd returns the offset just past the string that starts at i: the
// first quote not escaped by an odd run of backslashes.
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src)
		}
		j += k
		backslashes := 0
		for b := j - 1; b > i && src[b] == '\\'; b-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return j + 1
		}
	}
	return len(src)
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
