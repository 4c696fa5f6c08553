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
//
// A tree is made in a few allocations, whatever its size: Parse counts the
// values and the children of each container first, then places every
// value, member and item in a block of its kind, and every string it can
// in one copy of the document.
type Value struct {
	Kind     Kind
	Bool     bool
	From, To int
	// Str is a string's text, unescaped, or a number's as written.
	Str     string
	Items   []*Value
	Members []Member
}

// Num is a number's text, as written.
func (v *Value) Num() json.Number { return json.Number(v.Str) }

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
// library checks that it is JSON (and says where it is not); two plain
// passes over the valid bytes then count the values and record where each
// is. The document is taken to be UTF-8, as callers check first: a string
// keeps what bytes it holds.
func Parse(data []byte) (*Value, error) {
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := max(int(se.Offset)-1, 0)
			if strings.Contains(se.Error(), "exceeded max depth") { // the standard library's limit, also MaxDepth
				return nil, &LimitError{Offset: off, Msg: fmt.Sprintf("arrays and objects nest more than %d deep here; the reader goes no deeper", MaxDepth)}
			}
			return nil, &SyntaxError{Offset: off, Msg: se.Error()}
		}
		return nil, &SyntaxError{Offset: len(data), Msg: "unexpected end of JSON input"}
	}
	c, err := count(data)
	if err != nil {
		return nil, err
	}
	w := walker{
		data:     data,
		text:     string(data),
		children: c.children,
		values:   make([]Value, c.values),
		items:    make([]*Value, c.items),
		members:  make([]Member, c.members),
	}
	return w.value(), nil
}

// MaxDepth bounds how deeply arrays and objects may nest; a deeper
// document is refused rather than walked. It is the standard library's own
// limit, which json.Valid applies first.
const MaxDepth = 10000

// MaxValues bounds the values of a document (every object, array, member
// value and element): each costs a node of about a hundred bytes, so an
// array of 1s written over 16 MiB would otherwise cost a gigabyte. A larger
// document is refused at the value that passes the limit.
const MaxValues = 1_000_000

// valueLimit is MaxValues; tests lower it to reach it with small documents.
var valueLimit = MaxValues

// counts is what the first pass over a document finds: how many values,
// array items and object members it holds, and how many children each
// array and object has, in the order they open.
type counts struct {
	values, items, members int
	children               []int
}

// count makes the first pass over valid JSON, refusing a document past
// MaxValues at the value that passes the limit. (json.Valid has refused
// one past MaxDepth already.)
func count(data []byte) (counts, error) {
	var c counts
	// open holds, for each container the pass is in, its place in
	// c.children and whether it is an object.
	type container struct {
		at     int
		object bool
	}
	var open []container
	// key is set where an object's member name comes next: after { and ,
	// inside an object.
	key := false
	for i := 0; i < len(data); i++ {
		b := data[i]
		switch b {
		case ' ', '\t', '\n', '\r', ':':
			continue
		case ',':
			key = len(open) > 0 && open[len(open)-1].object
			continue
		case '}', ']':
			open = open[:len(open)-1]
			key = false
			continue
		}
		if b == '"' && key {
			i = stringEnd(data, i) - 1
			key = false
			continue
		}
		// A value starts at i.
		if c.values++; c.values > valueLimit {
			return c, &LimitError{Offset: i, Msg: fmt.Sprintf("more than %d values by here; the reader reads no more than that", valueLimit)}
		}
		if len(open) > 0 {
			in := open[len(open)-1]
			c.children[in.at]++
			if in.object {
				c.members++
			} else {
				c.items++
			}
		}
		switch b {
		case '{', '[':
			open = append(open, container{at: len(c.children), object: b == '{'})
			c.children = append(c.children, 0)
			key = b == '{'
		case '"':
			i = stringEnd(data, i) - 1
		default: // true, false, null or a number
			for i+1 < len(data) && strings.IndexByte("+-0123456789.eEtruefalsn", data[i+1]) >= 0 {
				i++
			}
		}
	}
	return c, nil
}

// stringEnd returns the offset just past the string that starts at i.
func stringEnd(data []byte, i int) int {
	for i++; data[i] != '"'; i++ {
		if data[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// walker walks JSON already known to be valid and counted, taking each
// value, item and member from the blocks made for them.
type walker struct {
	data []byte
	// text is the document as a string, which strings without escapes are
	// cut from.
	text     string
	at       int
	children []int
	values   []Value
	items    []*Value
	members  []Member
}

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

// value walks the value at w.at. It cannot fail: the document is valid,
// and count has found it within the limits.
func (w *walker) value() *Value {
	w.space()
	v := &w.values[0]
	w.values = w.values[1:]
	v.From = w.at
	switch c := w.data[w.at]; c {
	case '{', '[':
		n := w.children[0]
		w.children = w.children[1:]
		if c == '{' {
			v.Kind = Object
			v.Members, w.members = w.members[:0:n], w.members[n:]
		} else {
			v.Kind = Array
			v.Items, w.items = w.items[:0:n], w.items[n:]
		}
		w.at++
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
				v.Items = append(v.Items, w.value())
				continue
			}
			kfrom := w.at
			name := w.str()
			kto := w.at
			w.space()
			w.at++ // the colon
			v.Members = append(v.Members, Member{Name: name, From: kfrom, To: kto, Value: w.value()})
		}
		if len(v.Items) == 0 {
			v.Items = nil
		}
		if len(v.Members) == 0 {
			v.Members = nil
		}
	case '"':
		v.Kind = String
		v.Str = w.str()
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
		v.Str = w.text[w.at:end]
		w.at = end
	}
	v.To = w.at
	return v
}

// str reads the string at w.at: a cut of the document when it holds no
// escape, else the string unescaped by encoding/json (which cannot fail on
// a string json.Valid has passed; were it to, the text as written stands).
func (w *walker) str() string {
	start := w.at
	w.at = stringEnd(w.data, start)
	raw := w.text[start:w.at]
	if strings.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	var s string
	if json.Unmarshal(w.data[start:w.at], &s) != nil {
		return raw[1 : len(raw)-1]
	}
	return s
}
