package config

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/kokua-policy/kokua-policy/diag"
)

// jsonKind is the type of a positioned JSON value.
type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

var jsonKindNames = [...]string{jsonNull: "null", jsonBool: "a boolean", jsonNumber: "a number",
	jsonString: "a string", jsonArray: "an array", jsonObject: "an object"}

// jsonValue is a JSON value with the byte range it was written at. Objects
// keep their members in file order.
type jsonValue struct {
	kind     jsonKind
	from, to int
	str      string
	num      json.Number
	boolean  bool
	items    []*jsonValue
	members  []jsonMember
}

type jsonMember struct {
	name     string
	from, to int // the member's name, quotes included
	value    *jsonValue
}

func (v *jsonValue) get(name string) *jsonValue {
	if v == nil || v.kind != jsonObject {
		return nil
	}
	for _, m := range v.members {
		if m.name == name {
			return m.value
		}
	}
	return nil
}

// jsonSyntaxError is malformed JSON at a byte offset.
type jsonSyntaxError struct {
	offset int
	msg    string
}

func (e *jsonSyntaxError) Error() string { return e.msg }

// parseJSON reads one JSON document into a positioned tree. The standard
// library checks that it is JSON (and says where it is not); a plain walk
// over the valid bytes then records where each value is.
func parseJSON(data []byte) (*jsonValue, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &jsonSyntaxError{offset: max(int(se.Offset)-1, 0), msg: se.Error()}
		}
		return nil, &jsonSyntaxError{offset: len(data), msg: "unexpected end of JSON input"}
	}
	w := jsonWalker{data: data}
	v, err := w.value()
	if err != nil {
		return nil, err
	}
	return v, nil
}

// jsonWalker walks JSON already known to be valid.
type jsonWalker struct {
	data  []byte
	at    int
	depth int
}

const maxJSONDepth = 10000

func (w *jsonWalker) space() {
	for w.at < len(w.data) {
		switch w.data[w.at] {
		case ' ', '\t', '\n', '\r':
			w.at++
		default:
			return
		}
	}
}

func (w *jsonWalker) value() (*jsonValue, error) {
	w.space()
	v := &jsonValue{from: w.at}
	switch c := w.data[w.at]; c {
	case '{', '[':
		if w.depth++; w.depth > maxJSONDepth {
			return nil, &jsonSyntaxError{offset: w.at, msg: "JSON nested too deeply"}
		}
		w.at++
		if c == '{' {
			v.kind = jsonObject
		} else {
			v.kind = jsonArray
		}
		for {
			w.space()
			if w.data[w.at] == '}' || w.data[w.at] == ']' {
				w.at++
				break
			}
			if w.data[w.at] == ',' {
				w.at++
				w.space()
			}
			if v.kind == jsonArray {
				item, err := w.value()
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
				continue
			}
			kfrom := w.at
			name, err := w.str()
			if err != nil {
				return nil, err
			}
			kto := w.at
			w.space()
			w.at++ // the colon
			val, err := w.value()
			if err != nil {
				return nil, err
			}
			v.members = append(v.members, jsonMember{name: name, from: kfrom, to: kto, value: val})
		}
		w.depth--
	case '"':
		v.kind = jsonString
		str, err := w.str()
		if err != nil {
			return nil, err
		}
		v.str = str
	case 't', 'f':
		v.kind, v.boolean = jsonBool, c == 't'
		if v.boolean {
			w.at += len("true")
		} else {
			w.at += len("false")
		}
	case 'n':
		v.kind = jsonNull
		w.at += 4
	default:
		v.kind = jsonNumber
		end := w.at
		for end < len(w.data) && strings.IndexByte("+-0123456789.eE", w.data[end]) >= 0 {
			end++
		}
		v.num = json.Number(w.data[w.at:end])
		w.at = end
	}
	v.to = w.at
	return v, nil
}

// str reads a string at w.at, unescaping it when it holds escapes.
func (w *jsonWalker) str() (string, error) {
	start := w.at
	w.at++
	escaped := false
	for w.data[w.at] != '"' {
		if w.data[w.at] == '\\' {
			escaped = true
			w.at++
		}
		w.at++
	}
	w.at++
	raw := w.data[start:w.at]
	if !escaped {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", &jsonSyntaxError{offset: start, msg: err.Error()}
	}
	return s, nil
}

func (l *lines) jsonSpan(v *jsonValue) diag.Span { return l.span(v.from, v.to) }
