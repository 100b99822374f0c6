// Package dashboard is the operator dashboard of SPEC S10, served at GET /dashboard:
// one static, dependency-free HTML document embedded in the binary, with no build
// step and no external resource.
//
// The page signs in with an API key (any token the server issued: an admin's, a
// verifier's, a notary's), keeps it in sessionStorage only and sends it as an
// Authorization: Bearer header; it never sets a cookie. Everything it shows and does
// goes through the public API on the same origin: webhook deliveries with their
// attempts and a Replay button, the audit log with its filters and the chain's
// verification, the sandbox's seeded records and scenarios with a Reset button, API
// keys (create, with the token shown once; revoke), parcels and transfers awaiting a
// notary, and every parcel's land title (SPEC S14: the token's status, who holds it —
// the owner's wallet or the registry's custody account — and its mint and burn
// transactions, shortened, the full value in each one's title). The dashboard has no
// private endpoint.
//
// The page has one inline script and one inline style, and its
// Content-Security-Policy allows exactly those two by their SHA-256 hashes, computed
// here from the embedded bytes at start-up, so the page cannot drift from its
// policy. Trusted Types are enforced: the script builds the page with DOM calls and
// textContent only, so no text from the server can become markup.
package dashboard
