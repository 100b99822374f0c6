package attestation_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland/attestation"
)

var update = flag.Bool("update", false, "rewrite testdata/attestation_*.json, bad_*.json and revocations.json")

// goldenNow is the verification time of the testdata files.
var goldenNow = time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)

// badReasons maps the first word of testdata/bad_<reason>_<what>.json to the error
// that file must fail with.
var badReasons = map[string]error{
	"malformed":      attestation.ErrMalformed,
	"badsignature":   attestation.ErrBadSignature,
	"untrusted":      attestation.ErrUntrustedIssuer,
	"claimsmismatch": attestation.ErrClaimsMismatch,
	"typeddata":      attestation.ErrTypedDataMismatch,
	"expired":        attestation.ErrExpired,
	"revoked":        attestation.ErrRevoked,
	"notyetvalid":    attestation.ErrNotYetValid,
}

func writeJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", name), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// makeGolden regenerates the files with go test -run TestGolden -update.
func makeGolden(t *testing.T) {
	clock := &fakeClock{t: t0}
	iss := testIssuer(t, issuerKeyHex, clock)
	other := testIssuer(t, otherKeyHex, clock)
	consent, err := iss.Sign(consentDraft())
	if err != nil {
		t.Fatal(err)
	}
	live, err := iss.Sign(livenessDraft())
	if err != nil {
		t.Fatal(err)
	}
	consent.Anchor.Status, live.Anchor.Status = attestation.AnchorDisabled, attestation.AnchorDisabled
	writeJSON(t, "attestation_consent.json", consent)
	writeJSON(t, "attestation_liveness.json", live)

	rl := &attestation.RevocationList{ChainID: 1, IssuedAt: goldenNow, Revocations: []attestation.Revocation{
		{ID: live.ID, RevokedAt: goldenNow.Add(-10 * time.Minute)},
	}}
	if err := attestation.SignRevocationList(rl, iss.Key); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, "revocations.json", rl)

	bad := func(name string, base *attestation.Attestation, mutate func(a *attestation.Attestation)) {
		a := roundTrip(t, base)
		mutate(a)
		writeJSON(t, "bad_"+name+".json", a)
	}
	bad("claimsmismatch_adult_flipped", consent, func(a *attestation.Attestation) {
		a.Claims = json.RawMessage(`{"identity":true,"is_adult":false}`)
	})
	bad("typeddata_subject_changed", consent, func(a *attestation.Attestation) { a.Subject = "did:veriland:mallory" })
	bad("badsignature_subject_changed_everywhere", consent, func(a *attestation.Attestation) {
		a.Subject = "did:veriland:mallory"
		a.TypedData.Message["subject"] = a.Subject
	})
	bad("badsignature_high_s_twin", consent, func(a *attestation.Attestation) { a.Signature = highSTwin(a.Signature) })
	bad("badsignature_truncated", consent, func(a *attestation.Attestation) { a.Signature = a.Signature[:64] })
	bad("badsignature_issuer_swapped", consent, func(a *attestation.Attestation) { a.Issuer.Address = other.Address() })
	bad("malformed_no_kind", consent, func(a *attestation.Attestation) { a.Kind = "" })
	bad("revoked_status", consent, func(a *attestation.Attestation) { a.Status = attestation.StatusRevoked })
	untrusted, err := other.Sign(consentDraft())
	if err != nil {
		t.Fatal(err)
	}
	writeJSON(t, "bad_untrusted_other_key.json", untrusted)
	clock.t = goldenNow.Add(-48 * time.Hour)
	d := livenessDraft()
	d.ValidFor = 24 * time.Hour
	expired, err := iss.Sign(d)
	if err != nil {
		t.Fatal(err)
	}
	writeJSON(t, "bad_expired_one_day.json", expired)
	clock.t = goldenNow.Add(time.Hour)
	future, err := iss.Sign(livenessDraft())
	if err != nil {
		t.Fatal(err)
	}
	writeJSON(t, "bad_notyetvalid_issued_later.json", future)
}

func readAttestation(t *testing.T, path string) *attestation.Attestation {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var a attestation.Attestation
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &a
}

func TestGolden(t *testing.T) {
	if *update {
		makeGolden(t)
	}
	trusted := []common.Address{common.HexToAddress("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23")}
	opts := attestation.VerifyOptions{TrustedIssuers: trusted, ChainID: 1, Now: goldenNow}
	for _, name := range []string{"attestation_consent.json", "attestation_liveness.json"} {
		if err := attestation.Verify(readAttestation(t, filepath.Join("testdata", name)), opts); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	b, err := os.ReadFile("testdata/revocations.json")
	if err != nil {
		t.Fatal(err)
	}
	var rl attestation.RevocationList
	if err := json.Unmarshal(b, &rl); err != nil {
		t.Fatal(err)
	}
	withList := opts
	withList.Revocations = &rl
	if err := attestation.Verify(readAttestation(t, "testdata/attestation_consent.json"), withList); err != nil {
		t.Errorf("consent with the revocation list: %v", err)
	}
	if err := attestation.Verify(readAttestation(t, "testdata/attestation_liveness.json"), withList); !errors.Is(err, attestation.ErrRevoked) {
		t.Errorf("liveness with the revocation list: %v, want ErrRevoked", err)
	}

	files, _ := filepath.Glob("testdata/bad_*.json")
	if len(files) < 10 {
		t.Fatalf("only %d bad vectors", len(files))
	}
	for _, path := range files {
		reason, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(path), "bad_"), "_")
		want, ok := badReasons[reason]
		if !ok {
			t.Errorf("%s: unknown reason %q", path, reason)
			continue
		}
		if err := attestation.Verify(readAttestation(t, path), opts); !errors.Is(err, want) {
			t.Errorf("%s: err = %v, want %v", path, err, want)
		}
	}
}
