package storage

import "github.com/veriland/veriland"

// Bucket returns the name of bucket name in environment env's namespace. Every
// environment-scoped record lives in a namespaced bucket, so that a transaction keyed
// by one environment can never read the other's keys.
func Bucket(env veriland.Environment, name string) string {
	return string(env) + "/" + name
}

// Global returns the name of a bucket shared by both environments (configuration,
// secrets metadata); it never holds environment records.
func Global(name string) string {
	return "global/" + name
}
