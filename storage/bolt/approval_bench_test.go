package bolt_test

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// BenchmarkUpdateApprovalShaped is the raw group commit of BenchmarkUpdate with 64
// writers, but each transaction makes the writes of one consent approval through
// the reference server (measured on it by logging Put and Delete): a 495-byte audit
// entry and three empty index entries under time-ordered keys; a 3,113-byte webhook
// delivery and a 989-byte attestation under random ids; an index entry under the
// subject; a 652-byte rewrite of an existing request under its random id; and the
// delete of its time-ordered expiry entry. The requests exist before the timer.
//
// It is the anchor scripts/bench.sh prints next to the small-write anchor:
// the same durable group commit, doing the same page writes as an approval but
// none of its CPU work (HTTP, JSON, signature recovery, signing).
func BenchmarkUpdateApprovalShaped(b *testing.B) {
	s, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ids := make([]string, b.N)
	expiry := make([][]byte, b.N)
	request := make([]byte, 652)
	start := time.Now()
	for lo := 0; lo < b.N; lo += 1000 {
		err := s.Update(context.Background(), func(tx storage.Tx) error {
			for i := lo; i < min(lo+1000, b.N); i++ {
				ids[i] = randomID("vrq_")
				expiry[i] = timeKey(start.Add(time.Duration(i)*time.Millisecond), ids[i])
				if err := tx.Put("SANDBOX/consent_requests", []byte(ids[i]), request); err != nil {
					return err
				}
				if err := tx.Put("SANDBOX/consent_expiry", expiry[i], nil); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	audit, delivery, att := make([]byte, 495), make([]byte, 3113), make([]byte, 989)
	var next atomic.Int64
	before := s.Stats()
	b.ResetTimer()
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				now := time.Now()
				msg, atID := randomID("msg_"), randomID("att_")
				err := s.Update(context.Background(), func(tx storage.Tx) error {
					for _, w := range []struct {
						bucket string
						key    []byte
						value  []byte
					}{
						{"SANDBOX/audit_pending", timeKey(now, randomID("aud_")), audit},
						{"global/webhook_due", timeKey(now, "SANDBOX\x00"+msg), nil},
						{"SANDBOX/webhook_deliveries_by_created", timeKey(now, msg), nil},
						{"SANDBOX/webhook_deliveries_by_verifier", append([]byte("verifier-bench\x00"), timeKey(now, msg)...), nil},
						{"SANDBOX/webhook_deliveries", []byte(msg), delivery},
						{"SANDBOX/attestations", []byte(atID), att},
						{"SANDBOX/attestations_by_subject", append([]byte("did:veriland:bench\x00CONSENT\x00"), timeKey(now, atID)...), nil},
						{"SANDBOX/consent_requests", []byte(ids[i]), request},
					} {
						if err := tx.Put(w.bucket, w.key, w.value); err != nil {
							return err
						}
					}
					return tx.Delete("SANDBOX/consent_expiry", expiry[i])
				})
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	st := s.Stats()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "txs/s")
	b.ReportMetric(float64(b.N)/float64(max(st.Commits-before.Commits, 1)), "txs/commit")
	b.ReportMetric(float64((st.WriterTime-before.WriterTime).Microseconds())/float64(b.N), "writer-µs/tx")
}

// randomID is prefix and 26 characters of random base32, the shape of the
// service's ids.
func randomID(prefix string) string {
	var r [16]byte
	_, _ = rand.Read(r[:])
	return prefix + base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(r[:])[:26]
}

// timeKey is an 8-byte big-endian time in nanoseconds followed by suffix: a key
// that sorts in time order, as the service's journal and index keys do.
func timeKey(t time.Time, suffix string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())), suffix...)
}
