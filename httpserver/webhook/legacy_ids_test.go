package webhook_test

import (
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// TestLegacyRandomIDs is the migration to time-ordered delivery ids: a store whose
// deliveries have random ids, closed and reopened by this code, needs no rewrite. Old
// deliveries are found by id, listed in creation order (the indexes order by time,
// not by id) beside new ones created in between, sent under their own webhook-id once
// due, and replayed alike.
func TestLegacyRandomIDs(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	rcv := newReceiver(t, 0)
	env := veriland.Sandbox
	// The writes, in creation order, a second apart: the old build's at even seconds,
	// the new build's in between (as replicas of both builds would during an upgrade).
	writes := []struct {
		legacy   bool
		verifier string
	}{
		{true, "verifier-1"}, {false, "verifier-1"},
		{true, "verifier-2"}, {false, "verifier-2"},
		{true, "verifier-1"}, {false, "verifier-1"},
	}
	created := make([]string, len(writes))
	event := func(verifier string) webhook.Event {
		ev := approved(rcv.URL)
		ev.Verifier = verifier
		return ev
	}

	// The old build queues its deliveries, sends none, and stops.
	for i, w := range writes {
		if !w.legacy {
			continue
		}
		f.clock.Set(t0.Add(time.Duration(i) * time.Second))
		p, err := f.ob.Prepare(ctx, env, event(w.verifier))
		require.NoError(t, err)
		require.NoError(t, p.WithLegacyID(rand.Reader))
		require.NoError(t, f.store.Update(ctx, func(tx storage.Tx) error {
			d, err := p.Enqueue(tx)
			created[i] = d.ID
			return err
		}))
	}
	f.restart()

	// This build opens the same file and queues its own between them.
	for i, w := range writes {
		if w.legacy {
			continue
		}
		f.clock.Set(t0.Add(time.Duration(i) * time.Second))
		created[i] = f.enqueue(env, event(w.verifier)).ID
	}
	require.Less(t, created[1], created[3], "new ids follow creation order")
	require.Less(t, created[3], created[5], "new ids follow creation order")

	for i, id := range created {
		require.True(t, ids.Valid(id, webhook.DeliveryIDPrefix), id)
		d := f.get(env, id)
		require.Equal(t, writes[i].verifier, d.Verifier, "write %d", i)
		require.Equal(t, webhook.StatusPending, d.Status, "write %d", i)
		require.True(t, d.CreatedAt.Equal(t0.Add(time.Duration(i)*time.Second)), "write %d created %s", i, d.CreatedAt)
	}

	// Lists are newest first by creation time, old and new mixed, over all deliveries
	// (the by-created index) and one verifier's (the by-verifier index).
	for _, tc := range []struct {
		verifier string
		want     []int // indexes into writes
	}{
		{"", []int{5, 4, 3, 2, 1, 0}},
		{"verifier-1", []int{5, 4, 1, 0}},
		{"verifier-2", []int{3, 2}},
	} {
		list, next, err := f.ob.List(ctx, env, webhook.Filter{Verifier: tc.verifier})
		require.NoError(t, err)
		require.Empty(t, next)
		var got, want []string
		for _, d := range list {
			got = append(got, d.ID)
		}
		for _, i := range tc.want {
			want = append(want, created[i])
		}
		require.Equal(t, want, got, "verifier %q", tc.verifier)
	}

	// Every delivery is due (the due index is keyed by time) and goes out under its
	// own id; an old one replays like a new one.
	f.clock.Set(t0.Add(time.Minute))
	require.Equal(t, len(created), f.runOnce())
	sent := map[string]bool{}
	for _, r := range rcv.requests() {
		sent[r.header.Get(webhook.HeaderID)] = true
	}
	for i, id := range created {
		require.True(t, sent[id], "write %d (%s) was not sent", i, id)
		require.Equal(t, webhook.StatusSucceeded, f.get(env, id).Status, "write %d", i)
	}
	d, err := f.ob.Replay(ctx, env, created[0])
	require.NoError(t, err)
	require.Equal(t, webhook.StatusPending, d.Status)
	require.Equal(t, webhook.StatusSucceeded, f.drive(env, created[0]).Status)
	require.Len(t, f.get(env, created[0]).Attempts, 2)
	n, err := f.ob.Pending(ctx)
	require.NoError(t, err)
	require.Zero(t, n)
}
