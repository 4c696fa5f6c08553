package hostile

import (
	"encoding/json"
	"testing"
)

// TestJSONStringReadsBack: JSONString writes a JSON string that reads back
// as the same text, a character outside the Basic Multilingual Plane (a
// surrogate pair in JSON) included, with nothing outside printable ASCII.
func TestJSONStringReadsBack(t *testing.T) {
	for _, s := range append(Valid(), "emoji \U0001F600", "tag \U000E0041", `quote " and \ backslash`) {
		js := JSONString(s)
		var back string
		if err := json.Unmarshal([]byte(js), &back); err != nil || back != s {
			t.Errorf("JSONString(%+q) = %s, which reads back as %+q (%v)", s, js, back, err)
		}
		for i := 0; i < len(js); i++ {
			if js[i] < 0x20 || js[i] >= 0x7f {
				t.Errorf("JSONString(%+q) = %+q holds byte %#x", s, js, js[i])
				break
			}
		}
	}
}
