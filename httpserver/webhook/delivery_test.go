package webhook

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/veriland/veriland"
)

var testNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func testSecrets(t testing.TB) []Secret {
	t.Helper()
	s, err := ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	return []Secret{s}
}

func TestDeliver(t *testing.T) {
	secrets := testSecrets(t)
	body := []byte(`{"type":"verification.approved","timestamp":"2026-05-01T12:00:00Z","data":{"requestId":"vrq_1","status":"APPROVED"}}`)
	var got *http.Request
	var gotBody []byte
	srv, hits := countingServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		got = r
		gotBody, _ = io.ReadAll(r.Body)
		w.WriteHeader(http.StatusAccepted)
	})
	a := Deliver(t.Context(), NewClient(veriland.Sandbox, CallbackPolicy{}), srv.URL+"/cb", secrets, "msg_abc", body, testNow)
	if !a.Succeeded() || a.StatusCode != http.StatusAccepted || a.Err != "" {
		t.Fatalf("attempt %+v, want success", a)
	}
	if !a.At.Equal(testNow) || a.Latency <= 0 {
		t.Fatalf("attempt time %v latency %v", a.At, a.Latency)
	}
	if hits.Load() != 1 {
		t.Fatalf("%d requests", hits.Load())
	}
	if got.Method != http.MethodPost || got.Header.Get("Content-Type") != "application/json" || got.Header.Get("User-Agent") != UserAgent {
		t.Fatalf("request %s %q %q", got.Method, got.Header.Get("Content-Type"), got.Header.Get("User-Agent"))
	}
	if got.Header.Get(HeaderID) != "msg_abc" || got.Header.Get(HeaderTimestamp) != "1777636800" {
		t.Fatalf("headers %v", got.Header)
	}
	if err := Verify(got.Header, gotBody, secrets, testNow.Add(time.Minute)); err != nil {
		t.Fatalf("receiver cannot verify the delivery: %v", err)
	}
}

func TestDeliverRotationSignsWithEverySecret(t *testing.T) {
	oldSecret := testSecrets(t)[0]
	newSecret, err := NewSecret(strings.NewReader(strings.Repeat("n", 32)))
	if err != nil {
		t.Fatal(err)
	}
	var header http.Header
	var body []byte
	srv, _ := countingServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		header, body = r.Header.Clone(), must(io.ReadAll(r.Body))
	})
	a := Deliver(t.Context(), NewClient(veriland.Sandbox, CallbackPolicy{}), srv.URL, []Secret{newSecret, oldSecret}, "msg_rot", []byte(`{"x":1}`), testNow)
	if !a.Succeeded() {
		t.Fatalf("attempt %+v", a)
	}
	if n := len(strings.Fields(header.Get(HeaderSignature))); n != 2 {
		t.Fatalf("%d signatures, want 2", n)
	}
	for _, s := range []Secret{oldSecret, newSecret} {
		if err := Verify(header, body, []Secret{s}, testNow); err != nil {
			t.Fatalf("a receiver holding one of the secrets refuses: %v", err)
		}
	}
}

func TestDeliverFailures(t *testing.T) {
	client := NewClient(veriland.Sandbox, CallbackPolicy{})
	status := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }
	}
	for _, code := range []int{http.StatusBadRequest, http.StatusNotFound, http.StatusInternalServerError, http.StatusServiceUnavailable, http.StatusNotModified} {
		srv, _ := countingServer(t, false, status(code))
		a := Deliver(t.Context(), client, srv.URL, testSecrets(t), "msg_1", []byte(`{}`), testNow)
		if a.Succeeded() || a.StatusCode != code || a.Err == "" {
			t.Errorf("HTTP %d: attempt %+v, want failed", code, a)
		}
	}

	if a := Deliver(t.Context(), client, "http://127.0.0.1:1/", nil, "msg_1", []byte(`{}`), testNow); a.Succeeded() || a.Err == "" {
		t.Errorf("no secrets: attempt %+v, want failed", a)
	}
	if a := Deliver(t.Context(), client, "http://10.0.0.1/", testSecrets(t), "msg_1", []byte(`{}`), testNow); a.Succeeded() || !strings.Contains(a.Err, "not allowed") {
		t.Errorf("refused address: attempt %+v", a)
	}
	if a := Deliver(t.Context(), client, "::not a url", testSecrets(t), "msg_1", []byte(`{}`), testNow); a.Succeeded() || a.Err == "" {
		t.Errorf("bad URL: attempt %+v", a)
	}
}

func TestDeliverTimeout(t *testing.T) {
	release := make(chan struct{})
	srv, _ := countingServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select { // never answers while the client waits
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) }) // runs before the server's Close
	// DeliveryTimeout itself is 10 s; a shorter context deadline shows the same path.
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	a := Deliver(ctx, NewClient(veriland.Sandbox, CallbackPolicy{}), srv.URL, testSecrets(t), "msg_1", []byte(`{}`), testNow)
	if a.Succeeded() || a.StatusCode != 0 || a.Err != "no answer within the delivery timeout" {
		t.Fatalf("attempt %+v, want a timeout", a)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
