// Command verify-attestation checks a veriland attestation offline: no network, no
// storage, only the attestation file, the trusted issuer address(es) and, optionally,
// a revocation list saved from GET /attestation/revocations.
//
//	verify-attestation -att att.json -issuer 0x2c75… [-issuer 0x…] [-chain-id 1]
//	    [-revocations revocations.json] [-at 2026-11-21T12:00:00Z]
//
// It prints VALID and exits 0, or INVALID: <reason> and exits 1; usage errors exit 2.
package main
