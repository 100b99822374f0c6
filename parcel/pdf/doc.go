// Package pdf renders a parcel certificate version as a printable, deterministic A4 PDF and
// reads the certificate back out of it.
//
// A page a person reads (owner, parcel, area, GPS, city, notary, dates, the land title
// token, the certificate hash in monospace) carries a QR code of the registry's public
// verification URL, with the URL printed under it for those who cannot scan, and a
// drawing of the parcel. The status printed is the status when the PDF was made; the QR
// code leads to the live one. The signed certificate (the certificate JSON, its hash, the
// EIP-712 typed data and the issuer's signature, as GET /v1/parcels/{id}/certificate
// serves it) is embedded as a document attachment named certificate.json, so that the
// paper's digital twin verifies offline (examples/verify-certificate) without the
// registry.
//
// Languages: the page is in Input.Lang, one of catalogue.Languages (en, fr, es, pt, ar,
// de, it); every word comes from the catalogue's certificate table (common for month
// names, number separators and the drawing's words), dates and numbers are written the
// language's way. Arabic is laid out right to left: the page is mirrored (labels at the
// right, values to their left, the status bar, the drawing and the QR code at the right
// of their rows), and each line reads right to left with its left-to-right runs (ids,
// hashes, numbers, Latin names) kept readable.
//
// Text: the page's fonts are DejaVu Sans, Sans Bold and Sans Mono, embedded in the
// binary (fonts/, Bitstream Vera licence in fonts/LICENSE) and subset into each PDF by
// fpdf, for every language: they cover Latin, Greek, Cyrillic and Arabic with its
// presentation forms, so that owner names print in their own script. A font without a
// glyph for a letter of the owner's name (CJK, say) prints a note that the exact name is
// in the attachment. Every line is typeset by go-text/typesetting: the Unicode
// bidirectional algorithm (UAX #9) splits it into runs of one direction, HarfBuzz shapes
// each run with the font (Arabic letters take their initial, medial, final or isolated
// forms, lam-alef its ligature, brackets are mirrored), UAX #14 breaks lines, and the
// runs are placed in visual order. Each shaped glyph is written as the code point the
// font's cmap maps to it (DejaVu maps every Arabic contextual form to its Presentation
// Forms-B code point) through fpdf's UTF-8 font, so the PDF carries real, selectable
// text, which a reader's text extraction folds back (NFKC) to the letters. Pair kerning
// and Latin ligatures are off, so fpdf's advances equal the shaper's exactly.
//
// Drawing: package parcel/plan computes the parcel's drawing (its surveyed boundary, or
// a circle of its area around the GPS point, north up, scale bar, north arrow) in the
// box's millimetres; Render draws it with vector paths in a framed box, never mirrored
// (a map is a map in every language), with its words from LabelsFor.
//
// Render is deterministic: the same Input gives the same bytes. The file carries no
// wall-clock time (CreationDate and ModDate are the certification time), no random
// document id (the trailer has no /ID), font subsets that depend only on the text, and
// catalog entries in sorted order.
//
// What it trusts: Render trusts its Input (the caller has read it from the store and
// authorised the reader). ExtractCertificate trusts nothing: it accepts arbitrary bytes,
// never panics, bounds what it inflates, and checks the attachment's MD5 checksum and size
// when present; it does not verify the certificate — that is parcel.VerifyCertificate's job.
//
// What it never does: it prints the owner's identity document only as its last four
// characters, never the whole number; of the land title only public chain facts (status,
// standard, contract, chain id, holder and its kind); and it never reaches the network.
//
// Limitation: text is extracted from a right-to-left line in visual order by some
// readers; poppler's pdftotext reorders it to reading order, but a mirrored bracket
// comes out as the other bracket (the glyph drawn is that bracket's).
//
// Libraries:
//   - github.com/go-pdf/fpdf writes the PDF: a pure-Go, dependency-free descendant of the
//     long-lived FPDF that supports document attachments (SetAttachments), sorted catalog
//     output, fixed creation/modification dates and subset UTF-8 TrueType fonts, which are
//     exactly what a deterministic certificate with an embedded JSON needs;
//     signintech/gopdf has no attachments.
//   - github.com/go-text/typesetting shapes and orders the text: the maintained pure-Go
//     port of HarfBuzz with UAX #9 bidi and UAX #14 line breaking (the Gio and Fyne
//     toolkits' text stack); fpdf has no shaping and only a naive right-to-left mode,
//     which cannot join Arabic letters.
//   - github.com/boombuler/barcode encodes the QR code: pure Go, maintained (v1.1.0,
//     2025), a deterministic module matrix that we draw as vector squares (crisp at any
//     print size, no image in the file); it is also the encoder fpdf's own barcode helper
//     builds on. github.com/makiuchi-d/gozxing (a port of ZXing) decodes it in the tests
//     only.
package pdf
