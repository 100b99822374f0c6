// Package pdf renders a parcel certificate version as a printable, deterministic A4 PDF and
// reads the certificate back out of it.
//
// A page a person reads (owner, parcel, area, GPS, city, notary, version, dates, token id,
// the certificate hash in monospace) carries a QR code of the registry's public
// verification URL, with the URL printed under it for those who cannot scan. The status
// printed is the status when the PDF was made; the QR code leads to the live one. The
// signed certificate (the certificate JSON, its hash, the EIP-712 typed data and the
// issuer's signature, as GET /v1/parcels/{id}/certificate serves it) is embedded as a
// document attachment named certificate.json, so that the paper's digital twin verifies
// offline (examples/verify-certificate) without the registry.
//
// Render is deterministic: the same Input gives the same bytes. The file carries no
// wall-clock time (CreationDate and ModDate are the certification time), no random
// document id (the trailer has no /ID), core fonts only (nothing embedded that could
// vary), and catalog entries in sorted order.
//
// What it trusts: Render trusts its Input (the caller has read it from the store and
// authorised the reader). ExtractCertificate trusts nothing: it accepts arbitrary bytes,
// never panics, bounds what it inflates, and checks the attachment's MD5 checksum and size
// when present; it does not verify the certificate — that is parcel.VerifyCertificate's job.
//
// What it never does: it prints the owner's identity document only as its last four
// characters, never the whole number, and it never reaches the network.
//
// Limitation: the standard PDF fonts cover Windows-1252 (Western European scripts);
// characters outside it print as "?" on the page. The embedded certificate.json keeps
// the exact UTF-8 text.
//
// Libraries:
//   - github.com/go-pdf/fpdf writes the PDF: a pure-Go, dependency-free descendant of the
//     long-lived FPDF that supports document attachments (SetAttachments), sorted catalog
//     output and fixed creation/modification dates, which are exactly what a deterministic
//     certificate with an embedded JSON needs; signintech/gopdf has no attachments.
//   - github.com/boombuler/barcode encodes the QR code: pure Go, maintained (v1.1.0,
//     2025), a deterministic module matrix that we draw as vector squares (crisp at any
//     print size, no image in the file); it is also the encoder fpdf's own barcode helper
//     builds on. github.com/makiuchi-d/gozxing (a port of ZXing) decodes it in the tests
//     only.
package pdf
