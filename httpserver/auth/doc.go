// Package auth mints and verifies veriland's bearer tokens (SPEC S2.3).
//
// Tokens are JWTs signed with HS256 and nothing else: the algorithm is pinned, so
// "none", RS256 and every other algorithm are refused before any key is used. The
// header "kid" ("sandbox" or "production") selects one of two secrets, and the token's
// "env" claim must name the same environment, so a token can never cross from one
// environment into the other. "exp" is required; 60 seconds of clock skew are
// tolerated. "exp", "iat" and "nbf" must be JSON numbers (RFC 7519 NumericDate): a
// string such as "1999999999", null or any other JSON type is refused even in a
// correctly signed token. Signature comparison is constant-time (HMAC equality in golang-jwt).
//
// Revocation is not this package's business: a verified token carries its jti and the
// caller refuses revoked ones.
package auth
