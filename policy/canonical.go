package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
)

// DigestPrefix starts every policy digest.
const DigestPrefix = "sha256:"

// Canonical returns the canonical form of a policy document given as JSON:
// the digest and signature members removed, object keys sorted by their bytes, no white
// space, numbers as written, and strings escaped as encoding/json writes
// them with HTML escaping off. The digest is the SHA-256 of this form, so
// reformatting a policy file does not change it, and any other change does.
// A document that is not one JSON object, or that repeats a member name in
// an object (a *RepeatedMemberError), has no canonical form.
func Canonical(doc []byte) ([]byte, error) {
	s, err := seal(doc)
	return s.canonical, err
}

// RepeatedMemberError is a JSON document that gives an object the same
// member twice, at any depth: a reader that takes the first value and one
// that takes the last would read two documents. Canonical refuses it, and
// so the policy loader and the server's request reader do. Names are
// compared as decoded, so "\u0061" repeats "a".
type RepeatedMemberError struct {
	// Name is the member's name, decoded.
	Name string
	// Offset is where the repeated member's name starts: the byte offset,
	// in the document, of the first member that repeats an earlier one.
	Offset int
	quoted string // the name as the canonical form writes it, quotes included
}

func (e *RepeatedMemberError) Error() string {
	return "the member name " + e.quoted + " is repeated in an object"
}

// DigestOf returns the digest of a policy document given as JSON.
func DigestOf(doc []byte) (string, error) {
	s, err := seal(doc)
	return s.digest, err
}

// Marshal writes the document and sets its Digest: the canonical form
// with the digest added as the last member, indented two spaces a level,
// one member or element a line, so that a committed policy diffs line by
// line. Neither the bytes nor the digest depend on the order in which the
// document's types declare their fields. kokua-compile writes these bytes
// with the characters a terminal acts on escaped (compile.Write), which
// changes neither the values nor the digest.
func Marshal(d *Document) ([]byte, error) {
	d.Signature = nil
	return marshal(d, nil)
}

// marshal is Marshal, with the signature made by sign from the digest
// written after it when sign is not nil.
func marshal(d *Document, sign func(digest string) (*Signature, error)) ([]byte, error) {
	raw, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	s, err := sealValid(raw)
	if err != nil {
		return nil, err
	}
	d.Digest = s.digest
	// The canonical form is an object: close it with the digest instead,
	// in the room seal leaves after it.
	withDigest := s.canonical[:len(s.canonical)-1]
	if len(s.canonical) > len("{}") {
		withDigest = append(withDigest, ',')
	}
	withDigest = append(withDigest, `"digest":"`...)
	withDigest = append(withDigest, s.digest...)
	withDigest = append(withDigest, '"')
	if sign != nil {
		sig, err := sign(s.digest)
		if err != nil {
			return nil, err
		}
		d.Signature = sig
		js, err := json.Marshal(sig)
		if err != nil {
			return nil, err
		}
		withDigest = append(withDigest, `,"signature":`...)
		withDigest = append(withDigest, js...)
	}
	withDigest = append(withDigest, '}')
	var out bytes.Buffer
	out.Grow(2 * len(withDigest))
	if err := json.Indent(&out, withDigest, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// sealed is a policy document's canonical form and its digest, with the
// top-level members policy_version and digest as written (nil when the
// document has no such member).
type sealed struct {
	canonical       []byte
	digest          string
	version, stored []byte
	// signature is the top-level signature member as written, nil when
	// the document has none.
	signature []byte
}

// seal is the one definition of the canonical form and the digest: Parse
// checks what it reads with it, and Marshal seals what it writes with its
// second step, sealValid.
//
// encoding/json checks the syntax first; sealValid then only puts
// members in order, leaving every number and literal as written and every
// string that needs no escape as it is. A string holding an escape, a
// control character or anything outside ASCII is decoded and written again
// by encoding/json, which is what defines a string's canonical form.
func seal(doc []byte) (sealed, error) {
	if !json.Valid(doc) {
		return sealed{}, json.Unmarshal(doc, new(json.RawMessage)) // says what is wrong
	}
	return sealValid(doc)
}

// sealValid is seal of a document known to be valid JSON: what
// encoding/json wrote, which Marshal seals without reading it twice.
func sealValid(doc []byte) (sealed, error) {
	// The room after the document is for Marshal to add the digest.
	c := canonWriter{in: doc, out: make([]byte, 0, len(doc)+len(`,"digest":""`)+len(DigestPrefix)+64)}
	c.space()
	if c.i == len(c.in) || c.in[c.i] != '{' {
		return sealed{}, errors.New("the document is not a JSON object")
	}
	c.object(true)
	if c.err != nil {
		return sealed{}, c.err
	}
	sum := sha256.Sum256(c.out)
	return sealed{canonical: c.out, digest: DigestPrefix + hex.EncodeToString(sum[:]), version: c.version, stored: c.digest,
		signature: c.signature}, nil
}

// canonWriter writes the canonical form of a document that is valid JSON
// (checked by seal, or written by encoding/json), so that every token is
// known to be complete.
type canonWriter struct {
	in, out []byte
	i       int // the next byte of in
	// members is a stack of the members of the objects being written, and
	// scratch holds an object's members while they are put in order.
	members []member
	scratch []byte
	// version, digest and signature are the top-level members' values
	// as written.
	version, digest, signature []byte
	err                        error
}

// member is one object member, written to out[from:to]; its name, in its
// canonical form with the quotes, is out[from:colon].
type member struct {
	from, colon, to int
	// decoded is the name when its canonical form holds an escape, and so
	// does not sort as the name itself.
	decoded []byte
	// in is where the member's name starts in the document.
	in int
}

// repeated notes that member m, named name, repeats an earlier member of
// its object. Of several repeats the first in the document is the error,
// unless an error of another kind came first.
func (c *canonWriter) repeated(m member, name string) {
	var prev *RepeatedMemberError
	if c.err != nil && (!errors.As(c.err, &prev) || prev.Offset <= m.in) {
		return
	}
	c.err = &RepeatedMemberError{Name: name, Offset: m.in, quoted: string(c.out[m.from:m.colon])}
}

func (c *canonWriter) space() {
	for c.i < len(c.in) && (c.in[c.i] == ' ' || c.in[c.i] == '\t' || c.in[c.i] == '\n' || c.in[c.i] == '\r') {
		c.i++
	}
}

func (c *canonWriter) value() {
	c.space()
	switch c.in[c.i] {
	case '{':
		c.object(false)
	case '[':
		c.i++
		c.out = append(c.out, '[')
		for c.space(); c.in[c.i] != ']'; c.space() {
			if c.in[c.i] == ',' {
				c.out = append(c.out, ',')
				c.i++
			}
			c.value()
		}
		c.out = append(c.out, ']')
		c.i++
	case '"':
		c.str()
	default: // a number, true, false or null, as written
		from := c.i
		for c.i < len(c.in) && !endsScalar(c.in[c.i]) {
			c.i++
		}
		c.out = append(c.out, c.in[from:c.i]...)
	}
}

func endsScalar(b byte) bool {
	switch b {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// str writes a string. One of printable ASCII other than the quote and
// the backslash is written as it is; any other is decoded and written
// again by encoding/json, with HTML escaping off.
func (c *canonWriter) str() {
	from := c.i
	c.i++
	for b := c.in[c.i]; b >= 0x20 && b < 0x80 && b != '"' && b != '\\'; b = c.in[c.i] {
		c.i++
	}
	if c.in[c.i] == '"' {
		c.i++
		c.out = append(c.out, c.in[from:c.i]...)
		return
	}
	for c.in[c.i] != '"' {
		if c.in[c.i] == '\\' {
			c.i++ // the escaped character cannot end the string
		}
		c.i++
	}
	c.i++
	var s string
	if err := json.Unmarshal(c.in[from:c.i], &s); err != nil {
		c.err = err
		return
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		c.err = err
		return
	}
	c.out = append(c.out, bytes.TrimSuffix(b.Bytes(), []byte{'\n'})...)
}

// object writes an object with its members sorted by name; at the top
// level it leaves the digest out and notes it and the policy_version.
// Members are written as they come and put in order afterwards, which a
// document written in order does not need.
func (c *canonWriter) object(top bool) {
	c.i++
	c.out = append(c.out, '{')
	base, start := len(c.members), len(c.out)
	for c.space(); c.in[c.i] != '}'; c.space() {
		if c.in[c.i] == ',' {
			c.i++
			c.space()
		}
		before := len(c.out)
		if len(c.members) > base {
			c.out = append(c.out, ',')
		}
		m := member{from: len(c.out), in: c.i}
		c.str()
		m.colon = len(c.out)
		c.space()
		c.i++
		c.out = append(c.out, ':')
		c.space()
		valueFrom := c.i
		c.value()
		m.to = len(c.out)
		name := c.out[m.from+1 : m.colon-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			var s string
			if err := json.Unmarshal(c.out[m.from:m.colon], &s); err != nil {
				c.err = err
			}
			m.decoded = []byte(s)
		}
		if top {
			switch string(name) {
			case "digest", "signature":
				// Neither is part of what the digest covers.
				kept := &c.digest
				if string(name) == "signature" {
					kept = &c.signature
				}
				if *kept != nil {
					c.repeated(m, string(name))
				}
				*kept = c.in[valueFrom:c.i]
				c.out = c.out[:before]
				continue
			case "policy_version":
				c.version = c.in[valueFrom:c.i]
			}
		}
		c.members = append(c.members, m)
	}
	c.i++
	members := c.members[base:]
	name := func(m member) []byte {
		if m.decoded != nil {
			return m.decoded
		}
		return c.out[m.from+1 : m.colon-1]
	}
	// Members of one name sort in document order, so that of two the
	// second is the one that repeats the first.
	byName := func(a, b member) int {
		if n := bytes.Compare(name(a), name(b)); n != 0 {
			return n
		}
		return a.in - b.in
	}
	inOrder := slices.IsSortedFunc(members, byName)
	if !inOrder {
		slices.SortFunc(members, byName)
	}
	for k := 1; k < len(members); k++ {
		if bytes.Equal(name(members[k-1]), name(members[k])) {
			c.repeated(members[k], string(name(members[k])))
		}
	}
	if !inOrder {
		// Nested objects are done, so scratch is free.
		c.scratch = append(c.scratch[:0], c.out[start:]...)
		c.out = c.out[:start]
		for k, m := range members {
			if k > 0 {
				c.out = append(c.out, ',')
			}
			c.out = append(c.out, c.scratch[m.from-start:m.to-start]...)
		}
	}
	c.out = append(c.out, '}')
	c.members = c.members[:base]
}
