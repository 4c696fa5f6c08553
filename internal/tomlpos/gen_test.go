package tomlpos

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// generator makes TOML documents for the differential test: statements
// drawn from every TOML 1.0 construct, with the edge cases and near misses
// of each (and the TOML 1.1 forms tomllib refuses), over a small set of
// keys so that tables and keys collide now and then, some of them mutated
// byte-wise.
type generator struct {
	r *rand.Rand
}

type list = []string

func newGenerator(seed uint64) *generator {
	return &generator{r: rand.New(rand.NewPCG(seed, 0x6b6f6b7561))}
}

func (g *generator) pick(options ...string) string { return options[g.r.IntN(len(options))] }

func (g *generator) chance(n int) bool { return g.r.IntN(n) == 0 }

// either picks from the usual options, and one time in rate from the
// unusual ones (mostly near misses).
func (g *generator) either(rate int, usual, unusual list) string {
	if g.chance(rate) {
		return g.pick(unusual...)
	}
	return g.pick(usual...)
}

// document is a few statements, usually valid, sometimes mutated.
func (g *generator) document() []byte {
	var b bytes.Buffer
	if g.chance(60) {
		b.WriteString("\ufeff")
	}
	eol := "\n"
	if g.chance(5) {
		eol = "\r\n"
	}
	for n := 1 + g.r.IntN(5); n > 0; n-- {
		b.WriteString(g.statement())
		if g.chance(6) {
			b.WriteString(g.space() + g.comment())
		}
		if g.chance(100) {
			b.WriteString(g.pick("\r", "\r\r\n", "\n\r", "\x0b\n", "\x0c\n", ";\n", " \\\n"))
		} else {
			b.WriteString(eol)
		}
	}
	doc := b.Bytes()
	if g.chance(40) {
		doc = bytes.TrimRight(doc, "\r\n")
	}
	if g.chance(5) {
		for n := 1 + g.r.IntN(2); n > 0; n-- {
			doc = g.mutate(doc)
		}
	}
	return doc
}

func (g *generator) statement() string {
	switch g.r.IntN(10) {
	case 0:
		return g.comment()
	case 1:
		return g.space() + "[" + g.space() + g.key() + g.space() + "]"
	case 2:
		return g.space() + "[[" + g.space() + g.key() + g.space() + "]]"
	case 3:
		return g.pick("", " ", "\t")
	default:
		return g.space() + g.keyValue(0)
	}
}

func (g *generator) keyValue(depth int) string {
	return g.key() + g.space() + g.either(60, list{"="}, list{"", "==", ":"}) + g.space() + g.value(depth)
}

func (g *generator) space() string {
	if g.chance(3) {
		return ""
	}
	return g.either(40, list{" ", " ", "\t", "  ", " \t"}, list{"\u00a0", "\u3000", "\x0c", "\x0b"})
}

func (g *generator) comment() string {
	return "#" + g.either(15, list{"", " a comment", " #", " é 研 😀", "\t tab", " '''", ` "`, " \ufeff", " \u2028", " [x]"},
		list{" \x7f", " \x00", " \x1b[31m", " \r x", " \x0c"})
}

// key is a simple or dotted key from a small pool.
func (g *generator) key() string {
	k := g.simpleKey()
	for g.chance(3) {
		k += g.either(40, list{".", " . ", "\t."}, list{"..", ". ."}) + g.simpleKey()
	}
	return k
}

func (g *generator) simpleKey() string {
	if g.chance(6) {
		return g.either(8, list{`""`, `''`, `"a"`, `'a'`, `"a.b"`, `"\u0061"`, `"é"`, `"a\tb"`, "'a\tb'", `'\n'`, `"#"`},
			list{`'''a'''`, `"""a"""`, `"a\x41"`, `"\e"`, "\"a\nb\"", "\"\x01\"", `"\uD800"`})
	}
	return g.either(25, list{"a", "b", "c", "d", "e", "f", "g", "h", "1", "-", "_", "true", "inf", "A", "a-b", "0x1", "0", "1979-05-27"},
		list{"é", "a b", "研", "", "a+b", "a:b"})
}

func (g *generator) value(depth int) string {
	n := 12
	if depth > 3 {
		n = 10 // no more arrays or inline tables
	}
	switch g.r.IntN(n) {
	case 0, 1:
		return g.basicString()
	case 2:
		return g.literalString()
	case 3:
		return g.integer()
	case 4:
		return g.float()
	case 5, 6:
		return g.datetime()
	case 7:
		return g.either(10, list{"true", "false"}, list{"True", "FALSE", "tru", "NaN", "Inf", "truefalse"})
	case 8:
		return g.multiLineString()
	case 9:
		if g.chance(10) {
			return g.pick("", "x", "'", `"`, "[", "{", "#", "=", "研", "\ufeff", ".5", "-", "+")
		}
		return g.basicString()
	case 10:
		return g.array(depth + 1)
	default:
		return g.inlineTable(depth + 1)
	}
}

func (g *generator) basicString() string {
	var b strings.Builder
	b.WriteByte('"')
	for n := g.r.IntN(4); n > 0; n-- {
		b.WriteString(g.either(25, list{"a", "é", "研", "😀", " ", "\t", "'", "#", `\"`, `\\`, `\n`, `\t`, `\b`, `\f`, `\r`,
			`\u00e9`, `\U0001F600`, `\uE000`, `\U0010FFFF`, "\u0085", "\u2028", "\ufeff", "{", "]", `\u00E9`},
			list{`\uD800`, `\uDFFF`, `\U00110000`, `\u12`, `\U0000004`, `\x41`, `\e`, `\a`, `\ `,
				`\/`, `\0`, "\x00", "\x01", "\x1f", "\x7f", "\r", `\`, `\E`}))
	}
	if !g.chance(60) {
		b.WriteByte('"')
	}
	return b.String()
}

func (g *generator) literalString() string {
	body := ""
	for n := g.r.IntN(3); n > 0; n-- {
		body += g.either(20, list{"a", `\`, `\n`, `"`, "é", "\t", "#", "{"}, list{"\x7f", "\x01", "\r", "''", "\n"})
	}
	if g.chance(60) {
		return "'" + body
	}
	return "'" + body + "'"
}

func (g *generator) multiLineString() string {
	q := g.pick(`"""`, `'''`)
	var b strings.Builder
	b.WriteString(q)
	for n := g.r.IntN(5); n > 0; n-- {
		b.WriteString(g.either(20, list{"a", "\n", "\r\n", "\t", " ", "\\\n", "\\  \n", "\\ \t\r\n", `\\`, `\n`,
			`\u00e9`, `"`, `""`, `'`, `''`, "é", "\\\n\n  \\\n"},
			list{"\r", "\\ x", `\x41`, `\e`, "\x00", "\x7f", "\x1b", "\\", "\\\r", "\\ \r"}))
	}
	if !g.chance(60) {
		b.WriteString(q)
		b.WriteString(g.pick("", "", "", q[:1], q[:2], q))
	}
	return b.String()
}

func (g *generator) integer() string {
	if g.chance(2) {
		return g.either(8, list{"0", "+0", "-0", "1", "-1", "+1", "1_000", "123_456", "0x0", "0xDEAD_beef", "0o777",
			"0b1010", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
			"0x7fffffffffffffff", "0x8000000000000000", "0xffffffffffffffffff", "0o1777777777777777777777",
			"0b" + strings.Repeat("1", 70), "99999999999999999999999999999", "0x00ff", "0b0001"},
			list{"00", "01", "1__0", "_1", "1_", "0x", "0X1", "+0x1", "-0x1", "0x_1", "0o8", "0O7", "0b2", "0b_1", "1 2",
				"١", "0xG", "+-1", "1-"})
	}
	s := fmt.Sprint(g.r.Int64N(1 << 40))
	if g.chance(3) {
		s = g.pick("-", "+") + s
	}
	return s
}

func (g *generator) float() string {
	return g.either(8, list{"0.0", "+0.0", "-0.0", "1.5", "1e1", "1E1", "1e+1", "1e-1", "1e01", "1_0.5", "1.5_0",
		"0e0", "-0e0", "1e400", "-1e400", "1e-400", "1.7976931348623157e308", "1.8e308", "4.9e-324",
		"3.14159265358979323846264338327950288", "inf", "+inf", "-inf", "nan", "-nan", "+nan", "6.626e-34", "1e1_0"},
		list{"1.", ".5", "1.e1", "1e_1", "1._5", "1e", "1.5e", "01.5", "00.0", "1.5.5", "1e1e1", "infinity", "1.0_",
			"1,5", "Inf", "-NaN", "1e+", "0x1.0", "1_.5"})
}

func (g *generator) datetime() string {
	date := g.either(10, list{"1979-05-27", "2000-02-29", "2024-12-31", "0001-01-01", "9999-12-31", "2024-02-29", "1979-01-31"},
		list{"0000-01-01", "1900-02-29", "2001-02-29", "2024-04-31", "1979-13-01", "1979-00-10", "1979-05-00",
			"1979-5-27", "79-05-27", "1979-05-32", "19790527"})
	tm := g.either(10, list{"07:32:00", "00:00:00", "23:59:59", "07:32:00.5", "07:32:00.999999", "07:32:00.1234567891"},
		list{"23:59:60", "24:00:00", "07:60:00", "07:32", "07:32:00.", "7:32:00", "07:32:0", "07:32Z"})
	off := g.either(10, list{"", "", "Z", "z", "+00:00", "-07:00", "+23:59", "-00:00"},
		list{"+24:00", "-00:60", "+0700", "+07", " Z", "+7:00", "+07:00:00"})
	sep := g.either(15, list{"T", "t", " "}, list{"_", "  ", "TT"})
	switch g.r.IntN(5) {
	case 0:
		return date
	case 1:
		return tm
	case 2:
		return tm + off
	default:
		return date + sep + tm + off
	}
}

func (g *generator) array(depth int) string {
	var b strings.Builder
	b.WriteString("[")
	n := g.r.IntN(4)
	for i := 0; i < n; i++ {
		b.WriteString(g.pick("", " ", "\n", "\r\n", " # c\n", "\t", "\n\n"))
		b.WriteString(g.value(depth))
		if i < n-1 || g.chance(3) {
			b.WriteString(g.either(30, list{",", ", ", " ,", ",\n"}, list{",,", ""}))
		}
	}
	b.WriteString(g.pick("", " ", "\n", "# c\n"))
	if !g.chance(60) {
		b.WriteString("]")
	}
	return b.String()
}

func (g *generator) inlineTable(depth int) string {
	var b strings.Builder
	b.WriteString("{")
	n := g.r.IntN(4)
	for i := 0; i < n; i++ {
		if g.chance(30) {
			b.WriteString(g.pick("\n", "\r\n", " # c\n", "\r"))
		}
		b.WriteString(g.pick("", " ", "  ", "\t"))
		b.WriteString(g.keyValue(depth))
		if i < n-1 || g.chance(20) {
			b.WriteString(g.either(30, list{",", ", ", " ,"}, list{",,", ""}))
		}
	}
	b.WriteString(g.either(30, list{"", " ", "\t"}, list{"\n", "\r\n"}))
	if !g.chance(60) {
		b.WriteString("}")
	}
	return b.String()
}

// mutations are the bytes and strings mutate inserts.
var mutations = list{
	"\r", "\n", "\r\n", "\x00", "\x7f", "\x1f", "\t", " ", "#", ",", "=", ".", "[", "]", "{", "}", "[[", "]]",
	`"`, "'", `"""`, "'''", `\`, "\xff", "\xc3", "\xed\xa0\x80", "研", "\ufeff", "e", "_", "0", "-", ":", "T", "Z",
}

// mutate inserts, deletes, replaces or repeats a piece of doc.
func (g *generator) mutate(doc []byte) []byte {
	if len(doc) == 0 {
		return []byte(g.pick(mutations...))
	}
	at := g.r.IntN(len(doc) + 1)
	out := append([]byte(nil), doc[:at]...)
	switch g.r.IntN(5) {
	case 0, 1: // insert
		out = append(out, g.pick(mutations...)...)
		out = append(out, doc[at:]...)
	case 2: // delete
		out = append(out, doc[min(at+1+g.r.IntN(3), len(doc)):]...)
	case 3: // replace one byte
		out = append(out, g.pick(mutations...)...)
		out = append(out, doc[min(at+1, len(doc)):]...)
	default: // repeat a piece
		end := min(at+1+g.r.IntN(16), len(doc))
		out = append(out, doc[at:end]...)
		out = append(out, doc[at:]...)
	}
	return out
}
