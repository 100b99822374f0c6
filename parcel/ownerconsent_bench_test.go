package parcel_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage/bolt"
)

// BenchmarkDecideOwner records owners' signed approvals with 64 concurrent clients on
// a durable (fsync) bbolt file: each verifies an EIP-712 signature, then commits the
// transfer's change and its event in one transaction. It reports decisions per second.
func BenchmarkDecideOwner(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	setup, err := bolt.Open(path, bolt.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	svc := benchService(b, setup)
	seller := newWallet(b)
	ids := make([]string, b.N)
	decisions := make([]parcel.OwnerDecision, b.N)
	req := validRequest()
	req.Owner.WalletAddress = seller.addr
	if err := runConcurrently(b.N, func(i int) error {
		p, err := svc.Create(ctx, owner, req)
		if err != nil {
			return err
		}
		if _, err := svc.Certify(ctx, notary, p.ID); err != nil {
			return err
		}
		tr, err := svc.RequestTransfer(ctx, owner, p.ID, transferReq("NOT-ABJ-2"))
		if err != nil {
			return err
		}
		ids[i] = tr.ID
		decisions[i] = signDecision(b, tr, seller.key, parcel.DecisionApproved)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	_ = setup.Close()
	store, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	svc.Store = store
	b.ResetTimer()
	if err := runConcurrently(b.N, func(i int) error {
		_, err := svc.DecideOwner(ctx, veriland.Production, ids[i], decisions[i])
		return err
	}); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}
