// Package htmlpage is the plumbing the server's HTML pages share (the consent,
// owner-consent, registry verification and attestation pages, and the dashboard):
// the security headers they are served with, the CSP hash of an inline element and
// the policy of a page with one inline script and one inline style, the weight of an
// Accept range, the entries of a language switcher, and the path of a QR code drawn
// as inline SVG. Each page keeps its own markup; their wording is in the one message
// catalogue (internal/catalogue).
package htmlpage
