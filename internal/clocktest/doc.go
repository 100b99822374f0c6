// Package clocktest is the settable clock veriland's tests inject wherever a package
// takes a `Now func() time.Time`, so that expiry, rate limits and retry schedules are
// tested without sleeping.
package clocktest
