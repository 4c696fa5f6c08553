// Package leaky is the fixture of TestFindsInternalTypes: each exported
// name but Clean, Carrier and Own shows the internal type hidden.T (or
// hidden.Kind) in a different place, and the unexported names hide it.
package leaky

import "github.com/kokua-policy/kokua-policy/internal/publicapi/testdata/leaky/internal/hidden"

// Alias names an internal type.
type Alias = hidden.T

// Const has an internal type.
const Const = hidden.C

// Var has an internal type.
var Var hidden.T

// Func takes an internal type.
func Func(hidden.T) {}

// Field has an exported field of an internal type.
type Field struct {
	F  *hidden.T
	ok hidden.T
}

// Embeds promotes, through an unexported field, a method that returns an
// internal type.
type Embeds struct{ inner }

type inner struct{}

func (inner) Get() hidden.T { return hidden.T{} }

// Iface has a method that returns an internal type.
type Iface interface{ Get() hidden.T }

// Map is a map of an internal type.
type Map map[string]hidden.T

// Method has a method that returns an internal type.
type Method struct{}

// Get returns an internal type.
func (Method) Get() hidden.T { return hidden.T{} }

// Promotes embeds, under an unexported alias, an internal struct whose
// exported field a host reaches as Promotes.F.
type Promotes struct{ *promoted }

type promoted = hidden.WithField

// Clean keeps its internal type in an unexported field.
type Clean struct{ h hidden.T }

// Carrier embeds an internal type under an unexported alias, as
// lint.Manifest does; the type has no exported method.
type Carrier struct {
	Name string
	held
}

type held = hidden.T

// Own returns a type of this package.
func Own() *Clean { return &Clean{h: unexported(hidden.T{})} }

func unexported(t hidden.T) hidden.T { return t }

var _ = Field{ok: hidden.T{}}
