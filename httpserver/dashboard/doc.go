// Package dashboard is the operator dashboard of SPEC S10, served at GET /dashboard:
// one dependency-free HTML document embedded in the binary, with no build step and
// no external resource.
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
// # Languages
//
// The page speaks the seven languages of internal/catalogue (English, French,
// Spanish, Portuguese, Arabic, German, Italian), chosen as every page chooses
// (Language, catalogue.Negotiate): the ?lang= of its language switcher, else the
// reader's Accept-Language matched on the primary subtag, else English; the answer
// says so in Content-Language and varies on Accept-Language. index.html is an
// html/template rendered once per language at start-up: its static words come from
// the catalogue's dashboard table (internal/catalogue/dashboard.json), and the
// script's — statuses in words, counts (one and other; Arabic phrases every count as
// "label: n"), confirmations, errors of its own — from the same table of the page's
// language, embedded as a JSON data block beside the script, with the language's
// date and number patterns and month names from the catalogue's common table
// (Formats), so that the script prints "21 novembre 2026 à 12:00:00 UTC" and
// "1 200 m²" as the server prints dates and numbers (catalogue.DateTime, to the
// second here; catalogue.Number), Arabic with Western digits. Status codes, ids,
// hashes, addresses and the server's own texts (a scenario's description, an error
// document's title) are shown as they are, marked left to right or English. Arabic
// is written right to left (<html lang="ar" dir="rtl">): the style uses logical
// properties only (margin-inline-start, padding-inline-start, text-align: start),
// so the layout mirrors, and codes, times and links are isolated left-to-right
// runs. The switcher reloads the page in the chosen language; the key stays in the
// tab, so the page signs in again and reopens the section that was open.
//
// The page has one inline script and one inline style, the same in every language
// (the language is in the markup and the data block only), and its
// Content-Security-Policy allows exactly those two by their SHA-256 hashes,
// computed here from the renderings at start-up (html/template drops their
// comments), so the page cannot drift from its policy. Trusted Types are enforced:
// the script builds the page with DOM calls and textContent only, so no text from
// the server, and no label, can become markup.
package dashboard
