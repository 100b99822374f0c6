package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/pdf"
)

func TestRun(t *testing.T) {
	now := func() time.Time { return fixtureNow }
	cases := []struct {
		name   string
		args   []string
		code   int
		out    string // prefix of stdout (or substring of stderr for usage errors)
		detail string // substring of stderr
	}{
		{"current", []string{"-cert", fixture("v2.json"), "-issuer", issuer, "-statuses", fixture("statuses.json")}, 0, "CURRENT", "not in the complete status list"},
		{"current from the PDF", []string{"-cert", fixture("v2.pdf"), "-issuer", issuer, "-statuses", fixture("statuses.json")}, 0, "CURRENT", "version 2"},
		{"current, no status list", []string{"-cert", fixture("v2.pdf"), "-issuer", strings.ToLower(issuer)}, 0, "CURRENT", "not checked"},
		{"chain 1 given", []string{"-cert", fixture("v2.json"), "-issuer", issuer, "-chain-id", "1"}, 0, "CURRENT", ""},
		{"comma-separated issuers", []string{"-cert", fixture("v2.json"), "-issuer", otherIssuer + "," + issuer}, 0, "CURRENT", ""},
		{"superseded (JSON:API documents)", []string{"-cert", fixture("v1.json"), "-issuer", issuer, "-statuses", fixture("statuses.json")}, 1, "SUPERSEDED", "SUPERSEDED since 2026-11-20T15:00:00Z"},
		{"revoked", []string{"-cert", fixture("v2.pdf"), "-issuer", issuer, "-statuses", fixture("statuses_revoked.json")}, 1, "REVOKED", "REVOKED since 2026-11-21T10:00:00Z"},
		{"tampered", []string{"-cert", fixture("v2_tampered.json"), "-issuer", issuer}, 1, "INVALID: parcel: certificate hash mismatch", ""},
		{"tampered, hash recomputed", []string{"-cert", fixture("v2_tampered_hash.json"), "-issuer", issuer}, 1, "INVALID: parcel: untrusted certificate issuer", ""},
		{"untrusted issuer", []string{"-cert", fixture("v2_other_issuer.json"), "-issuer", issuer}, 1, "INVALID: parcel: untrusted certificate issuer", ""},
		{"other chain", []string{"-cert", fixture("v2.json"), "-issuer", issuer, "-chain-id", "5"}, 1, "INVALID: parcel: untrusted certificate issuer", ""},
		{"forged status list", []string{"-cert", fixture("v2.json"), "-issuer", issuer, "-statuses", fixture("statuses_forged.json")}, 1, "INVALID: parcel: bad status list", ""},
		{"altered status list", []string{"-cert", fixture("v2.json"), "-issuer", issuer, "-statuses", fixture("statuses_altered.json")}, 1, "INVALID: parcel: bad status list", ""},
		{"status list from another chain", []string{"-cert", fixture("v2.json"), "-issuer", issuer, "-statuses", fixture("statuses.json"), "-chain-id", "5"}, 1, "INVALID: parcel: ", ""},
		{"unsigned certificate", []string{"-cert", fixture("v2_bare.json"), "-issuer", issuer}, 1, "INVALID: the file is a certificate without its signature", ""},
		{"PDF with an unsigned certificate", []string{"-cert", fixture("v2_bare.pdf"), "-issuer", issuer}, 1, "INVALID: the file is a certificate without its signature", ""},
		{"status list as certificate", []string{"-cert", fixture("statuses.json"), "-issuer", issuer}, 1, "INVALID: the file is not a signed parcel certificate", ""},
		{"not JSON", []string{"-cert", "main.go", "-issuer", issuer}, 1, "INVALID: the certificate is not valid JSON", ""},
		{"status list not JSON", []string{"-cert", fixture("v2.json"), "-issuer", issuer, "-statuses", "main.go"}, 1, "INVALID: the status list is not valid JSON", ""},

		{"no -cert", []string{"-issuer", issuer}, 2, "-cert is required", ""},
		{"no -issuer", []string{"-cert", fixture("v2.json")}, 2, "-issuer is required", ""},
		{"bad issuer", []string{"-cert", fixture("v2.json"), "-issuer", "0x123"}, 2, "not a 0x address", ""},
		{"chain 0", []string{"-cert", fixture("v2.json"), "-issuer", issuer, "-chain-id", "0"}, 2, "-chain-id", ""},
		{"missing file", []string{"-cert", fixture("nope.json"), "-issuer", issuer}, 2, "no such file", ""},
		{"missing status list", []string{"-cert", fixture("v2.json"), "-issuer", issuer, "-statuses", fixture("nope.json")}, 2, "no such file", ""},
		{"unknown flag", []string{"-x"}, 2, "not defined", ""},
		{"extra argument", []string{"-cert", "a", "-issuer", issuer, "b"}, 2, "unexpected argument", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.args, &stdout, &stderr, now)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, stdout.String(), stderr.String())
			}
			if c.code == 2 {
				if !strings.Contains(stderr.String(), c.out) || stdout.Len() != 0 {
					t.Fatalf("stderr %q lacks %q (stdout %q)", stderr.String(), c.out, stdout.String())
				}
				return
			}
			if !strings.HasPrefix(stdout.String(), c.out) || strings.Count(stdout.String(), "\n") != 1 {
				t.Fatalf("stdout = %q, want %q…", stdout.String(), c.out)
			}
			if !strings.Contains(stderr.String(), c.detail) {
				t.Fatalf("stderr = %q, want it to mention %q", stderr.String(), c.detail)
			}
		})
	}
}

// TestPDFEmbedsTheSignedCertificate checks the PDF's attachment: the signed certificate
// whose certificate JSON hashes to the hash printed on the page.
func TestPDFEmbedsTheSignedCertificate(t *testing.T) {
	doc, err := os.ReadFile(fixture("v2.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := pdf.ExtractCertificate(doc)
	if err != nil {
		t.Fatal(err)
	}
	c, err := decodeCertificate(embedded)
	if err != nil {
		t.Fatal(err)
	}
	h, err := parcel.HashCertificateJSON(c.Certificate)
	if err != nil {
		t.Fatal(err)
	}
	if parcel.HashString(h) != c.Hash {
		t.Fatalf("embedded certificate hashes to %s, want %s", parcel.HashString(h), c.Hash)
	}
}
