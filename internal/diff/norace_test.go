//go:build !race

package diff_test

// raced: see race_test.go.
const raced = false
