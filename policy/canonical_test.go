package policy

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestFieldsInCanonicalOrder holds every type of the document to fields
// declared in the order of their JSON names: that is what makes the
// compact encoding the canonical form that Marshal digests.
func TestFieldsInCanonicalOrder(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var check func(reflect.Type)
	check = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] {
			return
		}
		seen[typ] = true
		var names []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			names = append(names, name)
			check(f.Type)
		}
		if !slices.IsSorted(names) {
			t.Errorf("%s declares its fields as %v; declare them sorted by JSON name", typ.Name(), names)
		}
	}
	check(reflect.TypeFor[Document]())
	if len(seen) < 10 {
		t.Fatalf("walked only %d types", len(seen))
	}
}

// TestMarshalIsCanonical: the digest Marshal writes is the digest of the
// written document's canonical form, and the document parses back.
func TestMarshalIsCanonical(t *testing.T) {
	d := &Document{PolicyVersion: Version, EntryAgent: "a", Agents: map[string]*Agent{"a": {GateLabel: "a"}},
		Toolsets: map[string]*Toolset{}}
	out, err := Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	digest, err := DigestOf(out)
	if err != nil || digest != d.Digest {
		t.Fatalf("written digest %s, content digest %s (%v)", d.Digest, digest, err)
	}
	if !strings.Contains(string(out), `"digest": "`+digest+`"`) {
		t.Errorf("the document does not carry its digest:\n%s", out)
	}
}
