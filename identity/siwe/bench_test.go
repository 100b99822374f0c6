package siwe_test

import (
	"context"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity/siwe"
)

// BenchmarkVerify measures one full login: nonce issue (not timed), then parse, origin
// and time checks, signature recovery and the nonce-consuming transaction (bbolt,
// NoSync).
func BenchmarkVerify(b *testing.B) {
	svc, clk := newService(b)
	key := testKey(b, 1)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		nonce, _, err := svc.NewNonce(ctx)
		if err != nil {
			b.Fatal(err)
		}
		text := message(key, nonce, clk.Now()).String()
		sig := hex0x(sign(b, key, text))
		b.StartTimer()
		if _, err := svc.Verify(ctx, veriland.Sandbox, text, sig); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse measures the message parser alone.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := siwe.Parse(full); err != nil {
			b.Fatal(err)
		}
	}
}
