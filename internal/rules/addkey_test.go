package rules

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// TestAddKey writes a key into a table in each way TOML 1.0 lets a file
// make one, and reads the result back: with tomlpos, which must find the
// key at its path with its value and every other key unchanged, and with
// Python's tomllib (checkTOML), which must accept it.
func TestAddKey(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		table     []string
		want      string // the document after the edit; "" when none can be made
	}{
		{"header", "[security]\nx = 1\n", []string{"security"},
			"[security]\nk = [\"v\"]\nx = 1\n"},
		{"header on the last line", "[security]", []string{"security"},
			"[security]\nk = [\"v\"]\n"},
		{"inline", "security = { x = 1 }\n", []string{"security"},
			"security = { x = 1, k = [\"v\"] }\n"},
		{"empty inline", "security = {}\n", []string{"security"},
			"security = { k = [\"v\"] }\n"},
		{"inline ending in a dotted key", "security = { a.b = 1 }\n", []string{"security"},
			"security = { a.b = 1, k = [\"v\"] }\n"},
		{"inline in an inline", "security = { auto = { on = true } }\n", []string{"security", "auto"},
			"security = { auto = { on = true, k = [\"v\"] } }\n"},
		{"dotted at the top", "security.a.on = true # on\nsecurity.b = [\n  1,\n]\n\n[x]\n", []string{"security"},
			"security.a.on = true # on\nsecurity.b = [\n  1,\n]\nsecurity.k = [\"v\"]\n\n[x]\n"},
		{"dotted in a dotted table", "security.a.on = true\nsecurity.b = 2\n", []string{"security", "a"},
			"security.a.on = true\nsecurity.a.k = [\"v\"]\nsecurity.b = 2\n"},
		{"dotted with a header's table in it", "a.b = 1\n\n[a.c]\nd = 2\n", []string{"a"},
			"a.b = 1\na.k = [\"v\"]\n\n[a.c]\nd = 2\n"},
		{"dotted below a header", "[agents.coder]\ntools.available = []\n", []string{"agents", "coder", "tools"},
			"[agents.coder]\ntools.available = []\ntools.k = [\"v\"]\n"},
		{"dotted on the last line", "a.b = 1", []string{"a"},
			"a.b = 1\na.k = [\"v\"]\n"},
		{"a header's parent only", "[security.auto]\non = true\n", []string{"security"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := config.Load("config.toml", []byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			p := &Pass{Input: &Input{Config: cfg}}
			table := cfg.Root.Lookup(c.table...)
			edit, ok := p.addKey(table, "k", `["v"]`)
			if !ok {
				if c.want != "" {
					t.Fatalf("no edit, want %q", c.want)
				}
				return
			}
			got := c.doc[:edit.Start] + edit.New + c.doc[edit.End:]
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			after, err := tomlpos.Parse("config.toml", []byte(got))
			if err != nil {
				t.Fatal(err)
			}
			added := after.Lookup(append(c.table, "k")...)
			if added == nil || len(added.Items) != 1 || added.Items[0].Str != "v" {
				t.Fatalf("no k = [\"v\"] at %v in\n%s", c.table, got)
			}
			if before, now := asGo(t, cfg.Root), asGo(t, after); !reflect.DeepEqual(without(now, c.table), before) {
				t.Errorf("other keys changed:\n%v\nwas\n%v", now, before)
			}
			checkTOML(t, map[string]string{got: c.name})
		})
	}
}

// asGo is a document's tree as plain Go values, through its JSON form.
func asGo(t *testing.T, n *tomlpos.Node) map[string]any {
	t.Helper()
	var walk func(n *tomlpos.Node) any
	walk = func(n *tomlpos.Node) any {
		switch n.Kind {
		case tomlpos.KindTable:
			m := map[string]any{}
			for _, f := range n.Fields {
				m[f.Name] = walk(f.Value)
			}
			return m
		case tomlpos.KindArray:
			var l []any
			for _, it := range n.Items {
				l = append(l, walk(it))
			}
			return l
		}
		b, err := json.Marshal([]any{n.Str, n.Int, n.Bool})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return walk(n).(map[string]any)
}

// without is m with the key k of the table at path removed.
func without(m map[string]any, path []string) map[string]any {
	t := m
	for _, p := range path {
		t = t[p].(map[string]any)
	}
	delete(t, "k")
	return m
}
