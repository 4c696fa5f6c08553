package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// agreeDocs are documents of every kind of value, escape and spacing.
var agreeDocs = []string{
	`null`, `true`, ` false `, `0`, `-1.5e+10`, `"s"`, `""`, `[]`, `{}`, `[[]]`, `{"a":{}}`,
	`{"a": [1, "x\n", true, null, {"b": -0.0}], "c": {"d": [[], [{}]]}}`,
	`{"k\"ey": "v\\al", "\u00e9": "\ud83d\ude00", "a": 1, "a": 2}`,
	"{\n\t\"toolsets\": [\r\n {\"name\": \"t\", \"tools\": [{\"name\": \"x\"}]}\n]\n}\n",
	`[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]`,
	`[1 2]`, `{"a" 1}`, `{"a":}`, `[`, `"\x"`, `{"a":1,}`, `nul`, ``, `01`,
}

// TestParseAgreesWithEncodingJSON holds the reader to the standard library
// on every document of agreeDocs.
func TestParseAgreesWithEncodingJSON(t *testing.T) {
	for _, doc := range agreeDocs {
		if d := disagreement([]byte(doc)); d != "" {
			t.Errorf("%q: %s", doc, d)
		}
	}
}

// FuzzParse: whatever the input, Parse accepts exactly what the standard
// library does, reads the same values, and places each where it is written.
func FuzzParse(f *testing.F) {
	for _, doc := range agreeDocs {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if d := disagreement(data); d != "" {
			t.Fatalf("%q: %s", data, d)
		}
	})
}

// disagreement says how Parse and encoding/json differ on data, or "".
// Documents that are not UTF-8 are left out: the standard library reads a
// string's invalid bytes as U+FFFD, Parse keeps them, and its callers
// refuse such a document first.
func disagreement(data []byte) string {
	if !utf8.Valid(data) {
		return ""
	}
	v, err := Parse(data)
	var le *LimitError
	switch {
	case errors.As(err, &le):
		return ""
	case json.Valid(data) != (err == nil):
		return "Parse and json.Valid disagree: " + errString(err)
	case err != nil:
		return ""
	}
	want, err := decode(data)
	if err != nil {
		return "the standard library does not decode valid JSON: " + err.Error()
	}
	if got := plain(v); !reflect.DeepEqual(got, want) {
		return "Parse reads a different value"
	}
	return placed(data, v)
}

func errString(err error) string {
	if err == nil {
		return "Parse accepts"
	}
	return "Parse refuses: " + err.Error()
}

func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// plain is v as encoding/json decodes it: the last of duplicate members
// wins, numbers as written.
func plain(v *Value) any {
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return v.Bool
	case Number:
		return v.Num()
	case String:
		return v.Str
	case Array:
		out := make([]any, len(v.Items))
		for i, item := range v.Items {
			out[i] = plain(item)
		}
		return out
	default:
		out := make(map[string]any, len(v.Members))
		for _, m := range v.Members {
			out[m.Name] = plain(m.Value)
		}
		return out
	}
}

// placed checks that every value and member name is written where the
// tree says: the bytes there decode to it.
func placed(data []byte, v *Value) string {
	got, err := decode(data[v.From:v.To])
	if err != nil || !reflect.DeepEqual(got, plain(v)) {
		return "a value is not written at " + string(data[v.From:v.To])
	}
	if strings.TrimSpace(string(data[v.From:v.To])) != string(data[v.From:v.To]) {
		return "a value's span holds space around it"
	}
	for _, item := range v.Items {
		if d := placed(data, item); d != "" {
			return d
		}
	}
	for _, m := range v.Members {
		var name string
		if json.Unmarshal(data[m.From:m.To], &name) != nil || name != m.Name {
			return "member " + m.Name + " is not named at " + string(data[m.From:m.To])
		}
		if d := placed(data, m.Value); d != "" {
			return d
		}
	}
	return ""
}
