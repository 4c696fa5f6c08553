//go:build race

package diff_test

// raced is true in a test binary built with -race, which runs this
// package's generated inputs five to ten times slower: reps then asks a
// quarter of them, as under -short, so that .ci/run's go test -race stays
// well inside go test's ten minutes. The full sizes run in go test ./...
const raced = true
