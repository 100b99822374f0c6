package webhook

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/veriland/veriland"
)

type vector struct {
	Secret            string `json:"secret"`
	ID                string `json:"webhook-id"`
	Timestamp         string `json:"webhook-timestamp"`
	Payload           string `json:"payload"`
	ExpectedSignature string `json:"expectedSignature"`
}

func loadVector(t testing.TB) (vector, Secret, time.Time) {
	t.Helper()
	raw, err := os.ReadFile("testdata/standard_webhooks.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vector
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	s, err := ParseSecret(v.Secret)
	if err != nil {
		t.Fatal(err)
	}
	sec, err := strconv.ParseInt(v.Timestamp, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v, s, time.Unix(sec, 0)
}

func vectorHeader(v vector, sig string) http.Header {
	h := http.Header{}
	h.Set(HeaderID, v.ID)
	h.Set(HeaderTimestamp, v.Timestamp)
	h.Set(HeaderSignature, sig)
	return h
}

func TestOfficialVector(t *testing.T) {
	v, s, ts := loadVector(t)
	if got := Sign([]Secret{s}, v.ID, ts, []byte(v.Payload)); got != v.ExpectedSignature {
		t.Fatalf("Sign = %q, want %q", got, v.ExpectedSignature)
	}
	if err := Verify(vectorHeader(v, v.ExpectedSignature), []byte(v.Payload), []Secret{s}, ts); err != nil {
		t.Fatalf("Verify(official vector) = %v", err)
	}
}

func TestVerify(t *testing.T) {
	v, s, ts := loadVector(t)
	other, err := NewSecret(strings.NewReader(strings.Repeat("x", 32)))
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(v.Payload)
	both := Sign([]Secret{other, s}, v.ID, ts, body)
	// What anyone can compute when a configuration forgot the key.
	emptyKeySig := "v1," + base64.StdEncoding.EncodeToString(mac(Secret{}, v.ID, v.Timestamp, body))

	tests := []struct {
		name    string
		header  http.Header
		body    []byte
		secrets []Secret
		now     time.Time
		want    error // nil: accepted
	}{
		{"valid", vectorHeader(v, v.ExpectedSignature), body, []Secret{s}, ts, nil},
		{"valid at the edge of the past tolerance", vectorHeader(v, v.ExpectedSignature), body, []Secret{s}, ts.Add(DefaultTolerance), nil},
		{"valid at the edge of the future tolerance", vectorHeader(v, v.ExpectedSignature), body, []Secret{s}, ts.Add(-DefaultTolerance), nil},
		{"tampered body", vectorHeader(v, v.ExpectedSignature), []byte(`{"test": 2432232315}`), []Secret{s}, ts, ErrNoMatchingSignature},
		{"wrong secret", vectorHeader(v, v.ExpectedSignature), body, []Secret{other}, ts, ErrNoMatchingSignature},
		{"no secrets", vectorHeader(v, v.ExpectedSignature), body, nil, ts, ErrNoMatchingSignature},
		{"zero secret never matches", vectorHeader(v, emptyKeySig), body, []Secret{{}}, ts, ErrNoMatchingSignature},
		{"stale timestamp", vectorHeader(v, v.ExpectedSignature), body, []Secret{s}, ts.Add(DefaultTolerance + time.Second), ErrStaleTimestamp},
		{"future timestamp", vectorHeader(v, v.ExpectedSignature), body, []Secret{s}, ts.Add(-DefaultTolerance - time.Second), ErrFutureTimestamp},
		{"rotation: two signatures, old secret only", vectorHeader(v, both), body, []Secret{s}, ts, nil},
		{"rotation: two signatures, new secret only", vectorHeader(v, both), body, []Secret{other}, ts, nil},
		{"rotation: one signature, two secrets", vectorHeader(v, v.ExpectedSignature), body, []Secret{other, s}, ts, nil},
		{"unknown version ignored", vectorHeader(v, "v1a,Zm9v "+v.ExpectedSignature+" v2,abc"), body, []Secret{s}, ts, nil},
		{"only unknown versions", vectorHeader(v, "v1a,"+v.ExpectedSignature[3:]), body, []Secret{s}, ts, ErrNoMatchingSignature},
		{"signature of another id", vectorHeader(v, Sign([]Secret{s}, "msg_other", ts, body)), body, []Secret{s}, ts, ErrNoMatchingSignature},
		{"truncated signature", vectorHeader(v, v.ExpectedSignature[:20]), body, []Secret{s}, ts, ErrNoMatchingSignature},
		{"signature header without token", vectorHeader(v, "g0hM9SsE+OTPJTGt"), body, []Secret{s}, ts, ErrInvalidHeader},
		{"missing webhook-id", without(vectorHeader(v, v.ExpectedSignature), HeaderID), body, []Secret{s}, ts, ErrMissingHeaders},
		{"missing webhook-timestamp", without(vectorHeader(v, v.ExpectedSignature), HeaderTimestamp), body, []Secret{s}, ts, ErrMissingHeaders},
		{"missing webhook-signature", without(vectorHeader(v, v.ExpectedSignature), HeaderSignature), body, []Secret{s}, ts, ErrMissingHeaders},
		{"no headers", http.Header{}, body, []Secret{s}, ts, ErrMissingHeaders},
		{"signatures on two header lines", added(vectorHeader(v, "v1,Zm9v"), HeaderSignature, v.ExpectedSignature), body, []Secret{s}, ts, nil},
		{"timestamp not a number", with(vectorHeader(v, v.ExpectedSignature), HeaderTimestamp, "1614265330.5"), body, []Secret{s}, ts, ErrInvalidHeader},
		{"negative timestamp", with(vectorHeader(v, v.ExpectedSignature), HeaderTimestamp, "-1"), body, []Secret{s}, ts, ErrInvalidHeader},
		{"huge timestamp", with(vectorHeader(v, v.ExpectedSignature), HeaderTimestamp, "99999999999999999999"), body, []Secret{s}, ts, ErrInvalidHeader},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Verify(tt.header, tt.body, tt.secrets, tt.now)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Verify = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify = %v, want %v", err, tt.want)
			}
			var verr *veriland.Error
			if !errors.As(err, &verr) || verr.Code != veriland.CodeInvalidWebhookSig {
				t.Fatalf("Verify = %#v, want *veriland.Error with code %s", err, veriland.CodeInvalidWebhookSig)
			}
		})
	}
}

func TestVerifierTolerance(t *testing.T) {
	v, s, ts := loadVector(t)
	h, body := vectorHeader(v, v.ExpectedSignature), []byte(v.Payload)
	strict := Verifier{Secrets: []Secret{s}, Tolerance: 30 * time.Second}
	if err := strict.Verify(h, body, ts.Add(31*time.Second)); !errors.Is(err, ErrStaleTimestamp) {
		t.Fatalf("31 s late with 30 s tolerance: %v", err)
	}
	if err := strict.Verify(h, body, ts.Add(-31*time.Second)); !errors.Is(err, ErrFutureTimestamp) {
		t.Fatalf("31 s early with 30 s tolerance: %v", err)
	}
	loose := Verifier{Secrets: []Secret{s}, Tolerance: time.Hour}
	if err := loose.Verify(h, body, ts.Add(59*time.Minute)); err != nil {
		t.Fatalf("59 min late with 1 h tolerance: %v", err)
	}
}

func TestSetHeadersVerifies(t *testing.T) {
	_, s, ts := loadVector(t)
	h := http.Header{}
	body := []byte(`{"type":"verification.approved"}`)
	SetHeaders(h, []Secret{s, {}}, "msg_1", ts, body)
	if n := len(strings.Fields(h.Get(HeaderSignature))); n != 1 {
		t.Fatalf("zero secret produced a signature: %q", h.Get(HeaderSignature))
	}
	if err := Verify(h, body, []Secret{s}, ts); err != nil {
		t.Fatal(err)
	}
	if Sign(nil, "msg_1", ts, body) != "" {
		t.Fatal("Sign with no secrets must return an empty header")
	}
}

func without(h http.Header, key string) http.Header { h.Del(key); return h }

func with(h http.Header, key, value string) http.Header { h.Set(key, value); return h }

func added(h http.Header, key, value string) http.Header { h.Add(key, value); return h }
