package identity_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

// BenchmarkIssue issues identities with the sandbox provider on bbolt (NoSync, so
// that it measures the package rather than the disk's fsync).
func BenchmarkIssue(b *testing.B) {
	f := newFixture(b, identity.SandboxKYC{})
	f.svc.OnChange = nil // the test recorder scans its bucket; measure the service alone
	ctx := context.Background()
	raw := json.RawMessage(`{"scenario":"success","document":"benchmark"}`)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		_, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{
			SubjectRef: "bench-" + strconv.Itoa(i), CountryCode: "FR", Payload: raw,
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIssueParallel(b *testing.B) {
	f := newFixture(b, identity.SandboxKYC{})
	f.svc.OnChange = nil // the test recorder scans its bucket; measure the service alone
	ctx := context.Background()
	b.ReportAllocs()
	var n atomicCounter
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_, err := f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{
				SubjectRef: "bench-" + strconv.FormatInt(n.next(), 10), CountryCode: "FR",
			})
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
}
