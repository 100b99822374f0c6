//go:build !linux

package main

import "os/exec"

// dieWithParent does nothing outside Linux: the test's cleanups kill the replicas.
func dieWithParent(*exec.Cmd) {}
