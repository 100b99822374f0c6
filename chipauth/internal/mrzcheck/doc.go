// Package mrzcheck computes ICAO Doc 9303-3 check digits, for chipauth (which
// verifies them) and chipauth/sandbox (which writes them).
package mrzcheck
