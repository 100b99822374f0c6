package identity_test

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

func TestHTTPKYC(t *testing.T) {
	secret := []byte("kyc-shared-secret-0123456789")
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

	type seen struct {
		body   map[string]json.RawMessage
		header http.Header
	}
	got := make(chan seen, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		want := identity.SignKYCRequest(secret, r.Header.Get(identity.HeaderKYCID), r.Header.Get(identity.HeaderKYCTimestamp), raw)
		if r.Method != http.MethodPost || !hmac.Equal([]byte(want), []byte(r.Header.Get(identity.HeaderKYCSignature))) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var body map[string]json.RawMessage
		_ = json.Unmarshal(raw, &body)
		got <- seen{body: body, header: r.Header.Clone()}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"outcome":"PENDING","providerRef":"case-42"}`)
	}))
	defer srv.Close()

	p := &identity.HTTPKYC{URL: srv.URL, Secret: secret, Now: func() time.Time { return now }}
	f := newFixture(t, p)
	ctx := context.Background()
	res, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{
		SubjectRef: "http-subject", CountryCode: "FR", Payload: json.RawMessage(`{"documentNumber":"X123"}`),
	})
	require.NoError(t, err)
	require.Equal(t, identity.StatusPendingKYC, res.Status)

	s := <-got
	require.Equal(t, res.DID, s.header.Get(identity.HeaderKYCID))
	require.Equal(t, strconv.FormatInt(now.Unix(), 10), s.header.Get(identity.HeaderKYCTimestamp))
	require.Equal(t, "application/json", s.header.Get("Content-Type"))
	require.JSONEq(t, `"SANDBOX"`, string(s.body["env"]))
	require.JSONEq(t, `"`+res.DID+`"`, string(s.body["did"]))
	require.JSONEq(t, `"FR"`, string(s.body["countryCode"]))
	require.JSONEq(t, `{"documentNumber":"X123"}`, string(s.body["payload"]))
	require.NotContains(t, s.body, "subjectRef", "the subject reference stays with us")

	// The result arrives by webhook, under the provider's reference.
	data := `{"env":"SANDBOX","providerRef":"case-42","outcome":"APPROVED","claims":{"is_adult":true}}`
	c, err := identity.ParseKYCCompletion([]byte(data))
	require.NoError(t, err)
	id, err := f.svc.CompleteKYC(ctx, c.Env, c.Ref(), c.Result())
	require.NoError(t, err)
	require.Equal(t, identity.StatusActive, id.Status)
	require.Equal(t, res.DID, id.DID)
}

func TestHTTPKYCFailures(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		timeout time.Duration
	}{
		{"server error", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) }, 0},
		{"not JSON", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "<html>") }, 0},
		{"unknown outcome", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{"outcome":"MAYBE"}`) }, 0},
		{"too large", func(w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, `{"outcome":"PENDING","providerRef":"`)
			_, _ = w.Write(make([]byte, 70<<10))
		}, 0},
		{"slow", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(300 * time.Millisecond):
			}
		}, 50 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			p := &identity.HTTPKYC{URL: srv.URL, Secret: []byte("k"), Timeout: tt.timeout}
			_, err := p.Check(context.Background(), identity.KYCRequest{Env: veriland.Sandbox, DID: "did:veriland:x", CountryCode: "FR"})
			require.Error(t, err)

			f := newFixture(t, p)
			_, err = f.svc.Issue(context.Background(), veriland.Sandbox, identity.IssueRequest{SubjectRef: "s", CountryCode: "FR"})
			requireCode(t, err, veriland.CodeUnavailable)
		})
	}
	t.Run("unconfigured", func(t *testing.T) {
		_, err := (&identity.HTTPKYC{}).Check(context.Background(), identity.KYCRequest{})
		require.Error(t, err)
	})
}

func TestHTTPKYCDoesNotFollowRedirects(t *testing.T) {
	var leaked bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		leaked = true
		_, _ = io.WriteString(w, `{"outcome":"APPROVED"}`)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	p := &identity.HTTPKYC{URL: srv.URL, Secret: []byte("k")}
	_, err := p.Check(context.Background(), identity.KYCRequest{Env: veriland.Sandbox, DID: "did:veriland:x", CountryCode: "FR", Payload: json.RawMessage(`{}`)})
	require.Error(t, err)
	require.False(t, leaked, "the payload followed a redirect")
}
