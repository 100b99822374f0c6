//go:build linux

package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel SIGKILL the replica when the test process dies, so
// that an interrupted test run leaves no server behind.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
