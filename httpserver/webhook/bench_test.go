package webhook

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/veriland/veriland"
)

func BenchmarkSignVerify1KiB(b *testing.B) {
	secrets := testSecrets(b)
	body := bytes.Repeat([]byte("a"), 1<<10)
	h := http.Header{}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		SetHeaders(h, secrets, "msg_bench", testNow, body)
		if err := Verify(h, body, secrets, testNow); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDeliver(b *testing.B) {
	srv, _ := countingServer(b, false, ok204)
	client := NewClient(veriland.Sandbox, CallbackPolicy{})
	secrets := testSecrets(b)
	body := bytes.Repeat([]byte("a"), 1<<10)
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		if a := Deliver(b.Context(), client, srv.URL, secrets, "msg_bench", body, testNow); !a.Succeeded() {
			b.Fatalf("attempt %+v", a)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deliveries/s")
}
