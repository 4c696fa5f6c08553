// Package mutable holds each kind of exported variable TestNoMutableVars
// looks for, and those it lets be.
package mutable

import "errors"

// Map, Slice, Array and Named are mutable from outside.
var (
	Map   = map[string]string{}
	Slice = []string{"a"}
	Array = [2]int{}
	Named = names{"a"}
)

type names []string

// Err is a sentinel error, compared, not changed; hidden is unexported.
var (
	Err    = errors.New("e")
	hidden = map[string]bool{}
)

// Use keeps hidden used.
func Use() bool { return hidden[""] }
