package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

const issuer = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"

func TestRun(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC) }
	cases := []struct {
		name string
		args []string
		code int
		out  string // prefix of stdout (or substring of stderr for usage errors)
	}{
		{"valid", []string{"-att", "testdata/attestation_consent.json", "-issuer", issuer}, 0, "VALID"},
		{"valid lower-case issuer, chain", []string{"-att", "testdata/attestation_consent.json", "-issuer", strings.ToLower(issuer), "-chain-id", "1"}, 0, "VALID"},
		{"comma-separated issuers", []string{"-att", "testdata/attestation_liveness.json", "-issuer", "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826," + issuer}, 0, "VALID"},
		{"repeated issuers", []string{"-att", "testdata/attestation_liveness.json", "-issuer", "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826", "-issuer", issuer}, 0, "VALID"},
		{"not revoked yet at -at", []string{"-att", "testdata/attestation_liveness.json", "-issuer", issuer, "-revocations", "testdata/revocations.json", "-at", "2026-11-21T12:30:00Z"}, 0, "VALID"},
		{"revoked", []string{"-att", "testdata/attestation_liveness.json", "-issuer", issuer, "-revocations", "testdata/revocations.json"}, 1, "INVALID: attestation: revoked"},
		{"consent not in the list", []string{"-att", "testdata/attestation_consent.json", "-issuer", issuer, "-revocations", "testdata/revocations.json"}, 0, "VALID"},
		{"expired", []string{"-att", "testdata/attestation_liveness.json", "-issuer", issuer, "-at", "2028-01-01T00:00:00Z"}, 1, "INVALID: attestation: expired"},
		{"untrusted", []string{"-att", "testdata/attestation_consent.json", "-issuer", "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"}, 1, "INVALID: attestation: untrusted issuer"},
		{"wrong chain", []string{"-att", "testdata/attestation_consent.json", "-issuer", issuer, "-chain-id", "5"}, 1, "INVALID: attestation: wrong chain id"},
		{"tampered", []string{"-att", "testdata/bad_badsignature_subject_changed_everywhere.json", "-issuer", issuer}, 1, "INVALID: attestation: bad signature"},
		{"claims changed", []string{"-att", "testdata/bad_claimsmismatch_adult_flipped.json", "-issuer", issuer}, 1, "INVALID: attestation: claims do not match"},
		{"list as attestation", []string{"-att", "testdata/revocations.json", "-issuer", issuer}, 1, "INVALID: "},
		{"not JSON", []string{"-att", "main.go", "-issuer", issuer}, 1, "INVALID: the attestation is not valid JSON"},

		{"no -att", []string{"-issuer", issuer}, 2, "-att is required"},
		{"no -issuer", []string{"-att", "testdata/attestation_consent.json"}, 2, "-issuer is required"},
		{"bad issuer", []string{"-att", "testdata/attestation_consent.json", "-issuer", "0x123"}, 2, "not a 0x address"},
		{"bad -at", []string{"-att", "testdata/attestation_consent.json", "-issuer", issuer, "-at", "yesterday"}, 2, "-at"},
		{"missing file", []string{"-att", "testdata/nope.json", "-issuer", issuer}, 2, "no such file"},
		{"unknown flag", []string{"-x"}, 2, "not defined"},
		{"extra argument", []string{"-att", "a", "-issuer", issuer, "b"}, 2, "unexpected argument"},
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
		})
	}
}
