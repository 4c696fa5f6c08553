package server

import (
	"strconv"
	"unicode/utf8"

	"github.com/kokua-policy/kokua-policy/policy"
)

// The decide endpoints' JSON, written and read by hand for speed. Both
// sides are held to encoding/json by tests:
//
//   - appendAnswer writes exactly the bytes encoding/json writes for a
//     policy.Answer (the bytes kokua-run decide --format json prints); a
//     test compares the two on every answer of the golden policies and on
//     fuzzed answers, and another fails when policy.Answer's fields change.
//   - parseRequest and parseBatch read only a strict subset of JSON: the
//     three known members, each at most once, spelled exactly, with
//     printable ASCII strings without escapes and true or false. Anything
//     else — escapes, other characters, null, an unknown or repeated
//     member, a syntax error — makes them give up, and the caller decodes
//     the body again with encoding/json, which answers it or says what is
//     wrong. A fuzz test checks that whatever they accept, encoding/json
//     reads the same way.

// appendAnswer appends a JSON object of the answer, as encoding/json
// writes it with HTML escaping on, without a newline.
func appendAnswer(b []byte, a *policy.Answer) []byte {
	b = append(b, `{"decision":`...)
	b = appendString(b, string(a.Decision))
	b = append(b, `,"agent":`...)
	b = appendString(b, a.Agent)
	b = append(b, `,"tool":`...)
	b = appendString(b, a.Tool)
	b = append(b, `,"toolset":`...)
	b = appendString(b, a.Toolset)
	b = append(b, `,"reason":`...)
	r := a.Reason
	if r == nil {
		return append(b, "null}"...)
	}
	b = append(b, `{"summary":`...)
	b = appendString(b, r.Summary)
	if r.List != "" {
		b = append(b, `,"list":`...)
		b = appendString(b, r.List)
	}
	if r.Key != "" {
		b = append(b, `,"key":`...)
		b = appendString(b, r.Key)
	}
	if r.Entry != "" {
		b = append(b, `,"entry":`...)
		b = appendString(b, r.Entry)
	}
	if p := r.Position; p != nil {
		b = append(b, `,"position":{"column":`...)
		b = strconv.AppendInt(b, int64(p.Column), 10)
		b = append(b, `,"end_column":`...)
		b = strconv.AppendInt(b, int64(p.EndColumn), 10)
		b = append(b, `,"end_line":`...)
		b = strconv.AppendInt(b, int64(p.EndLine), 10)
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(p.Line), 10)
		b = append(b, '}')
	}
	b = append(b, `,"inherited":`...)
	b = strconv.AppendBool(b, r.Inherited)
	b = append(b, `,"reviewer":`...)
	b = strconv.AppendBool(b, r.Reviewer)
	return append(b, "}}"...)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping on: \" \\ \b \f \n \r \t, \u00XX for the other control
// characters and for < > &, \u2028 and \u2029 escaped, and each byte that
// is not part of valid UTF-8 replaced by \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// reader is the strict-subset JSON reader of parseRequest and parseBatch.
type reader struct {
	b []byte
	i int
	// intern returns a long-lived copy of a string the policy knows, so
	// that reading the usual agent and tool names does not allocate.
	intern map[string]string
}

func (r *reader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// is consumes c after white space.
func (r *reader) is(c byte) bool {
	r.ws()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// raw reads a string of printable ASCII without escapes and returns its
// bytes, which point into the body.
func (r *reader) raw() ([]byte, bool) {
	r.ws()
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return nil, false
	}
	start := r.i + 1
	for j := start; j < len(r.b); j++ {
		switch c := r.b[j]; {
		case c == '"':
			r.i = j + 1
			return r.b[start:j], true
		case c < 0x20 || c > 0x7e || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// str reads a string of printable ASCII without escapes.
func (r *reader) str() (string, bool) {
	raw, ok := r.raw()
	if !ok {
		return "", false
	}
	if s, ok := r.intern[string(raw)]; ok {
		return s, true
	}
	return string(raw), true
}

// member reads a member name and its colon, and says which of the
// request's members it is: 0 agent, 1 tool, 2 unattended, -1 another.
func (r *reader) member() (int, bool) {
	raw, ok := r.raw()
	if !ok || !r.is(':') {
		return -1, false
	}
	switch string(raw) {
	case "agent":
		return 0, true
	case "tool":
		return 1, true
	case "unattended":
		return 2, true
	case "requests":
		return 3, true
	}
	return -1, true
}

// boolean reads true or false.
func (r *reader) boolean() (bool, bool) {
	r.ws()
	rest := r.b[r.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		r.i += 4
		return true, r.delimited()
	case len(rest) >= 5 && string(rest[:5]) == "false":
		r.i += 5
		return false, r.delimited()
	}
	return false, false
}

// delimited reports whether a literal ends here, as JSON wants: "truex"
// is not true.
func (r *reader) delimited() bool {
	if r.i == len(r.b) {
		return true
	}
	switch r.b[r.i] {
	case ' ', '\t', '\n', '\r', ',', '}', ']':
		return true
	}
	return false
}

// request reads one request object.
func (r *reader) request(q *decideRequest) bool {
	if !r.is('{') {
		return false
	}
	if r.is('}') {
		return true
	}
	var seen [3]bool
	for {
		m, ok := r.member()
		if !ok || m < 0 || m > 2 || seen[m] {
			return false
		}
		seen[m] = true
		switch m {
		case 0:
			q.Agent, ok = r.str()
		case 1:
			q.Tool, ok = r.str()
		case 2:
			q.Unattended, ok = r.boolean()
		}
		if !ok {
			return false
		}
		if r.is('}') {
			return true
		}
		if !r.is(',') {
			return false
		}
	}
}

// end reports whether only white space is left.
func (r *reader) end() bool {
	r.ws()
	return r.i == len(r.b)
}

// parseRequest reads a decide request, or gives up (false) for
// encoding/json to read it.
func parseRequest(body []byte, intern map[string]string) (decideRequest, bool) {
	r := reader{b: body, intern: intern}
	var q decideRequest
	ok := r.request(&q) && r.end()
	return q, ok
}

// parseBatch reads a batch request of at most max requests into qs, or
// gives up (false) for encoding/json to read it.
func parseBatch(body []byte, intern map[string]string, max int, qs []decideRequest) ([]decideRequest, bool) {
	r := reader{b: body, intern: intern}
	if !r.is('{') {
		return qs, false
	}
	if m, ok := r.member(); !ok || m != 3 || !r.is('[') {
		return qs, false
	}
	if !r.is(']') {
		for {
			if len(qs) == max {
				return qs, false
			}
			qs = append(qs, decideRequest{})
			if !r.request(&qs[len(qs)-1]) {
				return qs, false
			}
			if r.is(']') {
				break
			}
			if !r.is(',') {
				return qs, false
			}
		}
	}
	return qs, r.is('}') && r.end()
}
