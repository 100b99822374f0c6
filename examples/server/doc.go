// Command server is veriland's reference server: the library's packages wired to the
// documented routes, with an embedded bbolt database.
//
//	go run ./examples/server                      # serve on 127.0.0.1:8080, data in ./data
//	go run ./examples/server -mint-token -role admin -env SANDBOX
//
// Every flag has a VERILAND_* environment variable (flag wins): -data VERILAND_DATA,
// -addr VERILAND_ADDR, -chain-id VERILAND_CHAIN_ID, -rate-limit VERILAND_RATE_LIMIT,
// -public-origin VERILAND_PUBLIC_ORIGIN, -trust-dir VERILAND_TRUST_DIR,
// -log-level VERILAND_LOG_LEVEL.
package main
