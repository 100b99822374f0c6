// Command loadgen drives a running veriland server over HTTP and reports throughput
// and latency. It only ever talks to the address it is given, and refuses any -addr
// whose host is not a loopback address or "localhost" unless -allow-remote is set.
// It is bounded: at most -n requests (≤ 100000) on -c workers (≤ 1024), and it stops
// by itself at the -duration cap (default 60s).
//
// Run it against the reference server with its rate limit off (with the limit on,
// 429s swamp the numbers; the report says so when it sees any):
//
//	go run ./examples/server -data /tmp/vl -rate-limit off &
//	TOKEN=$(go run ./examples/server -data /tmp/vl -mint-token -role admin -env SANDBOX -acct acct_load)
//	go run ./examples/loadgen -token $TOKEN -scenario consent -n 3000 -c 64
//	go run ./examples/loadgen -scenario health -n 20000 -c 32 -json
//
// -addr may list several base URLs, comma-separated: the replicas of one deployment
// sharing a PostgreSQL database (docs/operations.md). Requests then go to each in
// turn, setup included, so a consent is created on one replica, read on the next and
// approved on the third:
//
//	go run ./examples/loadgen -token $TOKEN -scenario consent -n 3000 -c 64 \
//	  -addr http://127.0.0.1:8081,http://127.0.0.1:8082,http://127.0.0.1:8083
//
// Scenarios (-scenario):
//
//   - health: GET /v1/health, expecting 200 — the server's HTTP floor.
//   - consent, the headline number: consent approvals. Setup, not timed and capped
//     separately by -duration: with the admin token (-token or $VERILAND_TOKEN, a
//     SANDBOX token) it creates a verifier API key, generates a holder wallet, issues a
//     SANDBOX identity bound to it, creates -n verification requests for is_adult and
//     nationality, and reads and signs each consent context (APPROVED, disclosing the
//     whole scope) as examples/wallet does. Timed: POST /consent/{id} for all of them,
//     expecting 201 — each is a signature recovery, the state transition, a signed
//     CONSENT attestation and its audit entry in one durable transaction. The requests
//     have no callbackUrl unless -callback is set (a loopback URL ending in /fail
//     also writes the webhook outbox record, answered by the sandbox receiver without
//     any network call).
//   - siwe: Sign-In with Ethereum for one fresh wallet. One request is one round trip:
//     POST /auth/siwe/nonce, sign the EIP-4361 message, POST /auth/siwe, both expecting
//     201. The message is signed for -origin (default -addr), which must be the
//     server's public origin.
//
// The report (or, with -json, one JSON object: scenario, requests, errors, seconds,
// perSecond, p50Ms, p90Ms, p99Ms, maxMs, statusCounts, and concurrency, rateLimited,
// stoppedAtCap, firstError, cpuSeconds) covers the timed phase only; cpuSeconds is
// the load generator's own CPU in it (user + system; omitted where the system does
// not report it). requests counts the
// completed requests, errors those without the expected answer; perSecond counts
// the successful ones over the wall-clock seconds of the phase; latencies are
// nearest-rank percentiles over every completed request, measured client-side from
// before the request is written to after the body is read. statusCounts counts every
// HTTP response (two per siwe request). Requests cut short by the cap are not counted.
//
// Exit status: 0 when every request got its expected answer, 1 when some did not or
// setup failed, 2 for bad flags or a refused address.
package main
