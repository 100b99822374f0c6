package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// With a fresh sandbox CSCA and Document Signer, the command prints the body of
// POST /identity/chip-verify for a chosen MRZ.
func Example() {
	dir, _ := os.MkdirTemp("", "sandbox-sod-example")
	defer os.RemoveAll(dir)
	var out bytes.Buffer
	code := run([]string{"-new", "-save", filepath.Join(dir, "pki"), "-doc-number", "L898902C3", "-liveness", "att_aaaaaaaaaaaaaaaaaaaaaaaaaa"}, &out, io.Discard)
	var body map[string]any
	_ = json.Unmarshal(out.Bytes(), &body)
	var members []string
	for k := range body {
		members = append(members, k)
	}
	sort.Strings(members)
	fmt.Println(code, members)
	// Output: 0 [dataGroups livenessAttestationId sodBase64]
}
