package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// -mint-token prints exactly one token and exits, for scripts and operators.
func Example() {
	dir, _ := os.MkdirTemp("", "server-example")
	defer os.RemoveAll(dir)
	var out strings.Builder
	code := run(context.Background(), []string{"-data", dir, "-mint-token", "-role", "verifier", "-sub", "verifier-acme-bank"}, &out, io.Discard)
	fmt.Println(code, strings.Count(out.String(), "\n"), strings.Count(out.String(), "."))
	// Output: 0 1 2
}
