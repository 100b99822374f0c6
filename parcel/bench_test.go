package parcel_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

const benchClients = 64

// runConcurrently runs fn(i) for i in [0, n) on benchClients goroutines.
func runConcurrently(n int, fn func(i int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, benchClients)
	for range benchClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

func benchService(b *testing.B, store storage.Store) *parcel.Service {
	ring, err := fieldcrypt.NewKeyring("k1", map[string][]byte{"k1": make([]byte, 32)}, rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	return &parcel.Service{Store: store, Issuer: &attestation.Issuer{Key: issuerKey, ChainID: testChainID},
		Fields: ring, Pepper: []byte("0123456789abcdef-pepper")}
}

// BenchmarkCertify certifies with 64 concurrent clients on a durable (fsync) bbolt
// file: every certification commits its certificate version, token, hash index and
// parcel in one transaction. It reports certifications per second.
func BenchmarkCertify(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	setup, err := bolt.Open(path, bolt.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	svc := benchService(b, setup)
	ids := make([]string, b.N)
	if err := runConcurrently(b.N, func(i int) error {
		p, err := svc.Create(ctx, owner, validRequest())
		if err == nil {
			ids[i] = p.ID
		}
		return err
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
		_, err := svc.Certify(ctx, notary, ids[i])
		return err
	}); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "certifications/s")
	st := store.Stats()
	b.ReportMetric(float64(st.Transactions)/float64(max(st.Commits, 1)), "tx/commit")
}

// BenchmarkBoltGroupCommit is the baseline: 64 concurrent clients each committing one
// small durable write on the same bbolt file.
func BenchmarkBoltGroupCommit(b *testing.B) {
	store, err := bolt.Open(filepath.Join(b.TempDir(), "raw.db"), bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	b.ResetTimer()
	if err := runConcurrently(b.N, func(i int) error {
		return store.Update(ctx, func(tx storage.Tx) error {
			return tx.Put("bench", fmt.Appendf(nil, "%012d", i), make([]byte, 512))
		})
	}); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkVerifyHash measures the public registry lookup.
func BenchmarkVerifyHash(b *testing.B) {
	f := newFixture(b, nil)
	p := f.certified(b)
	h, _ := parcel.ParseHash(p.CertificateHash)
	ctx := context.Background()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := f.svc.VerifyHash(ctx, p.Env, h); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
