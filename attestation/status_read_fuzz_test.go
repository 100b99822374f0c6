package attestation

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/veriland/veriland"
)

// FuzzDecodeStatus checks the status decoder against the full one (loadRecord's):
// whatever record the full decoder reads, decodeStatus reads with the same id, status
// and revocation time; and every record decodeStatus refuses, the full decoder refuses
// too, as an internal error.
func FuzzDecodeStatus(f *testing.F) {
	for _, s := range []string{
		`{"attestation":{"id":"att_1","status":"VALID","claims":{"a":true}}}`,
		`{"attestation":{"id":"att_2","status":"REVOKED","revokedAt":"2026-11-21T12:00:00Z","claims":{"b":[1,2]}}}`,
		`{"attestation":{"id":"att_3","status":"VALID","claims":{"b":1.50}},"revocationReason":"x"}`,
		`{"attestation":{"id":"att_4","claims":{"a":1e999}}}`,
		`{"attestation":null}`,
		`{"attestation":{"revokedAt":"not a time"}}`,
		`{"attestation":{"claims":{}`,
		`[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		view, err := decodeStatus(b)
		full, fullErr := decodeFull(b)
		if fullErr == nil {
			if err != nil {
				t.Fatalf("decodeStatus refuses a record the full decoder reads: %v", err)
			}
			want := &StatusView{ID: full.ID, Status: full.Status, RevokedAt: full.RevokedAt}
			if !reflect.DeepEqual(view, want) {
				t.Fatalf("decodeStatus = %+v, full = %+v", view, want)
			}
			return
		}
		if err != nil && veriland.CodeOf(err) != veriland.CodeInternal {
			t.Fatalf("decodeStatus error %v is not internal", err)
		}
	})
}

// decodeFull is loadRecord's decoding of a stored record.
func decodeFull(b []byte) (*Attestation, error) {
	var r record
	if err := json.Unmarshal(b, &r); err != nil || r.Attestation == nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "corrupt attestation record")
	}
	if _, err := r.Attestation.Message(); err != nil {
		return nil, err
	}
	return r.Attestation, nil
}

// FuzzScanStatus checks the one-pass scanner against encoding/json: whenever
// scanStatus answers, json.Unmarshal into statusRecord succeeds with the same members.
func FuzzScanStatus(f *testing.F) {
	for _, s := range []string{
		`{"attestation":{"id":"att_1","kind":"CONSENT","scope":["a","b"],"claims":{"a":true,"n":-1.5e+3},"evidenceHash":"0x00","expiresAt":null,"status":"VALID","issuer":{"address":"0x1","chainId":1},"typedData":{"types":null,"primaryType":"","domain":{},"message":null},"anchor":{"status":"DISABLED"}}}`,
		`{"attestation":{"id":"att_2","status":"REVOKED","revokedAt":"2026-11-21T12:00:00.123Z","claims":{"b":"\u003c\n"}},"revocationReason":"lost","revokedBy":"x"}`,
		` { "attestation" : null } `,
		`{"attestation":{"ID":"x"}}`,
		`{"attestation":{"id":"a\"b"}}`,
		`{"attestation":{"id":"é"}}`,
		`{"attestation":{"claims":null,"status":null,"revokedAt":null}}`,
		`{"attestation":{"revokedAt":"2026-13-01T00:00:00Z"}}`,
		`{"attestation":{"claims":[01]}}`,
		`{"attestation":{"id":"a"},"attestation":{"status":"VALID"}}`,
		`{"a":[[[[[[]]]]]],"attestation":{}} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := scanStatus(b)
		if !ok {
			return
		}
		var r statusRecord
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("scanStatus accepts what encoding/json refuses (%v)", err)
		}
		if (r.Attestation != nil) != got.hasAtt {
			t.Fatalf("hasAtt = %v, encoding/json read %+v", got.hasAtt, r.Attestation)
		}
		if r.Attestation == nil {
			return
		}
		a := r.Attestation
		want := statusFields{id: a.ID, status: string(a.Status), revokedAt: a.RevokedAt, claims: a.Claims, hasAtt: true}
		if got.id != want.id || got.status != want.status || !bytes.Equal(got.claims, want.claims) ||
			(got.claims == nil) != (want.claims == nil) || !reflect.DeepEqual(got.revokedAt, want.revokedAt) {
			t.Fatalf("scanStatus = %+v, encoding/json = %+v", got, want)
		}
	})
}

// TestScanStatusReadsSavedRecords checks that the records saveRecord writes take the
// one-pass path, and read as encoding/json reads them.
func TestScanStatusReadsSavedRecords(t *testing.T) {
	at := time.Date(2026, 11, 21, 12, 0, 0, 123456789, time.UTC)
	for _, tc := range []struct {
		name string
		rec  record
	}{
		{"valid", record{Attestation: &Attestation{ID: "att_1", Kind: KindConsent, Subject: "did:x", Scope: []string{"is_adult"},
			Claims: json.RawMessage(`{"is_adult":true}`), Status: StatusValid}}},
		{"revoked", record{Attestation: &Attestation{ID: "att_2", Kind: KindLiveness, Claims: json.RawMessage(`{"level":"L2","scores":{"hue":0.9}}`),
			Status: StatusRevoked, RevokedAt: &at, RevocationAnchor: &AnchorState{Status: AnchorPending}}, RevocationReason: "lost <card> & \"key\"", RevokedBy: "ops"}},
		{"escaped claims", record{Attestation: &Attestation{ID: "att_3", Claims: json.RawMessage(`{"name":"Adéla \u003cO&apos;Brien\u003e"}`), Status: StatusValid}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.rec)
			if err != nil {
				t.Fatal(err)
			}
			f, ok := scanStatus(b)
			if !ok || !f.hasAtt {
				t.Fatalf("scanStatus(%s) = %+v, %v: not the one-pass path", b, f, ok)
			}
			var want record
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			a := want.Attestation
			if f.id != a.ID || f.status != string(a.Status) || !bytes.Equal(f.claims, a.Claims) || !reflect.DeepEqual(f.revokedAt, a.RevokedAt) {
				t.Errorf("scanStatus = %+v, encoding/json = %+v", f, a)
			}
		})
	}
}
