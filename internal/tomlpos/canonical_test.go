package tomlpos

import "testing"

// TestCanonical: the forms TOML gives one value write one canonical text,
// and values that differ (a type, a number, a key) write different ones.
func TestCanonical(t *testing.T) {
	value := func(src string) string {
		t.Helper()
		root, err := Parse("c.toml", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		return root.Lookup("r", "g").Canonical()
	}
	same := [][]string{
		{"[r.g]\ntemperature = 0.0\ntop_p = 1\n", "[r]\ng.top_p = 1\ng.temperature = 0.0\n", "[r]\ng = { top_p = +1, temperature = 0e0 }\n",
			"[r]\ng = {temperature = 0.000, top_p = 0x1}\n"},
		{"[r]\ng = 'high'\n", "[r]\ng = \"high\"\n", "[r]\ng = \"\"\"high\"\"\"\n", "[r]\ng = \"\\u0068igh\"\n"},
		{"[r]\ng = 1_000\n", "[r]\ng = 1000\n", "[r]\ng = 0o1750\n"},
		{"[r]\ng = 2.5\n", "[r]\ng = 25e-1\n", "[r]\ng = +2.5\n"},
		{"[r]\ng = [1, [true, 'x']]\n", "[r]\ng = [\n  1,\n  [ true, \"x\" ],\n]\n"},
		{"[r.g.a]\nb = 1\n", "[r]\ng.a.b = 1\n", "[r]\ng = { a = { b = 1 } }\n"},
		{"[r]\ng = inf\n", "[r]\ng = +inf\n", "[r]\ng = 1e400\n"},
	}
	seen := map[string]string{}
	for _, forms := range same {
		want := value(forms[0])
		for _, f := range forms[1:] {
			if got := value(f); got != want {
				t.Errorf("%q is %q; want %q, as %q", f, got, want, forms[0])
			}
		}
		if other, ok := seen[want]; ok {
			t.Errorf("%q and %q write the same %q", forms[0], other, want)
		}
		seen[want] = forms[0]
	}
	for _, tt := range []struct{ src, want string }{
		{"[r.g]\ntemperature = 0.0\ntop_p = 1\n", "{temperature = 0.0, top_p = 1}"},
		{"[r]\ng = 2.0\n", "2.0"},
		{"[r]\ng = 2\n", "2"},
		{"[r]\ng = -0.0\n", "-0.0"},
		{"[r]\ng = nan\n", "nan"},
		{"[r]\ng = -inf\n", "-inf"},
		{"[r]\ng = 1e21\n", "1e+21"},
		{"[r]\ng = false\n", "false"},
		{"[r]\ng = \"a\\\"b\\n\"\n", `"a\"b\n"`},
		{"[r]\ng = { \"a b\" = 1, c = [] }\n", `{"a b" = 1, c = []}`},
		{"[r]\ng = 1979-05-27T07:32:00Z\n", "1979-05-27T07:32:00Z"},
		{"[r]\ng = 99_999_999_999_999_999_999\n", "99999999999999999999"},
		{"[r]\nother = 1\n", ""},
	} {
		if got := value(tt.src); got != tt.want {
			t.Errorf("%q is %q; want %q", tt.src, got, tt.want)
		}
	}
}
