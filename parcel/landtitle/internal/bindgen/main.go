// Command bindgen writes LandTitle's Go binding: go-ethereum's abigen generator
// (accounts/abi/abigen.Bind, the code behind `abigen --abi --bin --pkg --type`),
// called as a library at the go-ethereum version of go.mod. Built inside this
// module, it reuses the packages the module already compiles instead of building
// cmd/abigen and its own dependency graph (minutes on a cold cache), and its output is
// byte-identical to abigen's. build.sh runs it.
//
//	go run ./parcel/landtitle/internal/bindgen -abi X.abi -bin X.bin -pkg landtitle -type LandTitle -out binding.go
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi/abigen"
)

func main() {
	abiPath := flag.String("abi", "", "the contract's ABI (JSON)")
	binPath := flag.String("bin", "", "the contract's creation bytecode (hex)")
	pkg := flag.String("pkg", "", "the Go package of the binding")
	typ := flag.String("type", "", "the Go type of the contract")
	out := flag.String("out", "", "the file to write")
	flag.Parse()
	if err := run(*abiPath, *binPath, *pkg, *typ, *out); err != nil {
		fmt.Fprintln(os.Stderr, "bindgen:", err)
		os.Exit(1)
	}
}

func run(abiPath, binPath, pkg, typ, out string) error {
	if abiPath == "" || binPath == "" || pkg == "" || typ == "" || out == "" {
		return fmt.Errorf("-abi, -bin, -pkg, -type and -out are required")
	}
	abi, err := os.ReadFile(abiPath)
	if err != nil {
		return err
	}
	bin, err := os.ReadFile(binPath)
	if err != nil {
		return err
	}
	if strings.Contains(string(bin), "//") {
		return fmt.Errorf("%s references libraries, which this generator does not link", binPath)
	}
	code, err := abigen.Bind([]string{typ}, []string{string(abi)}, []string{string(bin)}, nil, pkg,
		map[string]string{}, map[string]string{})
	if err != nil {
		return err
	}
	return os.WriteFile(out, []byte(code), 0o644)
}
