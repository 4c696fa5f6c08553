package tomlpos

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// tableRules are TOML 1.0's rules about defining keys and tables, which
// Parse applies itself: each case is accepted or refused as go-toml's
// decoder accepts or refuses it.
var tableRules = []string{
	"a = 1\na = 2\n",
	"[a]\n[a]\n",
	"[a]\nb = 1\n[a.b]\n",
	"[a.b.c]\n[a]\n",
	"[a.b.c]\n[a]\n[a.b]\n",
	"[a.b.c]\nz = 9\n[a]\nb.c.t = 1\n",
	"[fruit]\napple.color = 'red'\napple.taste.sweet = true\n",
	"[fruit]\napple.color = 'red'\n[fruit.apple]\n",
	"[fruit]\napple.color = 'red'\n[fruit.apple.texture]\nsmooth = true\n",
	"[fruit.apple]\n[fruit]\napple.color = 'red'\n",
	"a = {b = 1}\n[a]\n",
	"a = {b = 1}\na.c = 2\n",
	"a = {b = 1}\n[a.c]\n",
	"a = {b.c = 1, b.d = 2}\n",
	"a = {b.c = 1, b = 2}\n",
	"a = {b = 1, b = 2}\n",
	"[[a]]\n[[a]]\nb = 1\n[a.c]\n",
	"[[a]]\n[a]\n",
	"[a]\n[[a]]\n",
	"a = []\n[[a]]\n",
	"a = [{b = 1}]\n[[a]]\n",
	"[[a.b]]\n[a]\nc = 1\n",
	"[[a]]\nb.c = 1\nb.d = 2\n[[a]]\nb.c = 3\n",
	"a.b = 1\n[a]\n",
	"a.b = 1\n[a.c]\n",
	"a = 1\n[a.b]\n",
	"a = 1\na.b = 2\n",
	"x = 99999999999999999999\n",
	"x = 1979-13-01\n",
	"x = 1979-05-27T07:32:00Z\n",
	"x = 0x_1\n",
	"x = 1e400\n",
	"x = \"\\uD800\"\n",
	"\"\" = 1\n",
	"a.\"\".b = 1\n",
	"a = \"\xff\"\n",
	"# \xff\n",
}

// FuzzParseAgreesWithDecoder holds Parse to exactly the TOML go-toml's
// decoder accepts: Parse applies TOML's rules itself, in linear time, so
// it must never accept what the decoder refuses, nor refuse what it takes.
func FuzzParseAgreesWithDecoder(f *testing.F) {
	for _, s := range tableRules {
		f.Add([]byte(s))
	}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "*", "*", "config.toml"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, ours := Parse("f.toml", data)
		var sink map[string]any
		theirs := toml.Unmarshal(data, &sink)
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("Parse says %v, go-toml's decoder says %v, for:\n%s", ours, theirs, data)
		}
	})
}

func TestTableRules(t *testing.T) {
	for _, s := range tableRules {
		_, ours := Parse("t.toml", []byte(s))
		var sink map[string]any
		theirs := toml.Unmarshal([]byte(s), &sink)
		if (ours == nil) != (theirs == nil) {
			t.Errorf("Parse says %v, the decoder %v, for %q", ours, theirs, s)
		}
	}
}
