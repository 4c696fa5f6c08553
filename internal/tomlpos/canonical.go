package tomlpos

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Canonical writes a value in one TOML form, whatever form the file wrote
// it in, so that two values are equal exactly when their canonical forms
// are: strings as basic strings, integers in decimal, floats in their
// shortest form with a fraction or exponent (inf, -inf and nan as TOML
// spells them), tables and inline tables as one inline table with its
// keys sorted, arrays on one line. A table written as [a.b] with keys
// under it, with dotted keys (b.x = 1) or inline ({ x = 1 }) reads the
// same. A date or time is written as the file writes it, and so is an
// integer too large for 64 bits (its underscores and sign dropped), which
// Kokua's reader keeps exactly. A nil node is "".
func (n *Node) Canonical() string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	n.writeCanonical(&b)
	return b.String()
}

func (n *Node) writeCanonical(b *strings.Builder) {
	switch n.Kind {
	case KindString:
		b.WriteString(BasicString(n.Str))
	case KindBool:
		b.WriteString(strconv.FormatBool(n.Bool))
	case KindInteger:
		if n.OutOfRange {
			raw := strings.TrimPrefix(strings.ReplaceAll(n.raw(), "_", ""), "+")
			b.WriteString(raw)
			return
		}
		b.WriteString(strconv.FormatInt(n.Int, 10))
	case KindFloat:
		b.WriteString(canonicalFloat(n.Float))
	case KindDatetime:
		b.WriteString(n.raw())
	case KindArray:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			it.writeCanonical(b)
		}
		b.WriteByte(']')
	case KindTable:
		fields := slices.Clone(n.Fields)
		slices.SortFunc(fields, func(x, y Field) int { return strings.Compare(x.Name, y.Name) })
		b.WriteByte('{')
		for i, f := range fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteKey(f.Name))
			b.WriteString(" = ")
			f.Value.writeCanonical(b)
		}
		b.WriteByte('}')
	}
}

// raw is the value's text as the file writes it.
func (n *Node) raw() string {
	if n.lines == nil {
		return ""
	}
	return string(n.lines.Data[n.from:n.to])
}

// canonicalFloat writes a float as TOML does, always as a float: 2.0, not
// 2.
func canonicalFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
