package tomlpos

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kokua reads its config with Python's tomllib, which implements TOML 1.0
// and nothing later. go-toml's parser reads TOML 1.1, so Parse refuses the
// 1.1 additions itself, and reads scalars the way tomllib does:
//
//   - lexically (check10), after go-toml has checked the syntax: inline
//     tables on one line, with no comment and no trailing comma, and only
//     TOML 1.0's escapes in basic strings;
//   - per value, in the builder (checkScalar): numbers and dates matched
//     against tomllib's own patterns, dates checked against the calendar,
//     integers and floats of any size accepted;
//   - per value, in the builder: nesting no deeper than maxDepth.

// maxDepth is how deeply arrays and inline tables may nest. tomllib parses
// them recursively and fails with a RecursionError (Kokua does not start)
// past about 330 inline tables or 500 arrays, fewer when Kokua's own calls
// are on the stack; 200 levels leave Kokua room, and no config comes near.
const maxDepth = 200

// The reader's own limits, which tomllib does not have. Each keeps the
// cost of a hostile file in proportion to its size; a document over one is
// refused at the place it is passed, with a SyntaxError whose Limit is set.
const (
	// MaxNodes bounds the keys, tables and array elements of a document:
	// each costs a few hundred bytes (its node and go-toml's), so an array of 1s written
	// over 16 MiB would otherwise cost gigabytes.
	MaxNodes = 1_000_000
	// MaxKeyBytes bounds one key segment. It protects the reader, not a
	// style: findings repeat the names of their key path (an agent's name,
	// say), so it bounds how much of the output one name can be, times the
	// findings shown. It sits far beyond any name a person writes (Kokua
	// reads keys of any length; a name of a few hundred or a thousand bytes
	// must lint as Kokua reads it).
	MaxKeyBytes = 4096
	// MaxDocumentBytes bounds the document: a node keeps its place as
	// 32-bit byte offsets, which halves the memory a large file costs.
	MaxDocumentBytes = math.MaxInt32
)

// bom is a byte order mark in UTF-8.
var bom = []byte{0xEF, 0xBB, 0xBF}

// check10 looks for the TOML 1.1 syntax go-toml accepts and TOML 1.0 does
// not, in data[:limit], and returns the first place it finds, or nil. The
// data is syntax go-toml accepted up to limit, so outside strings and
// comments every quote, bracket and '#' is structure.
func check10(d []byte, limit int) (from, to int, msg string, found bool) {
	var open []byte // the brackets and braces open at this point
	inline := func() bool { return len(open) > 0 && open[len(open)-1] == '{' }
	for i := 0; i < limit; i++ {
		switch c := d[i]; c {
		case '#':
			if inline() {
				return i, i + 1, "a comment cannot go inside an inline table: TOML 1.0 keeps an inline table on one line", true
			}
			for i < limit && d[i] != '\n' {
				i++
			}
			i-- // the newline is looked at next
		case '\n', '\r':
			if inline() {
				return i, i, "an inline table must close on the line it opens: TOML 1.0 allows no newline between its braces outside a value", true
			}
		case '[', '{':
			open = append(open, c)
		case ']', '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case ',':
			if inline() {
				j := i + 1
				for j < len(d) && (d[j] == ' ' || d[j] == '\t') {
					j++
				}
				if j < len(d) && d[j] == '}' {
					return i, i + 1, "trailing comma in an inline table: TOML 1.0 allows no comma after the last key/value pair", true
				}
			}
		case '"', '\'':
			end, bad := scanString(d, i)
			if bad >= 0 && bad < limit {
				r, w := utf8.DecodeRune(d[bad+1:])
				what := fmt.Sprintf(`\%c is not a TOML 1.0 escape`, r)
				if !unicode.IsGraphic(r) || r == ' ' {
					what = fmt.Sprintf(`a backslash before %#U is not a TOML 1.0 escape`, r)
				}
				return bad, bad + 1 + w, what + `: a basic string may use only \b \t \n \f \r \" \\ \uXXXX and \UXXXXXXXX, ` +
					`and a multi-line one a \ that ends the line`, true
			}
			i = end - 1
		}
	}
	return 0, 0, "", false
}

// scanString returns the offset just past the string that starts at i and
// the offset of its first escape TOML 1.0 does not have, or -1.
func scanString(d []byte, i int) (end, bad int) {
	q := d[i]
	multi := bytes.HasPrefix(d[i:], []byte{q, q, q})
	if q == '\'' {
		return skipTOMLString(d, i), -1
	}
	bad = -1
	j := i + 1
	if multi {
		j = i + 3
	}
	for j < len(d) {
		switch d[j] {
		case '\\':
			if j+1 >= len(d) {
				return len(d), bad
			}
			switch d[j+1] {
			case 'b', 't', 'n', 'f', 'r', '"', '\\', 'u', 'U':
				j += 2
				continue
			case ' ', '\t', '\n', '\r':
				if multi && lineEndingBackslash(d, j+1) {
					j++
					continue
				}
			}
			if bad < 0 {
				bad = j
			}
			j += 2
			continue
		case '\n':
			if !multi {
				return j, bad
			}
		case '"':
			if !multi {
				return j + 1, bad
			}
			if bytes.HasPrefix(d[j:], []byte(`"""`)) {
				n := 3
				for n < 5 && j+n < len(d) && d[j+n] == '"' {
					n++
				}
				return j + n, bad
			}
		}
		j++
	}
	return len(d), bad
}

// lineEndingBackslash reports whether only spaces and tabs stand between
// at and the end of the line.
func lineEndingBackslash(d []byte, at int) bool {
	for at < len(d) && (d[at] == ' ' || d[at] == '\t') {
		at++
	}
	return at == len(d) || d[at] == '\n' || bytes.HasPrefix(d[at:], []byte("\r\n"))
}

// tomllib's patterns for numbers, dates and times, matched against the
// whole value. They are written out by hand as small scanners, one per
// pattern, rather than as regular expressions: kokua-lint then does not
// link the regexp package, whose initialisation every run would pay for.
// Each scanner's comment gives the pattern it accepts, in regular
// expression syntax, with ^ and $ anchoring it to the whole value.

// isDec, isHex, isOct and isBin are the digits of the four bases.
func isDec(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool { return isDec(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
func isOct(c byte) bool { return '0' <= c && c <= '7' }
func isBin(c byte) bool { return c == '0' || c == '1' }

// digitRun reads D(?:_?D)* at s[i:], where D is a digit that isDigit
// accepts, and returns where the run ends, or -1 when s[i] is no digit. An
// underscore is taken only between two digits: a trailing or doubled one
// ends the run before it.
func digitRun(s string, i int, isDigit func(byte) bool) int {
	if i >= len(s) || !isDigit(s[i]) {
		return -1
	}
	i++
	for i < len(s) {
		switch {
		case isDigit(s[i]):
			i++
		case s[i] == '_' && i+1 < len(s) && isDigit(s[i+1]):
			i += 2
		default:
			return i
		}
	}
	return i
}

// sign skips an optional + or - at s[i].
func sign(s string, i int) int {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		return i + 1
	}
	return i
}

// decimalInt reads 0|[1-9](?:_?[0-9])* at s[i:], the integer part of a
// decimal number (no leading zero), and returns where it ends, or -1.
func decimalInt(s string, i int) int {
	if i < len(s) && s[i] == '0' {
		return i + 1
	}
	if i < len(s) && s[i] != '0' {
		return digitRun(s, i, isDec)
	}
	return -1
}

// isInteger reports whether s is a TOML 1.0 integer:
//
//	^(?:0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*|0o[0-7](?:_?[0-7])*|0b[01](?:_?[01])*|[+-]?(?:0|[1-9](?:_?[0-9])*))$
//
// The prefixed forms take no sign.
func isInteger(s string) bool {
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x':
			return digitRun(s, 2, isHex) == len(s)
		case 'o':
			return digitRun(s, 2, isOct) == len(s)
		case 'b':
			return digitRun(s, 2, isBin) == len(s)
		}
	}
	return decimalInt(s, sign(s, 0)) == len(s)
}

// isFloat reports whether s is a TOML 1.0 float, as tomllib's pattern
// reads one (it accepts an integer too):
//
//	^(?:[+-]?(?:0|[1-9](?:_?[0-9])*)(?:\.[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[+-]?(?:inf|nan))$
func isFloat(s string) bool {
	i := sign(s, 0)
	if s[i:] == "inf" || s[i:] == "nan" {
		return true
	}
	i = decimalInt(s, i)
	if i >= 0 && i < len(s) && s[i] == '.' {
		i = digitRun(s, i+1, isDec)
	}
	if i >= 0 && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i = digitRun(s, sign(s, i+1), isDec)
	}
	return i == len(s)
}

// twoDigits reads the two digits at s[i:] as a number between lo and hi,
// and returns it, or -1.
func twoDigits(s string, i, lo, hi int) int {
	if i+2 > len(s) || !isDec(s[i]) || !isDec(s[i+1]) {
		return -1
	}
	if n := int(s[i]-'0')*10 + int(s[i+1]-'0'); lo <= n && n <= hi {
		return n
	}
	return -1
}

// timeOfDay reads a time at s[i:] and returns where it ends, or -1:
//
//	([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])(?:\.[0-9]+)?
//
// A point with no digit after it is left unread.
func timeOfDay(s string, i int) int {
	if twoDigits(s, i, 0, 23) < 0 || !hasByte(s, i+2, ':') ||
		twoDigits(s, i+3, 0, 59) < 0 || !hasByte(s, i+5, ':') ||
		twoDigits(s, i+6, 0, 59) < 0 {
		return -1
	}
	i += 8
	if hasByte(s, i, '.') && i+1 < len(s) && isDec(s[i+1]) {
		i += 2
		for i < len(s) && isDec(s[i]) {
			i++
		}
	}
	return i
}

// hasByte reports whether s[i] is c.
func hasByte(s string, i int, c byte) bool { return i < len(s) && s[i] == c }

// isLocalTime reports whether s is a TOML 1.0 local time: ^time$, time as
// timeOfDay reads it.
func isLocalTime(s string) bool { return timeOfDay(s, 0) == len(s) }

// dateTime reads s as a TOML 1.0 date, with an optional time and offset:
//
//	^([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(?:[Tt ]time(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])?)?$
//
// and returns the year, month and day, and whether s is one.
func dateTime(s string) (year, month, day int, ok bool) {
	if len(s) < 10 || !isDec(s[0]) || !isDec(s[1]) || !isDec(s[2]) || !isDec(s[3]) || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	year = int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	month, day = twoDigits(s, 5, 1, 12), twoDigits(s, 8, 1, 31)
	if month < 0 || day < 0 {
		return 0, 0, 0, false
	}
	if len(s) == 10 {
		return year, month, day, true
	}
	if s[10] != 'T' && s[10] != 't' && s[10] != ' ' {
		return 0, 0, 0, false
	}
	i := timeOfDay(s, 11)
	switch {
	case i < 0 || i == len(s):
	case s[i] == 'Z' || s[i] == 'z':
		i++
	case s[i] == '+' || s[i] == '-':
		if twoDigits(s, i+1, 0, 23) < 0 || !hasByte(s, i+3, ':') || twoDigits(s, i+4, 0, 59) < 0 {
			return 0, 0, 0, false
		}
		i += 6
	}
	if i != len(s) {
		return 0, 0, 0, false
	}
	return year, month, day, true
}

// lacksSeconds reports whether s holds a time written HH:MM, with no
// seconds, anywhere in it:
//
//	(?:^|[Tt ])[0-9]{2}:[0-9]{2}(?:$|[^:0-9])
//
// (the pattern searches s; it is not anchored to the whole value).
func lacksSeconds(s string) bool {
	for i := 0; i+5 <= len(s); i++ {
		if i > 0 && s[i-1] != 'T' && s[i-1] != 't' && s[i-1] != ' ' {
			continue
		}
		if isDec(s[i]) && isDec(s[i+1]) && s[i+2] == ':' && isDec(s[i+3]) && isDec(s[i+4]) &&
			(i+5 == len(s) || s[i+5] != ':' && !isDec(s[i+5])) {
			return true
		}
	}
	return false
}

// readInteger reads an integer as tomllib does: any size. One that does not
// fit in 64 bits is kept at the nearest 64-bit value and flagged.
func readInteger(raw string) (v int64, outOfRange bool, msg string) {
	if !isInteger(raw) {
		return 0, false, fmt.Sprintf("%s is not a TOML 1.0 integer", raw)
	}
	s, base := strings.ReplaceAll(raw, "_", ""), 10
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		if base != 10 {
			s = s[2:]
		}
	}
	v, err := strconv.ParseInt(s, base, 64)
	if err != nil { // only a range error is left
		if s[0] == '-' {
			return math.MinInt64, true, ""
		}
		return math.MaxInt64, true, ""
	}
	return v, false, ""
}

// readFloat reads a float as tomllib does: one too large is infinite.
func readFloat(raw string) (v float64, outOfRange bool, msg string) {
	if !isFloat(raw) {
		return 0, false, fmt.Sprintf("%s is not a TOML 1.0 float", raw)
	}
	s := strings.ReplaceAll(raw, "_", "")
	switch strings.TrimLeft(s, "+-") {
	case "inf":
		if s[0] == '-' {
			return math.Inf(-1), false, ""
		}
		return math.Inf(1), false, ""
	case "nan":
		return math.NaN(), false, ""
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err != nil, ""
}

// checkDatetime checks a date, time or date-time as tomllib does: TOML
// 1.0's forms only (seconds required), and a day the calendar has.
func checkDatetime(raw string) string {
	if isLocalTime(raw) {
		return ""
	}
	year, month, day, ok := dateTime(raw)
	if !ok {
		if lacksSeconds(raw) {
			return fmt.Sprintf("%s has no seconds: TOML 1.0 writes a time as HH:MM:SS", raw)
		}
		return fmt.Sprintf("%s is not a TOML 1.0 date or time: it is YYYY-MM-DD, HH:MM:SS or both, hours up to 23, "+
			"minutes and seconds up to 59, with Z or an offset ±HH:MM", raw)
	}
	if year == 0 {
		return fmt.Sprintf("%s has year 0, which Kokua's TOML reader does not accept", raw)
	}
	if day > daysIn(year, month) {
		return fmt.Sprintf("%s is not a day of the calendar", raw[:10])
	}
	return ""
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
