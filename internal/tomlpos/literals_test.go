package tomlpos

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/agree"
)

// tomllib's patterns as regular expressions, as Parse used them before the
// scanners of toml10.go replaced them: the tests below hold each scanner
// to its pattern. Only the tests link regexp; kokua-lint does not.
const literalTime = `([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])(?:\.[0-9]+)?`

var (
	integerPattern  = regexp.MustCompile(`^(?:0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*|0o[0-7](?:_?[0-7])*|0b[01](?:_?[01])*|[+-]?(?:0|[1-9](?:_?[0-9])*))$`)
	floatPattern    = regexp.MustCompile(`^(?:[+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[+-]?(?:inf|nan))$`)
	localTimeRegexp = regexp.MustCompile(`^` + literalTime + `$`)
	noSecondsRegexp = regexp.MustCompile(`(?:^|[Tt ])[0-9]{2}:[0-9]{2}(?:$|[^:0-9])`)
	dateRegexp      = regexp.MustCompile(`^([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(?:[Tt ]` + literalTime + `(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])?)?$`)
)

// literalDisagreement compares the five scanners with their patterns on
// s, and says how one differs, or returns "".
func literalDisagreement(s string) string {
	var out []string
	check := func(name string, got, want bool) {
		if got != want {
			out = append(out, name+" scanner says "+strconv.FormatBool(got)+", pattern "+strconv.FormatBool(want))
		}
	}
	check("integer", isInteger(s), integerPattern.MatchString(s))
	check("float", isFloat(s), floatPattern.MatchString(s))
	check("local time", isLocalTime(s), localTimeRegexp.MatchString(s))
	check("no seconds", lacksSeconds(s), noSecondsRegexp.MatchString(s))
	year, month, day, ok := dateTime(s)
	m := dateRegexp.FindStringSubmatch(s)
	check("date", ok, m != nil)
	if ok && m != nil {
		want := []int{atoi(m[1]), atoi(m[2]), atoi(m[3])}
		if got := []int{year, month, day}; !slices.Equal(got, want) {
			out = append(out, "date scanner reads "+strconvInts(got)+", pattern "+strconvInts(want))
		}
	}
	return strings.Join(out, "; ")
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

func strconvInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, "-")
}

// literalEdges are the edge cases of each pattern: signs, prefixes and
// underscores in every place, inf and nan, dates and times at and past
// their limits, each separator and offset, and near misses of all of them.
var literalEdges = []string{
	"", " ", "\t", "\n", "\r\n", "\u00a0", "\u2003", "\xff", "é",
	// integers
	"0", "00", "01", "+0", "-0", "+", "-", "+-1", "1", "-1", "+1", "9", "10", "1_000", "1__000", "_1", "1_", "1_0_0",
	"0_1", "0x", "0x0", "0x_0", "0x0_", "0xDEAD_beef", "0xg", "0X1", "+0x1", "-0x1", "0o7", "0o8", "0o_7", "0o", "0b1", "0b2",
	"0b1_0", "0b_1", "0b1__0", "0b", "1 ", " 1", "1\n", "１",
	// floats
	"0.0", "0.", ".0", "1.5", "+1.5", "-1.5", "01.5", "1.5_", "1._5", "1.5__0", "1.5_0", "1e5", "1E5", "1e+5", "1e-5",
	"1e", "1e+", "1e_5", "1e5_", "1e0_5", "1.5e5", "1.e5", "1.5e", "0e0", "00e0", "inf", "+inf", "-inf", "nan", "+nan",
	"-nan", "Inf", "NaN", "infinity", "in", "na", "++inf", "inf ", "1.5e5.5", "1.5.5", "-0.0", "0.0_0", "1e+-5",
	// times
	"00:00:00", "23:59:59", "24:00:00", "23:60:00", "23:59:60", "9:00:00", "09:00", "09:00:0", "09:00:00.", "09:00:00.5",
	"09:00:00.123456789", "09:00:00.5Z", "09:00:00Z", "09:00:00 ", "19:00:00", "20:00:00", "29:00:00", "09:0a:00",
	"09-00-00", "09:00:00:00",
	// dates and date-times
	"1979-05-27", "1979-5-27", "1979-05-7", "0000-01-01", "9999-12-31", "1979-00-27", "1979-13-27", "1979-10-27",
	"1979-05-00", "1979-05-32", "1979-05-31", "1979-05-30", "1979-05-29", "1979-05-19", "1979-02-30", "1979-05-27T",
	"1979-05-27T07:32:00", "1979-05-27t07:32:00", "1979-05-27 07:32:00", "1979-05-27_07:32:00", "1979-05-27T07:32",
	"1979-05-27T07:32Z", "1979-05-27 07:32", "1979-05-27T07:32:00Z", "1979-05-27T07:32:00z", "1979-05-27T07:32:00+07:00",
	"1979-05-27T07:32:00-23:59", "1979-05-27T07:32:00+24:00", "1979-05-27T07:32:00+07:60", "1979-05-27T07:32:00+07",
	"1979-05-27T07:32:00+0700", "1979-05-27T07:32:00.999999-07:00", "1979-05-27T07:32:00.Z", "1979-05-27T07:32:00ZZ",
	"1979-05-27T07:32:00Z ", "1979-05-27T07:32:00+07:00x", "1979-05-27T24:32:00", "1979-05-27  07:32:00",
	"1979-05-27\t07:32:00", "1979-05-27T07:32:00\n", "197a-05-27", "1979/05/27", "+1979-05-27", "19790-05-27",
	// times without seconds anywhere
	"07:32", "x07:32", "T07:32", "t07:32", " 07:32", "07:32x", "07:32:", "07:321", "07:32 ", "07:32\xff", "07:32é",
	"1979-05-27 07:32 x", "a b07:32", "07:3", "7:32", "0732",
}

func TestLiteralScannersAgreeOnEdges(t *testing.T) {
	agree.Inputs(t, literalEdges, literalDisagreement)
}

// literalValid are valid literals of each kind, which the generator mutates.
var literalValid = []string{
	"0", "-17", "+1_000_000", "0xdead_BEEF", "0o7_5", "0b1_0", "3.14", "-6.02e+23", "1_0.0_1e-1_0", "+inf", "-nan",
	"07:32:00", "00:00:00.000001", "1979-05-27", "1979-05-27T07:32:00Z", "1979-05-27 23:59:59.5-08:00",
	"2000-02-29t00:00:00+14:00", "1979-05-27T07:32",
}

// literalAlphabet is what the generated strings are made of: the
// characters of every pattern and a few that none takes.
var literalAlphabet = []string{
	"0", "1", "2", "3", "5", "7", "8", "9", "_", ".", "e", "E", "+", "-", ":", "T", "t", " ", "Z", "z", "x", "o", "b",
	"a", "f", "i", "n", "#", "[", "]", "\t", "\r", "\n", "\u00a0", "\u2003", "é", "\xff",
}

// literalPairs are two-digit fields at and around the limits of months,
// days, hours, minutes and seconds.
var literalPairs = []string{"00", "01", "02", "09", "10", "12", "13", "19", "20", "23", "24", "28", "29", "30", "31", "32", "59", "60", "99"}

// dateOrTime builds a date, a time or both from fields near their limits,
// with each separator and offset, most of them valid.
func dateOrTime(r *rand.Rand) string {
	pair := func() string { return literalPairs[r.IntN(len(literalPairs))] }
	pick := func(options ...string) string { return options[r.IntN(len(options))] }
	clock := pair() + ":" + pair() + pick(":"+pair(), ":"+pair(), "") + pick("", "", "."+pair(), ".")
	if r.IntN(4) == 0 {
		return clock
	}
	date := pick("1979", "2000", "1900", "2024", "0000") + "-" + pair() + "-" + pair()
	if r.IntN(3) == 0 {
		return date
	}
	return date + pick("T", "t", " ", "_") + clock + pick("", "Z", "z", "+"+pair()+":"+pair(), "-"+pair()+":"+pair(), "+"+pair())
}

// generatedLiterals makes n strings: from the alphabet; dates and times
// from fields near their limits; and mutations (a byte inserted, deleted
// or replaced, once or twice) of valid literals.
func generatedLiterals(n int) []string {
	r := rand.New(rand.NewPCG(24, 2026))
	out := make([]string, 0, n)
	for len(out) < n {
		if r.IntN(3) == 0 {
			out = append(out, dateOrTime(r))
			continue
		}
		if r.IntN(2) == 0 {
			var b strings.Builder
			for range r.IntN(30) {
				b.WriteString(literalAlphabet[r.IntN(len(literalAlphabet))])
			}
			out = append(out, b.String())
			continue
		}
		s := literalValid[r.IntN(len(literalValid))]
		for range 1 + r.IntN(2) {
			s = mutate(r, s, literalAlphabet)
		}
		out = append(out, s)
	}
	return out
}

// mutate inserts, deletes or replaces one piece of s, at random, the new
// piece drawn from the alphabet.
func mutate(r *rand.Rand, s string, alphabet []string) string {
	at := r.IntN(len(s) + 1)
	piece := alphabet[r.IntN(len(alphabet))]
	switch r.IntN(3) {
	case 0:
		return s[:at] + piece + s[at:]
	case 1:
		if at < len(s) {
			return s[:at] + s[at+1:]
		}
		return s
	default:
		if at < len(s) {
			return s[:at] + piece + s[at+1:]
		}
		return s + piece
	}
}

func TestLiteralScannersAgreeOnGenerated(t *testing.T) {
	inputs := generatedLiterals(20000)
	agree.Inputs(t, inputs, literalDisagreement)
	agree.Share(t, "integer", inputs, integerPattern, 200)
	agree.Share(t, "float", inputs, floatPattern, 200)
	agree.Share(t, "local time", inputs, localTimeRegexp, 200)
	agree.Share(t, "no seconds", inputs, noSecondsRegexp, 200)
	agree.Share(t, "date", inputs, dateRegexp, 200)
}

func FuzzLiteralScannersAgreeWithPatterns(f *testing.F) {
	agree.Fuzz(f, literalDisagreement, literalEdges, literalValid)
}
