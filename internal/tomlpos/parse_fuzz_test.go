package tomlpos

import "testing"

// tableRules are TOML 1.0's rules about defining keys and tables, which
// Parse applies itself, and a few scalars at their limits: each case is
// accepted or refused as tomllib accepts or refuses it.
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

// TestTableRulesAgreeWithTomllib holds Parse to tomllib on the cases above.
func TestTableRulesAgreeWithTomllib(t *testing.T) {
	py := startTomllib(t)
	docs := make([][]byte, len(tableRules))
	for i, s := range tableRules {
		docs[i] = []byte(s)
	}
	for i, answer := range py.verdicts(t, docs) {
		if d := disagreement(docs[i], answer); d != "" {
			t.Errorf("%s, for %q", d, tableRules[i])
		}
	}
}
