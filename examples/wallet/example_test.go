package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// A throwaway wallet signs a Sign-In with Ethereum message for a server's nonce.
func Example() {
	var keyOut bytes.Buffer
	run([]string{"new"}, nil, &keyOut, io.Discard, fixedNow)
	var w map[string]string
	_ = json.Unmarshal(keyOut.Bytes(), &w)

	var out bytes.Buffer
	code := run([]string{"siwe", "-key", w["privateKey"], "-nonce", "k3Jd93hFq0a"}, nil, &out, io.Discard, fixedNow)
	var body map[string]string
	_ = json.Unmarshal(out.Bytes(), &body)
	fmt.Println(code, strings.SplitN(body["message"], "\n", 2)[0], len(body["signature"]))
	// Output: 0 127.0.0.1:8080 wants you to sign in with your Ethereum account: 132
}
