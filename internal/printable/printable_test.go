package printable

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"coder", "coder"},
		{"café", "café"},
		{"a'b", `a\'b`},
		{"tab\there", `tab\there`},
		{"bell\a", `bell\u0007`},
		{"\x1b[31mred", `\u001b[31mred`},
		{"rtl\u202eevil", `rtl\u202eevil`},
		{"bad\xffutf8", `bad\xffutf8`},
		{`back\slash`, `back\\slash`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// hostile holds what the escaping must never let through raw: ESC, an
// OSC 8 hyperlink, BEL, CR, LF, the right-to-left override, DEL, a C1
// control, a tag character beyond the BMP and invalid UTF-8 (issue 13).
var hostile = []string{
	"\x1b[31mred", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "bell\a", "cr\rhere", "lf\n::error file=x::forged",
	"rtl\u202eevil", "del\x7f", "c1\u009b31m", "tag\U000e0041", "bad\xffutf8",
}

// raw reports the first rune of s that no output may carry: a control
// character (a line feed too unless lines), an Unsafe rune or a byte of
// invalid UTF-8.
func raw(s string, lines bool) (string, bool) {
	for i, r := range s {
		if r == utf8.RuneError && len(s) > i && !strings.HasPrefix(s[i:], "\uFFFD") {
			return fmt.Sprintf("invalid UTF-8 at byte %d", i), true
		}
		if r == '\n' && lines {
			continue
		}
		if Unsafe(r) || r == 0x7f {
			return fmt.Sprintf("%U at byte %d", r, i), true
		}
	}
	return "", false
}

func TestPrintableLeavesNothingRaw(t *testing.T) {
	for _, in := range hostile {
		if what, bad := raw(String(in), false); bad {
			t.Errorf("String(%q) = %q: %s is raw", in, String(in), what)
		}
		if what, bad := raw(Escape(in), false); bad {
			t.Errorf("Escape(%q) = %q: %s is raw", in, Escape(in), what)
		}
		if what, bad := raw(Lines(in), true); bad {
			t.Errorf("Lines(%q) = %q: %s is raw", in, Lines(in), what)
		}
	}
}

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want, lines string }{
		{"coder", "coder", "coder"},
		{"it's 'mcp' in C:\\x", "it's 'mcp' in C:\\x", "it's 'mcp' in C:\\x"},
		{"a\nb", `a\nb`, "a\nb"},
		{"\x1b]8;;http://x\x1b\\", `\u001b]8;;http://x\u001b\`, `\u001b]8;;http://x\u001b\`},
		{"rtl\u202eevil", `rtl\u202eevil`, `rtl\u202eevil`},
		{"bad\xff", `bad\xff`, `bad\xff`},
		// Escape's own output is left as it is.
		{Quote("a'\x1b"), `'a\'\u001b'`, `'a\'\u001b'`},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Lines(tt.in); got != tt.lines {
			t.Errorf("Lines(%q) = %q, want %q", tt.in, got, tt.lines)
		}
	}
}

func TestPrintableJSONDecodesToTheSameValue(t *testing.T) {
	for _, in := range hostile {
		data, err := json.MarshalIndent(map[string]string{"file": in}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out := JSON(data)
		if what, bad := raw(string(out), true); bad {
			t.Errorf("JSON of %q = %s: %s is raw", in, out, what)
		}
		var before, after map[string]string
		if err := json.Unmarshal(data, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("JSON of %q is no longer JSON: %v\n%s", in, err, out)
		}
		if before["file"] != after["file"] {
			t.Errorf("JSON of %q changed the value: %q, want %q", in, after["file"], before["file"])
		}
	}
	clean := []byte("{\n  \"a\": \"café\"\n}")
	if got := JSON(clean); &got[0] != &clean[0] {
		t.Error("JSON copied a clean text")
	}
}

func TestPrintableWriter(t *testing.T) {
	var b strings.Builder
	w := Writer{W: &b}
	n, err := fmt.Fprintf(w, "cannot read %s: no such file\n", "x\x1b[2J\u202e.toml")
	if err != nil || n != len("cannot read x\x1b[2J\u202e.toml: no such file\n") {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if want := "cannot read x\\u001b[2J\\u202e.toml: no such file\n"; b.String() != want {
		t.Errorf("Writer wrote %q, want %q", b.String(), want)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 2997: "2,997", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
