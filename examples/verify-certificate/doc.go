// Command verify-certificate checks a land parcel certificate offline: no network, no
// storage, only the certificate file, the trusted issuer address(es) and, optionally, the
// issuer-signed status list saved from GET /v1/registry/statuses.
//
//	verify-certificate -cert certificate.json|certificate.pdf -issuer 0x2c75… [-issuer 0x…]
//	    [-statuses statuses.json] [-chain-id 1]
//
// -cert is the signed certificate as served by GET /v1/parcels/{id}/certificate (the
// JSON:API document or its attributes alone), or the PDF certificate from the same URL
// with Accept: application/pdf, whose attachment certificate.json is that signed
// certificate. A file starting with %PDF- is read as a PDF.
//
// The command recomputes the certificate's keccak256 hash over its JCS canonical JSON,
// recovers the EIP-712 signer and checks it is a trusted issuer, then looks the hash up
// in the status list after checking the list's own signature (parcel.VerifyCertificate).
// It prints one line on standard output:
//
//	CURRENT             the certificate is authentic and not in the status list
//	SUPERSEDED          authentic, but a later version replaced it (a transfer)
//	REVOKED             authentic, but the registry revoked it
//	INVALID: <reason>   altered, not signed by a trusted issuer, or unreadable
//
// and details (parcel, version, hash, signer, how fresh the status is) on standard error.
// Without -statuses, CURRENT only means "authentic": whether the version was superseded
// since is unknown, and the details line says so. A complete status list (fetched
// without since) is the one to keep for offline use.
//
// It exits 0 for CURRENT, 1 for SUPERSEDED, REVOKED or INVALID, and 2 for usage errors.
package main
