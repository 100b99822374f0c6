// Package htmlpage is the plumbing the server's HTML pages share (the consent,
// registry verification and attestation pages, and the dashboard): the security
// headers they are served with, the CSP hash of an inline element, and the path of a
// QR code drawn as inline SVG. Each page keeps its own markup, policy and wording.
package htmlpage
