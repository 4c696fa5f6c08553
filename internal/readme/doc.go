// Package readme holds the tests that keep README.md's folder and
// dependency tables equal to the module they describe. It has no code of
// its own.
package readme
