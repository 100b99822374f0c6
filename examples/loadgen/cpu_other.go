//go:build !unix

package main

import "time"

// processCPU is 0 where getrusage does not exist: the report then omits cpuSeconds.
func processCPU() time.Duration { return 0 }
