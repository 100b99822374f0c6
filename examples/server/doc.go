// Command server is veriland's reference server: the library's packages wired to the
// documented routes, with an embedded bbolt database.
//
//	go run ./examples/server                      # serve on 127.0.0.1:8080, data in ./data
//	go run ./examples/server -mint-token -role admin -env SANDBOX
//
// Every flag has a VERILAND_* environment variable (flag wins): -data VERILAND_DATA,
// -addr VERILAND_ADDR, -chain-id VERILAND_CHAIN_ID, -rate-limit VERILAND_RATE_LIMIT,
// -public-origin VERILAND_PUBLIC_ORIGIN, -trust-dir VERILAND_TRUST_DIR,
// -log-level VERILAND_LOG_LEVEL, -kyc-url VERILAND_KYC_URL, -kyc-secret
// VERILAND_KYC_SECRET.
//
// KYC: SANDBOX identities go to the sandbox provider (payload.scenario picks the
// outcome). PRODUCTION needs a real provider: -kyc-url (https) and -kyc-secret
// (whsec_<base64>) make PRODUCTION issuance POST each check, signed with the secret
// in Standard Webhooks form, to that URL (identity.HTTPKYC), and accept the
// provider's kyc.completed results at POST /v1/webhooks/kyc, signed with the same
// secret. Without them, PRODUCTION issuance answers 503 unavailable whose detail
// names these flags.
package main
