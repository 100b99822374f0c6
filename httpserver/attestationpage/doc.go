// Package attestationpage is the attestation page: what a holder or a
// verifier sees when a browser opens GET /attestation/{id} (Accept preferring
// text/html to application/json).
//
// The page is the same for everyone who asks for one id: it carries no data of the
// attestation, only its id, its public status URL and a QR code of that URL, all
// derived from the request path. Its one inline script reads the reader's access
// token from the URL fragment (#token=…, which browsers never send to a server),
// removes it from the address bar, fetches GET /attestation/{id} as JSON with
// Authorization: Bearer, and GET /attestation/{id}/status for the live status, and
// shows what the attestation says in words. Every value from the server goes into
// the page through textContent only.
//
// The page has one inline script and one inline style; the Content-Security-Policy
// allows exactly those two by their SHA-256 hashes, computed here from the embedded
// template, so the page cannot drift from its policy. Trusted Types are enforced so
// that no HTML string can reach a DOM sink.
//
// The page speaks the languages of the consent page (consentpage.Languages, chosen
// with catalogue.Negotiate): the server renders it in the reader's language with
// its lang and dir, and a language switcher reloads it in another; the labels of
// every language, claim labels included, are in the message catalogue (internal/catalogue/attestation.json), and the script gets
// those of the page's language as a JSON data block.
//
// What it never does: put the token in a query or a cookie, send it anywhere but to
// its own origin's attestation route, or show data before that route has answered
// for the token.
package attestationpage
