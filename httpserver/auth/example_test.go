package auth_test

import (
	"crypto/rand"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/auth"
)

func Example() {
	tokens := &auth.Tokens{
		Secrets: auth.Secrets{
			Sandbox:    []byte("a sandbox secret of at least 32 bytes!"),
			Production: []byte("a production secret of at least 32 bytes"),
		},
		Rand: rand.Reader,
	}
	raw, _, err := tokens.Mint(veriland.Principal{Subject: "verifier-acme", Role: veriland.RoleVerifier, Env: veriland.Sandbox}, time.Hour)
	if err != nil {
		panic(err)
	}
	p, err := tokens.Verify(raw)
	fmt.Println(p.Subject, p.Role, p.Env, err)
	// Output: verifier-acme verifier SANDBOX <nil>
}
