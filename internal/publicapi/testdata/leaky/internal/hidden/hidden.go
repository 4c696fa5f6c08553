// Package hidden stands for an internal package of the module in the
// fixture of TestFindsInternalTypes.
package hidden

// T is an internal type.
type T struct{}

// Kind is an internal type of constants.
type Kind int

// C is a constant of an internal type.
const C Kind = 1

// WithField has an exported field of an internal type.
type WithField struct{ F T }
