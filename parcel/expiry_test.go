package parcel_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage"
)

// deadlineEntries counts env's owner-deadline index entries.
func (f *fixture) deadlineEntries(tb testing.TB, env veriland.Environment) int {
	tb.Helper()
	n := 0
	require.NoError(tb, f.store.View(context.Background(), func(tx storage.Tx) error {
		return tx.Scan(storage.Bucket(env, "parcel_owner_deadlines"), storage.Range{}, func(_, _ []byte) error {
			n++
			return nil
		})
	}))
	return n
}

// TestExpireOwnerDeadlines: the sweeper expires each transfer whose owner did not
// answer in time exactly once, with its transfer.expired event, leaves the decided
// and the not yet due ones, frees the parcel, and keeps the deadline index to the
// transfers still waiting.
func TestExpireOwnerDeadlines(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	seller := newWallet(t)
	hour := func(r *parcel.TransferRequest) { r.ExpiresInSeconds = ptr[int64](3600) }
	pDue, due := f.ownerTransfer(t, seller, nil, hour)
	_, decided := f.ownerTransfer(t, seller, nil, hour)
	_, refused := f.ownerTransfer(t, seller, nil, hour)
	_, later := f.ownerTransfer(t, seller, nil, nil) // a week
	_, err := f.svc.DecideOwner(ctx, veriland.Production, decided.ID, signDecision(t, decided, seller.key, parcel.DecisionApproved))
	require.NoError(t, err)
	_, err = f.svc.DecideOwner(ctx, veriland.Production, refused.ID, signDecision(t, refused, seller.key, parcel.DecisionRejected))
	require.NoError(t, err)
	require.Equal(t, 2, f.deadlineEntries(t, veriland.Production), "decided transfers leave the index")

	n, err := f.svc.ExpireOwnerDeadlines(ctx, f.clock.Now().Add(59*time.Minute), 0)
	require.NoError(t, err)
	require.Zero(t, n, "nothing is due yet")

	f.clock.Advance(time.Hour + 5*time.Minute)
	n, err = f.svc.ExpireOwnerDeadlines(ctx, f.clock.Now(), 0)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, 1, f.count(parcel.ActionTransferExpired, due.ID))
	ev := f.lastEvent(t, parcel.ActionTransferExpired)
	require.Equal(t, parcel.ActorSystem, ev.Actor)
	require.Equal(t, string(parcel.TransferExpired), ev.Status)
	require.Equal(t, parcel.ConsentOwnerSignature, ev.OwnerConsent)
	require.Equal(t, 1, f.deadlineEntries(t, veriland.Production), "only the week-long transfer waits")

	n, err = f.svc.ExpireOwnerDeadlines(ctx, f.clock.Now(), 0)
	require.NoError(t, err)
	require.Zero(t, n, "a second sweep finds nothing")
	require.Equal(t, 1, f.count(parcel.ActionTransferExpired, ""))

	got, err := f.svc.GetTransfer(ctx, owner, due.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TransferExpired, got.Status)
	require.Equal(t, *due.OwnerConsent.Deadline, *got.DecidedAt, "it ended at its deadline, whenever the sweep ran")
	for id, want := range map[string]parcel.TransferStatus{decided.ID: parcel.TransferPendingNotary, refused.ID: parcel.TransferRejected, later.ID: parcel.TransferPendingOwner} {
		got, err := f.svc.GetTransfer(ctx, owner, id)
		require.NoError(t, err)
		require.Equal(t, want, got.Status)
	}
	// The parcel is free for another transfer.
	p, err := f.svc.Get(ctx, owner, pDue.ID)
	require.NoError(t, err)
	require.Empty(t, p.OpenTransferID)
	_, err = f.svc.RequestTransfer(ctx, owner, pDue.ID, transferReq("NOT-ABJ-2"))
	require.NoError(t, err)
	require.Equal(t, 2, f.deadlineEntries(t, veriland.Production))
	require.Equal(t, 1, f.count(parcel.ActionTransferExpired, ""), "reads and requests did not expire it again")
}

// TestExpireOwnerDeadlinesLimit: a sweep stops at its limit and the next one goes on,
// across environments.
func TestExpireOwnerDeadlinesLimit(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	seller := newWallet(t)
	for range 3 {
		f.ownerTransfer(t, seller, nil, nil)
	}
	// One in SANDBOX too, waiting for its owner (NOT-SBX-3 would wait anyway).
	req := validRequest()
	req.Notary, req.Owner.WalletAddress = parcel.NotarySandboxSuccess, seller.addr
	sp, err := f.svc.Create(ctx, sbxOwner, req)
	require.NoError(t, err)
	st, err := f.svc.RequestTransfer(ctx, sbxOwner, sp.ID, transferReq(parcel.NotarySandboxSuccess))
	require.NoError(t, err)
	require.Equal(t, parcel.TransferPendingOwner, st.Status, "a sandbox notary waits for the owner too")

	f.clock.Advance(week)
	n, err := f.svc.ExpireOwnerDeadlines(ctx, f.clock.Now(), 2)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	n, err = f.svc.ExpireOwnerDeadlines(ctx, f.clock.Now(), 2)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	n, err = f.svc.ExpireOwnerDeadlines(ctx, f.clock.Now(), 2)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, 4, f.count(parcel.ActionTransferExpired, ""))
	require.Zero(t, f.deadlineEntries(t, veriland.Production)+f.deadlineEntries(t, veriland.Sandbox))
	got, err := f.svc.GetTransfer(ctx, sbxOwner, st.ID)
	require.NoError(t, err)
	require.Equal(t, parcel.TransferExpired, got.Status)
}

// TestExpireOwnerDeadlinesConcurrently: sweepers on several replicas at once (here
// goroutines on one store) expire each due transfer once, with one event each.
func TestExpireOwnerDeadlinesConcurrently(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, nil)
	seller := newWallet(t)
	const transfers, sweepers = 12, 8
	ids := make([]string, transfers)
	for i := range ids {
		_, tr := f.ownerTransfer(t, seller, nil, nil)
		ids[i] = tr.ID
	}
	f.clock.Advance(week)
	counts := make([]int, sweepers)
	errs := make([]error, sweepers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range sweepers {
		wg.Go(func() {
			<-start
			counts[i], errs[i] = f.svc.ExpireOwnerDeadlines(ctx, f.clock.Now(), 0)
		})
	}
	// A reader that notices a due transfer expires it too; it must not double it.
	wg.Go(func() {
		<-start
		_, _ = f.svc.GetTransfer(ctx, owner, ids[0])
		_, _ = f.svc.OwnerConsentContext(ctx, veriland.Production, ids[1])
	})
	close(start)
	wg.Wait()
	total := 0
	for i := range sweepers {
		require.NoError(t, errs[i])
		total += counts[i]
	}
	require.LessOrEqual(t, total, transfers)
	require.GreaterOrEqual(t, total, transfers-2, "only the readers may have expired some first")
	for _, id := range ids {
		require.Equal(t, 1, f.count(parcel.ActionTransferExpired, id), "transfer %s expired once", id)
		got, err := f.svc.GetTransfer(ctx, owner, id)
		require.NoError(t, err)
		require.Equal(t, parcel.TransferExpired, got.Status)
	}
	require.Zero(t, f.deadlineEntries(t, veriland.Production))
}

// TestReadersExpire: a read after the deadline shows EXPIRED (persisted, with its
// event once), whoever reads first.
func TestReadersExpire(t *testing.T) {
	ctx := context.Background()
	reads := map[string]func(f *fixture, id string) (parcel.TransferStatus, error){
		"GetTransfer": func(f *fixture, id string) (parcel.TransferStatus, error) {
			tr, err := f.svc.GetTransfer(ctx, owner, id)
			if err != nil {
				return "", err
			}
			return tr.Status, nil
		},
		"OwnerConsentContext": func(f *fixture, id string) (parcel.TransferStatus, error) {
			v, err := f.svc.OwnerConsentContext(ctx, veriland.Production, id)
			if err != nil {
				return "", err
			}
			return v.Status, nil
		},
	}
	for name, read := range reads {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, nil)
			_, tr := f.ownerTransfer(t, newWallet(t), nil, nil)
			f.clock.Advance(week)
			for range 2 {
				st, err := read(f, tr.ID)
				require.NoError(t, err)
				require.Equal(t, parcel.TransferExpired, st)
			}
			require.Equal(t, 1, f.count(parcel.ActionTransferExpired, tr.ID))
			require.Zero(t, f.deadlineEntries(t, veriland.Production))
			n, err := f.svc.ExpireOwnerDeadlines(ctx, f.clock.Now(), 0)
			require.NoError(t, err)
			require.Zero(t, n)
		})
	}
}
