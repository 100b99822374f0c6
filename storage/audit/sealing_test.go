package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// An entry appended with a state change is journaled in the same transaction, in
// canonical form, without touching the chain; Seal chains it, once.
func TestAppendIsPendingUntilSealed(t *testing.T) {
	store := openStore(t)
	l := &Log{Now: newClock(t0).Now}
	ctx := context.Background()

	var pending Entry
	require.NoError(t, store.Update(ctx, func(tx storage.Tx) error {
		if err := tx.Put(storage.Bucket(veriland.Sandbox, "requests"), []byte("vrq_1"), []byte("APPROVED")); err != nil {
			return err
		}
		var err error
		pending, err = l.Append(ctx, tx, sample(veriland.Sandbox, 1))
		return err
	}))
	require.Zero(t, pending.Seq)
	require.Empty(t, pending.PrevHash)
	require.Empty(t, pending.Hash)
	require.Equal(t, t0, pending.Time)

	// The journal holds the complete entry; the chain and its head are untouched.
	raw := rawGet(t, store, storage.Bucket(veriland.Sandbox, "audit_pending"), pendingKeyOf(t, store, veriland.Sandbox))
	want, err := canonical(pending.wire())
	require.NoError(t, err)
	require.Equal(t, string(want), string(raw))
	require.NotContains(t, string(raw), `"hash"`)
	require.Equal(t, 1, pendingCount(t, store, veriland.Sandbox))
	require.NoError(t, store.View(ctx, func(tx storage.Tx) error {
		_, err := tx.Get(storage.Bucket(veriland.Sandbox, "audit_head"), headKey)
		require.ErrorIs(t, err, storage.ErrNotFound)
		return tx.Scan(storage.Bucket(veriland.Sandbox, "audit"), storage.Range{}, func(k, _ []byte) error {
			return fmt.Errorf("unexpected entry %x", k)
		})
	}))

	n, err := Seal(ctx, store, veriland.Sandbox)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	got := sealed(t, store, veriland.Sandbox, pending.ID)
	require.Equal(t, uint64(1), got.Seq)
	require.Equal(t, GenesisHash, got.PrevHash)
	got.Seq, got.PrevHash, got.Hash = 0, "", ""
	wantJSON, err := json.Marshal(pending)
	require.NoError(t, err)
	gotJSON, err := json.Marshal(got)
	require.NoError(t, err)
	require.JSONEq(t, string(wantJSON), string(gotJSON), "sealing changes nothing but seq, prevHash and hash")
	require.Zero(t, pendingCount(t, store, veriland.Sandbox))

	n, err = Seal(ctx, store, veriland.Sandbox)
	require.NoError(t, err)
	require.Zero(t, n, "sealing again finds nothing")
	requireValid(t, store, veriland.Sandbox, 1)
	requireValid(t, store, veriland.Production, 0)
}

// pendingKeyOf returns the key of env's only pending record.
func pendingKeyOf(t *testing.T, store storage.Store, env veriland.Environment) []byte {
	t.Helper()
	var keys [][]byte
	require.NoError(t, store.View(context.Background(), func(tx storage.Tx) error {
		return tx.Scan(storage.Bucket(env, pendingBucket), storage.Range{}, func(k, _ []byte) error {
			keys = append(keys, k)
			return nil
		})
	}))
	require.Len(t, keys, 1)
	return keys[0]
}

// Seal works in batches, in the order of the pending keys: time, then the order of
// the appends of one process (here all in one millisecond), whatever the ids.
func TestSealBatches(t *testing.T) {
	tests := []struct {
		name    string
		entries int
		perTx   int // entries appended per transaction
	}{
		{"nothing pending", 0, 1},
		{"one", 1, 1},
		{"one batch exactly", SealBatch, 64},
		{"one more than a batch", SealBatch + 1, 64},
		{"several batches", 2*SealBatch + 3, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := openStore(t)
			l := &Log{Now: newClock(t0).Now} // one millisecond for every entry
			ctx := context.Background()
			for i := 0; i < tt.entries; i += tt.perTx {
				require.NoError(t, store.Update(ctx, func(tx storage.Tx) error {
					for j := i; j < min(i+tt.perTx, tt.entries); j++ {
						if _, err := l.Append(ctx, tx, sample(veriland.Production, j)); err != nil {
							return err
						}
					}
					return nil
				}))
			}
			require.Equal(t, tt.entries, pendingCount(t, store, veriland.Production))

			n, err := Seal(ctx, store, veriland.Production)
			require.NoError(t, err)
			require.Equal(t, tt.entries, n)
			require.Zero(t, pendingCount(t, store, veriland.Production))
			requireValid(t, store, veriland.Production, tt.entries)
			for i, e := range all(t, store, veriland.Production) {
				require.Equal(t, uint64(i+1), e.Seq)
				require.Equal(t, fmt.Sprintf("vrq_%d", i), e.ResourceID, "sealed in the order appended")
			}
			n, err = Seal(ctx, store, veriland.Production)
			require.NoError(t, err)
			require.Zero(t, n)
		})
	}
}

// Entries of different times are sealed in time order, not in the order committed.
func TestSealOrdersByTime(t *testing.T) {
	store := openStore(t)
	clk := newClock(t0)
	ctx := context.Background()
	late := &Log{Now: func() time.Time { return clk.Now().Add(time.Second) }}
	early := &Log{Now: clk.Now}
	_, err := late.Write(ctx, store, sample(veriland.Sandbox, 1))
	require.NoError(t, err)
	_, err = early.Write(ctx, store, sample(veriland.Sandbox, 0))
	require.NoError(t, err)
	entries := all(t, store, veriland.Sandbox) // List seals first
	require.Equal(t, []string{"vrq_0", "vrq_1"}, []string{entries[0].ResourceID, entries[1].ResourceID})
}

func TestSealSafeToRerun(t *testing.T) {
	plain := openStore(t)
	store := rerunStore{plain}
	l := &Log{}
	for i := range 5 {
		_, err := l.Write(context.Background(), plain, sample(veriland.Sandbox, i))
		require.NoError(t, err)
	}
	n, err := Seal(context.Background(), store, veriland.Sandbox)
	require.NoError(t, err)
	require.Equal(t, 5, n)
	requireValid(t, plain, veriland.Sandbox, 5)
	require.Zero(t, pendingCount(t, plain, veriland.Sandbox))
}

func TestSealRefusesBadPendingRecords(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		tamper func(t *testing.T, s storage.Store, key, raw []byte)
		reason string
	}{
		{"undecodable", func(t *testing.T, s storage.Store, key, _ []byte) {
			rawPut(t, s, storage.Bucket(veriland.Sandbox, pendingBucket), key, []byte("not json"))
		}, "undecodable"},
		{"of the other environment", func(t *testing.T, s storage.Store, key, _ []byte) {
			rawDelete(t, s, storage.Bucket(veriland.Sandbox, pendingBucket), key)
			e := sample(veriland.Production, 1)
			e.ID, e.Time = "aud_aaaaaaaaaaaaaaaaaaaaaaaaaa", t0
			raw, err := canonical(e.wire())
			require.NoError(t, err)
			rawPut(t, s, storage.Bucket(veriland.Sandbox, pendingBucket), key, raw)
		}, "belongs to environment"},
		{"already sealed", func(t *testing.T, s storage.Store, key, raw []byte) {
			var e Entry
			require.NoError(t, json.Unmarshal(raw, &e))
			e.Seq, e.PrevHash = 7, GenesisHash
			sealedRaw, err := seal(&e)
			require.NoError(t, err)
			rawPut(t, s, storage.Bucket(veriland.Sandbox, pendingBucket), key, sealedRaw)
		}, "already sealed"},
		{"under another key", func(t *testing.T, s storage.Store, key, raw []byte) {
			moved := bytes.Clone(key)
			moved[0]++
			rawDelete(t, s, storage.Bucket(veriland.Sandbox, pendingBucket), key)
			rawPut(t, s, storage.Bucket(veriland.Sandbox, pendingBucket), moved, raw)
		}, "not stored under its time and id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := openStore(t)
			l := &Log{}
			appendN(t, store, l, nil, veriland.Sandbox, 3)
			_, err := l.Write(ctx, store, sample(veriland.Sandbox, 3))
			require.NoError(t, err)
			key := pendingKeyOf(t, store, veriland.Sandbox)
			tt.tamper(t, store, key, rawGet(t, store, storage.Bucket(veriland.Sandbox, pendingBucket), key))

			_, err = Seal(ctx, store, veriland.Sandbox)
			require.ErrorIs(t, err, ErrCorrupt)
			require.ErrorContains(t, err, tt.reason)

			// Verify reports the entry that cannot be sealed; List still lists.
			rep, err := Verify(ctx, store, veriland.Sandbox)
			require.NoError(t, err)
			require.False(t, rep.Valid)
			require.Equal(t, uint64(4), rep.FirstBrokenSeq)
			require.Equal(t, 3, rep.Entries)
			require.Contains(t, rep.Reason, tt.reason)
			require.Len(t, all(t, store, veriland.Sandbox), 3)
		})
	}
}

func TestSealRejectsBadEnvironment(t *testing.T) {
	_, err := Seal(context.Background(), openStore(t), "STAGING")
	require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed))
}

// RunSealing seals at once, when entries are one interval old, and once more on
// shutdown.
func TestRunSealing(t *testing.T) {
	tests := []struct {
		name  string
		every time.Duration
	}{
		{"ticks", time.Millisecond},
		{"at start and on shutdown", time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := openStore(t)
			l := &Log{}
			ctx := context.Background()
			_, err := l.Write(ctx, store, sample(veriland.Sandbox, 0))
			require.NoError(t, err)
			_, err = l.Write(ctx, store, sample(veriland.Production, 1))
			require.NoError(t, err)

			rctx, cancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() { done <- l.RunSealing(rctx, store, tt.every) }()
			require.Eventually(t, func() bool {
				return pendingCount(t, store, veriland.Sandbox)+pendingCount(t, store, veriland.Production) == 0
			}, 5*time.Second, time.Millisecond, "sealed at start")
			_, err = l.Write(ctx, store, sample(veriland.Sandbox, 2))
			require.NoError(t, err)
			if tt.every == time.Millisecond {
				require.Eventually(t, func() bool { return pendingCount(t, store, veriland.Sandbox) == 0 },
					5*time.Second, time.Millisecond, "sealed at a tick")
			} else {
				time.Sleep(20 * time.Millisecond)
				require.Equal(t, 1, pendingCount(t, store, veriland.Sandbox), "young entries wait")
			}
			cancel()
			require.NoError(t, <-done)
			require.Zero(t, pendingCount(t, store, veriland.Sandbox), "sealed on shutdown")
			requireValid(t, store, veriland.Sandbox, 2)
			requireValid(t, store, veriland.Production, 1)
		})
	}
	require.Error(t, (&Log{}).RunSealing(context.Background(), openStore(t), -time.Second))
}

// RunSealing on several replicas seals about once per interval in all: a replica
// leaves entries younger than the interval to whichever replica finds them old.
func TestRunSealingLeavesYoungEntries(t *testing.T) {
	store := openStore(t)
	clk := newClock(t0)
	l := &Log{Now: clk.Now}
	ctx := context.Background()
	_, err := l.Write(ctx, store, sample(veriland.Sandbox, 0))
	require.NoError(t, err)

	tests := []struct {
		name    string
		advance time.Duration
		pending int
	}{
		{"younger than the interval", 59 * time.Second, 1},
		{"one interval old", time.Second, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk.Advance(tt.advance)
			n, err := l.sealIfDue(ctx, store, veriland.Sandbox, time.Minute)
			require.NoError(t, err)
			require.Equal(t, 1-tt.pending, n)
			require.Equal(t, tt.pending, pendingCount(t, store, veriland.Sandbox))
		})
	}
}

// RunSealing logs a failure that repeats once, keeps sealing the other environment,
// and returns the failure of its final seal.
func TestRunSealingLogsFailures(t *testing.T) {
	store := openStore(t)
	var buf syncBuffer
	l := &Log{Logger: slog.New(slog.NewTextHandler(&buf, nil))}
	ctx := context.Background()
	_, err := l.Write(ctx, store, sample(veriland.Sandbox, 0))
	require.NoError(t, err)
	rawPut(t, store, storage.Bucket(veriland.Sandbox, pendingBucket), pendingKeyOf(t, store, veriland.Sandbox), []byte("??"))

	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- l.RunSealing(rctx, store, time.Millisecond) }()
	time.Sleep(50 * time.Millisecond)
	_, err = l.Write(ctx, store, sample(veriland.Production, 1))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return pendingCount(t, store, veriland.Production) == 0 },
		5*time.Second, time.Millisecond)
	cancel()
	err = <-done
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "SANDBOX")
	require.Equal(t, 1, strings.Count(buf.String(), "audit: sealing entries"), buf.String())
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// replicaTest runs appenders spread over replicas (stores on one database), each
// entry committed with a state change, while every replica runs RunSealing and
// admins list, then checks that every committed entry was sealed exactly once, in a
// gapless chain that verifies, and that nothing rolled back left a trace.
func replicaTest(t *testing.T, replicas []storage.Store, writers, perWriter int) {
	t.Helper()
	ctx := context.Background()
	l := &Log{}
	sctx, stopSealing := context.WithCancel(ctx)
	var sealers sync.WaitGroup
	sealErrs := make(chan error, len(replicas))
	for _, s := range replicas {
		sealers.Go(func() { sealErrs <- l.RunSealing(sctx, s, 2*time.Millisecond) })
	}

	var (
		mu        sync.Mutex
		committed = map[string]veriland.Environment{}
		failed    []error
		writersWG sync.WaitGroup
	)
	boom := errors.New("rolled back")
	for w := range writers {
		store := replicas[w%len(replicas)]
		writersWG.Go(func() {
			for i := range perWriter {
				env := veriland.Sandbox
				if (w+i)%3 == 0 {
					env = veriland.Production
				}
				var e Entry
				err := store.Update(ctx, func(tx storage.Tx) error {
					if err := tx.Put(storage.Bucket(env, "things"), fmt.Appendf(nil, "%d-%d", w, i), []byte("x")); err != nil {
						return err
					}
					var err error
					if e, err = l.Append(ctx, tx, sample(env, i)); err != nil {
						return err
					}
					if i%7 == 6 {
						return boom // a failed change: its entry must vanish with it
					}
					return nil
				})
				mu.Lock()
				switch {
				case err == nil:
					committed[e.ID] = env
				case !errors.Is(err, boom):
					failed = append(failed, err)
				}
				mu.Unlock()
				if i%10 == 0 { // an admin reads (and so seals) meanwhile
					if _, _, err := List(ctx, store, env, Filter{Limit: 5}); err != nil {
						mu.Lock()
						failed = append(failed, err)
						mu.Unlock()
					}
				}
			}
		})
	}
	writersWG.Wait()
	stopSealing()
	sealers.Wait()
	close(sealErrs)
	for err := range sealErrs {
		require.NoError(t, err, "final seal")
	}
	require.Empty(t, failed)

	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		require.Zero(t, pendingCount(t, replicas[0], env), "nothing left pending")
		want := 0
		for _, e := range committed {
			if e == env {
				want++
			}
		}
		rep := requireValid(t, replicas[len(replicas)-1], env, want) // seqs 1..want, linked
		seen := map[string]bool{}
		for i, e := range all(t, replicas[0], env) {
			require.Equal(t, uint64(i+1), e.Seq)
			require.False(t, seen[e.ID], "entry %s sealed twice", e.ID)
			seen[e.ID] = true
			require.Equal(t, env, committed[e.ID], "entry %s was not committed in %s", e.ID, env)
		}
		require.Len(t, seen, want)
		t.Logf("%s: %d entries sealed once each, head %s", env, want, rep.HeadHash[:12])
	}
}

func TestConcurrentAppendersAndSealersBolt(t *testing.T) {
	store := openStore(t)
	// One bbolt file is one process's: the "replicas" share the Store.
	replicaTest(t, []storage.Store{store, store, store}, 24, 30)
}

// racingStore seals through another sealer (the same store) just before the first
// Update of the sealer under test, as a replica that wins the race does.
type racingStore struct {
	storage.Store
	once sync.Once
	won  int
}

func (s *racingStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	var err error
	s.once.Do(func() { s.won, err = Seal(ctx, s.Store, veriland.Sandbox) })
	if err != nil {
		return err
	}
	return s.Store.Update(ctx, fn)
}

// A sealer that finds the head moved since it read the journal reads it again and
// seals nothing twice.
func TestSealAfterAnotherSealer(t *testing.T) {
	plain := openStore(t)
	l := &Log{}
	ctx := context.Background()
	appendN(t, plain, l, nil, veriland.Sandbox, 2)
	for i := range 5 {
		_, err := l.Write(ctx, plain, sample(veriland.Sandbox, i))
		require.NoError(t, err)
	}
	racing := &racingStore{Store: plain}
	n, err := Seal(ctx, racing, veriland.Sandbox)
	require.NoError(t, err)
	require.Equal(t, 5, racing.won)
	require.Zero(t, n, "the other sealer took them all")
	requireValid(t, plain, veriland.Sandbox, 7)
	require.Zero(t, pendingCount(t, plain, veriland.Sandbox))
}

// Seal seals what was pending when it was called and returns even while appenders
// keep the journal full.
func TestSealReturnsWhileAppendersContinue(t *testing.T) {
	store := openStore(t)
	l := &Log{}
	ctx := context.Background()
	for i := range 3 * SealBatch {
		_, err := l.Write(ctx, store, sample(veriland.Sandbox, i))
		require.NoError(t, err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := l.Write(ctx, store, sample(veriland.Sandbox, i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	n, err := Seal(ctx, store, veriland.Sandbox)
	close(stop)
	wg.Wait()
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, 3*SealBatch, "everything pending at the call")
	_, err = Seal(ctx, store, veriland.Sandbox)
	require.NoError(t, err)
	rep, err := Verify(ctx, store, veriland.Sandbox)
	require.NoError(t, err)
	require.True(t, rep.Valid, "%+v", rep)
}
