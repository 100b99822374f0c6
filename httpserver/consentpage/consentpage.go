// Package consentpage is the hosted consent page of SPEC S5.1: one static,
// dependency-free HTML document, embedded in the binary, that GET /consent/{requestId}
// serves to browsers (Accept preferring text/html over application/json).
//
// The page is the same for every request. It reads the consent context from its own
// URL with Accept: application/json, shows who asks, what and why, connects an
// EIP-1193 wallet (window.ethereum), has it sign the Consent typed data with
// eth_signTypedData_v4 using the context's approve-all or reject preset, and posts
// the decision to the same URL. It has one inline script and one inline style, and
// the Content-Security-Policy allows exactly those two by their SHA-256 hashes,
// computed here from the embedded bytes, so the page cannot drift from its policy.
package consentpage

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

//go:embed index.html
var page []byte

// MediaType is the content type the page is served with.
const MediaType = "text/html; charset=utf-8"

var (
	scriptHash = mustHash(page, "<script>", "</script>")
	styleHash  = mustHash(page, "<style>", "</style>")
	csp        = "default-src 'none'; " +
		"script-src '" + scriptHash + "'; " +
		"style-src '" + styleHash + "'; " +
		"connect-src 'self'; img-src 'self' data:; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
		"require-trusted-types-for 'script'; trusted-types 'none'"
)

// mustHash returns the CSP source expression ("sha256-<base64>") of the content of
// the only element delimited by open and close in doc; it panics when there is not
// exactly one (a broken embed is a build error, not a runtime condition).
func mustHash(doc []byte, open, close string) string {
	if n := bytes.Count(doc, []byte(open)); n != 1 || bytes.Count(doc, []byte(close)) != 1 {
		panic(fmt.Sprintf("consentpage: index.html must hold exactly one %s element, has %d", open, n))
	}
	_, rest, _ := bytes.Cut(doc, []byte(open))
	body, _, _ := bytes.Cut(rest, []byte(close))
	sum := sha256.Sum256(body)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Page returns a copy of the page's bytes.
func Page() []byte { return bytes.Clone(page) }

// ContentSecurityPolicy returns the policy the page is served with: nothing is
// allowed but its own inline script and style (by hash), fetches to its own origin,
// and data: images (the empty favicon); no base URI, no form targets, no framing,
// and Trusted Types enforced so that no HTML string can reach a DOM sink.
func ContentSecurityPolicy() string { return csp }

// Write answers with the page and its security headers: the Content-Security-
// Policy, nosniff, no referrer, no caching and no framing.
func Write(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", MediaType)
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(page)
}

// PrefersHTML reports whether an Accept header value prefers text/html to
// application/json: the quality the header gives text/html (from its most specific
// matching range: text/html, then text/*, then */*) is higher than the one it gives
// application/json. An absent header, */*, or a tie answers false: JSON is the
// default.
func PrefersHTML(accept string) bool {
	if strings.TrimSpace(accept) == "" {
		return false
	}
	html, _ := AcceptQuality(accept, "text", "html")
	js, _ := AcceptQuality(accept, "application", "json")
	return html > js
}

// AcceptQuality returns the q value an Accept header gives typ/sub (RFC 9110
// §12.5.1): that of the most specific media range that matches (typ/sub, then
// typ/*, then */*), 0 when none does, and whether that range named typ/sub exactly.
// Ranges with a malformed q are ignored. The server's other content negotiations
// (the parcel certificate's PDF) use it too.
func AcceptQuality(accept, typ, sub string) (q float64, exact bool) {
	best, specificity := 0.0, -1
	for part := range strings.SplitSeq(accept, ",") {
		mediaRange, params, _ := strings.Cut(part, ";")
		t, s, ok := strings.Cut(strings.ToLower(strings.TrimSpace(mediaRange)), "/")
		if !ok {
			continue
		}
		t, s = strings.TrimSpace(t), strings.TrimSpace(s)
		var sp int
		switch {
		case t == typ && s == sub:
			sp = 2
		case t == typ && s == "*":
			sp = 1
		case t == "*" && s == "*":
			sp = 0
		default:
			continue
		}
		q, ok := qValue(params)
		if !ok {
			continue
		}
		if sp > specificity || (sp == specificity && q > best) {
			best, specificity = q, sp
		}
	}
	return best, specificity == 2
}

// qValue returns the q parameter among params (";"-separated), 1 without one.
func qValue(params string) (float64, bool) {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(q >= 0 && q <= 1) { // also refuses NaN
			return 0, false
		}
		return q, true
	}
	return 1, true
}
