// Package jsonpos reads a JSON document into a tree whose every value keeps
// the byte range it was written at.
package jsonpos

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Kind is the type of a positioned JSON value.
type Kind uint8

// The kinds of JSON value.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{Null: "null", Bool: "a boolean", Number: "a number",
	String: "a string", Array: "an array", Object: "an object"}

// String names the kind as messages do: "an object", "null".
func (k Kind) String() string { return kindNames[k] }

// Value is a JSON value with the byte range it was written at. Objects
// keep their members in file order.
type Value struct {
	Kind     Kind
	From, To int
	Str      string
	Num      json.Number
	Bool     bool
	Items    []*Value
	Members  []Member
}

// Member is one member of an object: its name, where the name is written,
// and its value.
type Member struct {
	Name     string
	From, To int // the member's name, quotes included
	Value    *Value
}

// Get returns the value of an object's member, or nil.
func (v *Value) Get(name string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for _, m := range v.Members {
		if m.Name == name {
			return m.Value
		}
	}
	return nil
}

// SyntaxError is malformed JSON at a byte offset.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return e.Msg }

// LimitError is valid JSON past one of the reader's limits (MaxDepth,
// MaxValues), at the byte offset of the value that passes it.
type LimitError struct {
	Offset int
	Msg    string
}

func (e *LimitError) Error() string { return e.Msg }

// Parse reads one JSON document into a positioned tree. The standard
// library checks that it is JSON (and says where it is not); a plain walk
// over the valid bytes then records where each value is.
func Parse(data []byte) (*Value, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := max(int(se.Offset)-1, 0)
			if strings.Contains(se.Error(), "exceeded max depth") { // the standard library's limit, also MaxDepth
				return nil, &LimitError{Offset: off, Msg: depthMessage}
			}
			return nil, &SyntaxError{Offset: off, Msg: se.Error()}
		}
		return nil, &SyntaxError{Offset: len(data), Msg: "unexpected end of JSON input"}
	}
	w := walker{data: data}
	v, err := w.value()
	if err != nil {
		return nil, err
	}
	return v, nil
}

// walker walks JSON already known to be valid.
type walker struct {
	data   []byte
	at     int
	depth  int
	values int
}

// MaxDepth bounds how deeply arrays and objects may nest; a deeper
// document is refused rather than walked. It is the standard library's own
// limit, which json.Valid applies first.
const MaxDepth = 10000

var depthMessage = fmt.Sprintf("arrays and objects nest more than %d deep here; the reader goes no deeper", MaxDepth)

// MaxValues bounds the values of a document (every object, array, member
// value and element): each costs a node of about a hundred bytes, so an
// array of 1s written over 16 MiB would otherwise cost a gigabyte. A larger
// document is refused at the value that passes the limit.
const MaxValues = 1_000_000

// valueLimit is MaxValues; tests lower it to reach it with small documents.
var valueLimit = MaxValues

func (w *walker) space() {
	for w.at < len(w.data) {
		switch w.data[w.at] {
		case ' ', '\t', '\n', '\r':
			w.at++
		default:
			return
		}
	}
}

func (w *walker) value() (*Value, error) {
	w.space()
	if w.values++; w.values > valueLimit {
		return nil, &LimitError{Offset: w.at, Msg: fmt.Sprintf("more than %d values by here; the reader reads no more than that", valueLimit)}
	}
	v := &Value{From: w.at}
	switch c := w.data[w.at]; c {
	case '{', '[':
		if w.depth++; w.depth > MaxDepth {
			return nil, &LimitError{Offset: w.at, Msg: depthMessage}
		}
		w.at++
		if c == '{' {
			v.Kind = Object
		} else {
			v.Kind = Array
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
			if v.Kind == Array {
				item, err := w.value()
				if err != nil {
					return nil, err
				}
				v.Items = append(v.Items, item)
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
			v.Members = append(v.Members, Member{Name: name, From: kfrom, To: kto, Value: val})
		}
		w.depth--
	case '"':
		v.Kind = String
		str, err := w.str()
		if err != nil {
			return nil, err
		}
		v.Str = str
	case 't', 'f':
		v.Kind, v.Bool = Bool, c == 't'
		if v.Bool {
			w.at += len("true")
		} else {
			w.at += len("false")
		}
	case 'n':
		v.Kind = Null
		w.at += 4
	default:
		v.Kind = Number
		end := w.at
		for end < len(w.data) && strings.IndexByte("+-0123456789.eE", w.data[end]) >= 0 {
			end++
		}
		v.Num = json.Number(w.data[w.at:end])
		w.at = end
	}
	v.To = w.at
	return v, nil
}

// str reads a string at w.at, unescaping it when it holds escapes.
func (w *walker) str() (string, error) {
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
		return "", &SyntaxError{Offset: start, Msg: err.Error()}
	}
	return s, nil
}
