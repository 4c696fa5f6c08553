package tomlpos

import (
	"fmt"
	"strings"
	"testing"
)

// The reader's part of the linear-growth target (docs/benchmarks.md,
// "Linear growth"): ten times the input costs at most twelve times the
// time. Each benchmark parses inputs at 1x, 10x and 100x of a base size.

// benchParse parses input(base*x) for x of 1, 10 and 100, generated
// outside the timer.
func benchParse(b *testing.B, base int, input func(n int) string) {
	for _, x := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("x=%d", x), func(b *testing.B) {
			data := []byte(input(base * x))
			if _, err := Parse("c.toml", data); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse("c.toml", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseDepth: one header of 200, 2,000 and 20,000 dotted segments.
func BenchmarkParseDepth(b *testing.B) {
	benchParse(b, 200, func(n int) string { return "[" + strings.Repeat("a.", n-1) + "a]\nk = 1\n" })
}

// BenchmarkParseDottedKey: one dotted key of 200, 2,000 and 20,000 segments.
func BenchmarkParseDottedKey(b *testing.B) {
	benchParse(b, 200, func(n int) string { return strings.Repeat("a.", n-1) + "a = 1\n" })
}

// BenchmarkParseWideUnderDeep: 100, 1,000 and 10,000 keys in a table 200
// segments deep (each key's path once copied the 200 above it).
func BenchmarkParseWideUnderDeep(b *testing.B) {
	benchParse(b, 100, func(n int) string {
		var s strings.Builder
		s.WriteString("[" + strings.Repeat("a.", 199) + "a]\n")
		for i := range n {
			fmt.Fprintf(&s, "k%d = [%d]\n", i, i)
		}
		return s.String()
	})
}

// BenchmarkParseWidth: one line holding an array of 800, 8,000 and 80,000
// elements, some of them not ASCII.
func BenchmarkParseWidth(b *testing.B) {
	benchParse(b, 800, func(n int) string { return "x = [" + strings.Repeat("1, \"é\", ", n/2) + "]\n" })
}

// BenchmarkParseNesting: arrays nested 2, 20 and 199 deep (the limit is
// maxDepth), each level holding 50 elements.
func BenchmarkParseNesting(b *testing.B) {
	for _, depth := range []int{2, 20, 199} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			row := strings.Repeat("1, ", 50)
			data := []byte("x = " + strings.Repeat("["+row, depth) + strings.Repeat("]", depth) + "\n")
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse("c.toml", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
