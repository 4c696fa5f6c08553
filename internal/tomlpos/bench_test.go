package tomlpos

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2/unstable"
)

// The reader's part of the linear-growth target (docs/benchmarks.md,
// "Linear growth"): ten times the input costs at most twelve times the
// time. Each benchmark parses inputs at 1x, 10x and 100x of a base size.

// benchParse parses input(base*x) for x of 1, 10 and 100.
func benchParse(b *testing.B, base int, input func(n int) string) {
	benchEach(b, base, input, func(data []byte) error {
		_, err := Parse("c.toml", data)
		return err
	})
}

// benchEach runs parse on input(base*x) for x of 1, 10 and 100, generated
// outside the timer.
func benchEach(b *testing.B, base int, input func(n int) string, parse func([]byte) error) {
	for _, x := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("x=%d", x), func(b *testing.B) {
			data := []byte(input(base * x))
			if err := parse(data); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseDepth: one header of 200, 2,000 and 20,000 dotted segments.
func BenchmarkParseDepth(b *testing.B) {
	benchParse(b, 200, depthInput)
}

func depthInput(n int) string { return "[" + strings.Repeat("a.", n-1) + "a]\nk = 1\n" }

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
	benchParse(b, 800, widthInput)
}

func widthInput(n int) string { return "x = [" + strings.Repeat("1, \"é\", ", n/2) + "]\n" }

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

// benchGoTOML times go-toml's own parser alone on the same inputs: every
// expression read, nothing built. It is the floor under Parse, which reads
// every document through it, and is printed by scripts/bench.sh beside the
// reader's own ratios.
func benchGoTOML(b *testing.B, base int, input func(n int) string) {
	benchEach(b, base, input, func(data []byte) error {
		var p unstable.Parser
		p.Reset(data)
		for p.NextExpression() {
		}
		return p.Error()
	})
}

// BenchmarkGoTOMLDepth: go-toml alone on the input of BenchmarkParseDepth.
func BenchmarkGoTOMLDepth(b *testing.B) {
	benchGoTOML(b, 200, depthInput)
}

// BenchmarkGoTOMLWidth: go-toml alone on the input of BenchmarkParseWidth.
func BenchmarkGoTOMLWidth(b *testing.B) {
	benchGoTOML(b, 800, widthInput)
}
