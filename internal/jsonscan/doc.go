// Package jsonscan holds a strict JSON scanner for decoders' fast paths: the
// primitives (white space, single bytes, literals, strings, numbers, objects,
// arrays, skipping a value) from which a caller reads one known document shape
// straight into its own types, in one pass and without reflection.
//
// Every primitive accepts a subset of what encoding/json accepts, never more, and
// where it returns a value (PlainString, Float) it is the value encoding/json
// decodes: strings only without escapes and in valid UTF-8, numbers only within
// float64's range. A primitive that cannot vouch for its input reports false and
// leaves the decision to the caller, which then decodes with encoding/json, so that
// errors and edge cases are always encoding/json's own. The scanner never allocates
// and never copies: the byte slices it returns alias its input.
package jsonscan
