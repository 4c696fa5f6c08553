package rules

import (
	"github.com/kokua-policy/kokua-policy/diag"
	"github.com/kokua-policy/kokua-policy/internal/config"
	"github.com/kokua-policy/kokua-policy/internal/tomlpos"
)

// wrong-type: a tool-access key whose value has the wrong TOML type (R105,
// R21). The finding points at the value, or at the first list element that
// is not a string.
var wrongTypeRule = &Rule{
	ID:       "wrong-type",
	Severity: diag.Error,
	Phase:    diag.PhaseParse,
	Refs:     []string{"R105", "R21"},
	Summary:  "a tool-access key has a value of the wrong type",
	Needs:    NeedsConfig,
	Check: func(p *Pass) {
		// The top-level sections are tables of their own; Walk only visits
		// the keys inside them, so security = "strict" or agents = [...]
		// is caught here.
		for _, f := range p.Config.Root.Fields {
			if config.SchemaFor([]string{f.Name}) == nil || f.Value.Kind == tomlpos.KindTable {
				continue
			}
			key, got := config.TablePath([]string{f.Name}), f.Value.Kind.String()
			if f.Value.ArrayOfTables {
				got = "an array of tables [" + key + "]"
			}
			p.Reportf(f.Value.Span(), key, "%s must be a table, not %s", key, got)
		}
		config.Walk(p.Config.Root, func(v config.Visit) {
			ks, val := v.Schema, v.Field.Value
			if ks == nil || ks.Removed || ks.Type.Accepts(val) {
				return
			}
			if ks.OldList && val.Kind != tomlpos.KindTable {
				return // the pre-split list layout: old-agent-tools says more
			}
			key := config.KeyPath(v.Node.Path(), v.Field.Name)
			if ks.Name == "" { // a table of tables: [agents], [reviewers]
				key = config.TablePath(append(v.Node.Path(), v.Field.Name))
				p.Reportf(val.Span(), key, "%s must be a table, not %s", key, val.Kind)
				return
			}
			span, got := val.Span(), val.Kind.String()
			if val.Kind == tomlpos.KindArray && (ks.Type == config.TypeStrings || ks.Type == config.TypeAvailable) {
				for _, it := range val.Items {
					if it.Kind != tomlpos.KindString {
						span, got = it.Span(), "a list holding "+it.Kind.String()
						break
					}
				}
			}
			if ks.Type == config.TypePosInt && val.Kind == tomlpos.KindInteger {
				got = "an integer below 1"
			}
			p.Reportf(span, key, "%s must be %s, not %s", key, ks.Type.Want(), got)
		})
	},
}
