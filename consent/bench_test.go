package consent_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
)

// pendingRequests creates n PENDING requests (concurrently, so that group commit keeps
// the setup short) and the signed approvals of each.
func pendingRequests(b *testing.B, f *fixture, n int) ([]*consent.Request, []consent.Decision) {
	b.Helper()
	reqs := make([]*consent.Request, n)
	decs := make([]consent.Decision, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				reqs[i] = f.create(nil)
				decs[i] = signed(b, reqs[i], f.holder, consent.StatusApproved, reqs[i].Scope)
			}
		}()
	}
	wg.Wait()
	return reqs, decs
}

// BenchmarkDecide measures one APPROVED decision end to end on bbolt (fsync on
// commit): read, signature recovery, wallet lookup, CONSENT attestation signing and
// storage, transition, event hook, commit.
func BenchmarkDecide(b *testing.B) {
	f := newFixture(b)
	reqs, decs := pendingRequests(b, f, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := f.svc.Decide(f.ctx, veriland.Sandbox, reqs[i].ID, decs[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}

// BenchmarkDecideParallel is BenchmarkDecide with concurrent holders, where group
// commit shares fsyncs between decisions.
func BenchmarkDecideParallel(b *testing.B) {
	f := newFixture(b)
	reqs, decs := pendingRequests(b, f, b.N)
	var next atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(next.Add(1)) - 1
			if _, err := f.svc.Decide(f.ctx, veriland.Sandbox, reqs[i].ID, decs[i]); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}
