package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

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

// parseJSON reads one JSON document into a positioned tree.
func parseJSON(data []byte) (*jsonValue, error) {
	p := &jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &jsonSyntaxError{offset: p.start(), msg: "unexpected data after the top-level value"}
	}
	return v, nil
}

type jsonParser struct {
	data []byte
	dec  *json.Decoder
}

// start is where the next token begins: past white space and separators.
func (p *jsonParser) start() int {
	at := int(p.dec.InputOffset())
	for at < len(p.data) {
		switch p.data[at] {
		case ' ', '\t', '\n', '\r', ',', ':':
			at++
		default:
			return at
		}
	}
	return at
}

func (p *jsonParser) token() (json.Token, int, error) {
	from := p.start()
	tok, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// The streaming decoder's offsets are not always at the bad
			// byte; a whole-document decode says exactly how far it read.
			var v any
			if uerr := json.Unmarshal(p.data, &v); errors.As(uerr, &se) {
				return nil, 0, &jsonSyntaxError{offset: max(int(se.Offset)-1, 0), msg: se.Error()}
			}
			return nil, from, &jsonSyntaxError{offset: from, msg: se.Error()}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, len(p.data), &jsonSyntaxError{offset: len(p.data), msg: "unexpected end of JSON input"}
		}
		return nil, from, &jsonSyntaxError{offset: from, msg: err.Error()}
	}
	return tok, from, nil
}

func (p *jsonParser) value() (*jsonValue, error) {
	tok, from, err := p.token()
	if err != nil {
		return nil, err
	}
	v := &jsonValue{from: from}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			v.kind = jsonArray
			for p.dec.More() {
				item, err := p.value()
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
		} else {
			v.kind = jsonObject
			for p.dec.More() {
				key, kfrom, err := p.token()
				if err != nil {
					return nil, err
				}
				kto := int(p.dec.InputOffset())
				val, err := p.value()
				if err != nil {
					return nil, err
				}
				v.members = append(v.members, jsonMember{name: key.(string), from: kfrom, to: kto, value: val})
			}
		}
		if _, _, err := p.token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		v.kind, v.str = jsonString, t
	case json.Number:
		v.kind, v.num = jsonNumber, t
	case bool:
		v.kind, v.boolean = jsonBool, t
	case nil:
		v.kind = jsonNull
	}
	v.to = int(p.dec.InputOffset())
	return v, nil
}

func (l *lines) jsonSpan(v *jsonValue) diag.Span { return l.span(v.from, v.to) }
