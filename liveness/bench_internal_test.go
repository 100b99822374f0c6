package liveness

import (
	"testing"
	"time"
)

// BenchmarkCheckPipeline10k is the pure check pipeline of one verification with
// 10,000 timestamps, signature recovery included, no storage.
func BenchmarkCheckPipeline10k(b *testing.B) {
	rec, dev, req := fuzzFixture(MaxFrameTimestamps)
	rec.Level = L3
	pol := DefaultPolicy()
	in := &verifyInput{req: req, holder: rec.Holder, session: rec, device: dev,
		now: rec.CreatedAt.Add(60 * time.Second), chainID: 1, policy: &pol}
	b.ReportAllocs()
	for b.Loop() {
		v := evaluate(in)
		if len(v.reasons) != 1 || v.reasons[0] != ReasonDeviceTrustTooLow {
			b.Fatalf("reasons %v", v.reasons)
		}
	}
}

// BenchmarkCheckPipeline10kNoSignature is the same without the signature recovery.
func BenchmarkCheckPipeline10kNoSignature(b *testing.B) {
	rec, dev, req := fuzzFixture(MaxFrameTimestamps)
	pol := DefaultPolicy()
	ok := Reason("")
	in := &verifyInput{req: req, holder: rec.Holder, session: rec, device: dev,
		now: rec.CreatedAt.Add(60 * time.Second), chainID: 1, policy: &pol, signature: &ok}
	b.ReportAllocs()
	for b.Loop() {
		if v := evaluate(in); !v.passed() {
			b.Fatalf("reasons %v", v.reasons)
		}
	}
}

// BenchmarkValidate10k is the shape validation of a body with 10,000 timestamps.
func BenchmarkValidate10k(b *testing.B) {
	_, _, req := fuzzFixture(MaxFrameTimestamps)
	b.ReportAllocs()
	for b.Loop() {
		if err := req.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}
