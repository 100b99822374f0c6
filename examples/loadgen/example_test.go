package main

import (
	"context"
	"fmt"
	"os"
)

// The generator only loads this machine: a remote address is refused before anything
// is sent.
func Example() {
	code := run(context.Background(), []string{"-addr", "http://veriland.example:8080", "-scenario", "health"}, os.Stdout, os.Stdout)
	fmt.Println("exit", code)
	// Output:
	// loadgen: -addr http://veriland.example:8080: host veriland.example is not a loopback address; load is only generated against loopback (pass -allow-remote to override)
	// usage: loadgen [-addr http://127.0.0.1:8080[,http://127.0.0.1:8081...]] [-scenario health|consent|siwe] [-n 1000] [-c 32] [-duration 60s] [-token T] [-json]
	// exit 2
}
