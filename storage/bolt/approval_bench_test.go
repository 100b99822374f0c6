package bolt_test

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/chainjob"
)

// BenchmarkUpdateApprovalShaped is the raw group commit of BenchmarkUpdate with 64
// writers, but each transaction makes the writes of one consent approval through
// the reference server as scripts/bench.sh runs it (examples/loadgen -scenario
// consent, whose requests have no callbackUrl), measured on it by logging Put and
// Delete: the SANDBOX anchoring job (214 bytes), the pending audit entry (510 bytes)
// and the attestation's subject index entry under time-ordered keys; the 1,056-byte
// attestation under its time-ordered id (ids.NewOrdered); the 648-byte rewrite of the
// existing request under its random id; and the delete of the request's
// time-ordered expiry entry. The requests exist before the timer.
//
// It is the anchor scripts/bench.sh prints next to the small-write anchor:
// the same durable group commit, doing the same page writes as an approval but
// none of its CPU work (HTTP, JSON, signature recovery, signing) and none of the
// work that follows it in other transactions (sealing the audit entry, anchoring).
func BenchmarkUpdateApprovalShaped(b *testing.B) {
	benchApprovalShaped(b, approvalShape{orderedIDs: true})
}

// BenchmarkUpdateApprovalShapedCallback is BenchmarkUpdateApprovalShaped for an
// approval whose request has a callbackUrl (httpserver's BenchmarkConsentApprove,
// and loadgen -callback): it also queues the 3,113-byte webhook delivery under its
// time-ordered id, with its due, by-created and by-verifier index entries.
func BenchmarkUpdateApprovalShapedCallback(b *testing.B) {
	benchApprovalShaped(b, approvalShape{orderedIDs: true, callback: true})
}

// BenchmarkUpdateApprovalShapedRandomIDs is, for information, the two benchmarks
// above with the attestation and delivery under wholly random ids, as before ids
// were time-ordered: each of them then dirties a leaf page of its own per
// transaction.
func BenchmarkUpdateApprovalShapedRandomIDs(b *testing.B) {
	b.Run("callback=no", func(b *testing.B) { benchApprovalShaped(b, approvalShape{}) })
	b.Run("callback=yes", func(b *testing.B) { benchApprovalShaped(b, approvalShape{callback: true}) })
}

// approvalShape says which writes an approval-shaped transaction makes.
type approvalShape struct {
	orderedIDs bool // attestation and delivery ids by ids.NewOrdered (else ids.New)
	callback   bool // a webhook delivery and its three index entries too
}

// id returns a new id of the shape's kind.
func (sh approvalShape) id(prefix string, now time.Time) string {
	var id string
	var err error
	if sh.orderedIDs {
		id, err = ids.NewOrdered(rand.Reader, prefix, now)
	} else {
		id, err = ids.New(rand.Reader, prefix)
	}
	if err != nil {
		panic(err)
	}
	return id
}

// write is one Put.
type write struct {
	bucket     string
	key, value []byte
}

// Record sizes of an approval, as logged on the reference server.
var (
	requestRecord     = make([]byte, 648)
	attestationRecord = make([]byte, 1056)
	auditEntry        = make([]byte, 510)
	anchorJob         = make([]byte, 214)
	deliveryRecord    = make([]byte, 3113)
)

func benchApprovalShaped(b *testing.B, sh approvalShape) {
	s, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	requests := make([]string, b.N)
	expiry := make([][]byte, b.N)
	start := time.Now()
	for lo := 0; lo < b.N; lo += 1000 {
		err := s.Update(context.Background(), func(tx storage.Tx) error {
			for i := lo; i < min(lo+1000, b.N); i++ {
				id, err := ids.New(rand.Reader, "vrq") // request ids stay random
				if err != nil {
					return err
				}
				requests[i] = id
				expiry[i] = timeKey(start.Add(time.Duration(i)*time.Millisecond), requests[i])
				if err := tx.Put("SANDBOX/consent_requests", []byte(requests[i]), requestRecord); err != nil {
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
	subject := []byte("did:veriland:XjP2L2YY8WahRuqmKU6Xms\x00CONSENT\x00")
	var next, order atomic.Int64
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
				att := sh.id("att", now)
				audit := binary.BigEndian.AppendUint64(timeKey(now, ""), uint64(order.Add(1)))
				writes := []write{
					{"SANDBOX/chain_jobs", chainjob.Key(now, "attestation.issue", att), anchorJob},
					{"SANDBOX/attestations", []byte(att), attestationRecord},
					{"SANDBOX/attestations_by_subject", append(binary.BigEndian.AppendUint64(append([]byte(nil), subject...), uint64(now.Unix())), att...), nil},
					{"SANDBOX/consent_requests", []byte(requests[i]), requestRecord},
					{"SANDBOX/audit_pending", append(audit, sh.id("aud", now)...), auditEntry},
				}
				if sh.callback {
					msg := sh.id("msg", now)
					writes = append(writes,
						write{"global/webhook_due", timeKey(now, "SANDBOX\x00"+msg), nil},
						write{"SANDBOX/webhook_deliveries_by_created", timeKey(now, msg), nil},
						write{"SANDBOX/webhook_deliveries_by_verifier", append([]byte("verifier-bench\x00"), timeKey(now, msg)...), nil},
						write{"SANDBOX/webhook_deliveries", []byte(msg), deliveryRecord})
				}
				err := s.Update(context.Background(), func(tx storage.Tx) error {
					for _, w := range writes {
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
	commits := float64(max(st.Commits-before.Commits, 1))
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "txs/s")
	b.ReportMetric(float64(b.N)/commits, "txs/commit")
	b.ReportMetric(float64((st.WriterTime-before.WriterTime).Microseconds())/float64(b.N), "writer-µs/tx")
	b.ReportMetric(float64(st.PagesWritten-before.PagesWritten)/commits, "pages/commit")
	b.ReportMetric(float64((st.PageWriteTime-before.PageWriteTime).Microseconds())/commits, "write+sync-µs/commit")
}

// timeKey is an 8-byte big-endian time in nanoseconds followed by suffix: a key
// that sorts in time order, as the service's journal and index keys do.
func timeKey(t time.Time, suffix string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())), suffix...)
}
