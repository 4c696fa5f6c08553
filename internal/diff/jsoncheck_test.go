package diff_test

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// checkJSONReport holds a JSON report to the value it was written from,
// field by field, without encoding/json's writer: data must be one JSON
// object that gives, under each exported field's json name, that field's
// value (a string, number or bool as it is, a value with MarshalText as
// the text it gives, nil as null, a struct, slice or map member by
// member), and nothing else. So every case's JSON report is checked in
// full, while want.json is kept for one case of an area only.
func checkJSONReport(t *testing.T, data []byte, v any) {
	t.Helper()
	var got any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("the JSON report is not JSON: %v", err)
	}
	if dec.More() {
		t.Fatal("the JSON report holds more than one value")
	}
	var problems []string
	jsonAgrees(reflect.ValueOf(v), got, "$", &problems)
	for i, p := range problems {
		if i == 10 {
			t.Errorf("and %d more", len(problems)-10)
			break
		}
		t.Error(p)
	}
}

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// jsonAgrees compares a Go value with a decoded JSON value at path.
func jsonAgrees(v reflect.Value, j any, path string, problems *[]string) {
	fail := func(format string, args ...any) {
		*problems = append(*problems, path+": "+fmt.Sprintf(format, args...))
	}
	if v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			if j != nil {
				fail("%v, want null", j)
			}
			return
		}
		if v.Type().Implements(textMarshaler) {
			text, _ := v.Interface().(encoding.TextMarshaler).MarshalText()
			if j != string(text) {
				fail("%v, want %q", j, text)
			}
			return
		}
		jsonAgrees(v.Elem(), j, path, problems)
		return
	}
	if v.Type().Implements(textMarshaler) {
		text, _ := v.Interface().(encoding.TextMarshaler).MarshalText()
		if j != string(text) {
			fail("%v, want %q", j, text)
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		if j != v.String() {
			fail("%q, want %q", j, v.String())
		}
	case reflect.Bool:
		if j != v.Bool() {
			fail("%v, want %v", j, v.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, ok := j.(json.Number); !ok || n.String() != fmt.Sprint(v.Interface()) {
			fail("%v, want %v", j, v.Interface())
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() && j == nil {
			return
		}
		a, ok := j.([]any)
		if !ok || len(a) != v.Len() {
			fail("%v, want %d members", j, v.Len())
			return
		}
		for i := range a {
			jsonAgrees(v.Index(i), a[i], fmt.Sprintf("%s[%d]", path, i), problems)
		}
	case reflect.Map:
		o, ok := j.(map[string]any)
		if !ok || len(o) != v.Len() {
			fail("%v, want an object of %d members", j, v.Len())
			return
		}
		for _, k := range v.MapKeys() {
			jsonAgrees(v.MapIndex(k), o[fmt.Sprint(k.Interface())], path+"."+fmt.Sprint(k.Interface()), problems)
		}
	case reflect.Struct:
		o, ok := j.(map[string]any)
		if !ok {
			fail("%v, want an object", j)
			return
		}
		seen := map[string]bool{}
		for _, f := range jsonFields(v) {
			seen[f.name] = true
			m, ok := o[f.name]
			switch {
			case !ok && f.omit && emptyJSON(f.value):
			case ok && f.omit && emptyJSON(f.value):
				fail("member %q, which is empty and should be left out", f.name)
			case !ok:
				fail("no member %q", f.name)
			default:
				jsonAgrees(f.value, m, path+"."+f.name, problems)
			}
		}
		for k := range o {
			if !seen[k] {
				fail("a member %q the value does not have", k)
			}
		}
	default:
		fail("a %s, which the check does not read", v.Kind())
	}
}

// jsonField is a member a struct gives its JSON object.
type jsonField struct {
	name  string
	omit  bool // omitempty or omitzero: left out when empty
	value reflect.Value
}

// jsonFields lists the members of a struct's JSON object: its exported
// fields by their json names, the fields of an embedded struct with no
// name of its own in its place.
func jsonFields(v reflect.Value) []jsonField {
	var out []jsonField
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(v.Field(i))...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		omit := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		out = append(out, jsonField{name: name, omit: omit, value: v.Field(i)})
	}
	return out
}

// emptyJSON is encoding/json's test of an empty value, which omitempty
// leaves out.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	}
	return v.IsZero()
}
