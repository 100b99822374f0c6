package webhook_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage"
)

// A delivery prepared before the transaction is queued exactly as Enqueue queues it:
// created and due at Prepare's time, listed once per verifier, delivered once, even
// when the transaction function runs twice.
func TestPreparedDeliveryIsEnqueued(t *testing.T) {
	f := newFixture(t)
	rcv := newReceiver(t, 0)
	p, err := f.ob.Prepare(t.Context(), veriland.Sandbox, approved(rcv.URL+"/cb"))
	require.NoError(t, err)
	require.NotNil(t, p)
	prepared := f.clock.Now()
	f.clock.Advance(time.Second) // the commit comes later than the preparation

	var d webhook.Delivery
	runs := 0
	require.NoError(t, f.store.Update(t.Context(), func(tx storage.Tx) error {
		runs++
		if d, err = p.Enqueue(tx); err != nil {
			return err
		}
		if runs == 1 { // as a store that retries a batch: the same writes again
			d, err = p.Enqueue(tx)
		}
		return err
	}))
	require.Equal(t, webhook.StatusPending, d.Status)
	require.Equal(t, prepared, d.CreatedAt)
	require.Equal(t, prepared, d.NextAttemptAt)
	require.Equal(t, d, f.get(veriland.Sandbox, d.ID))

	// The same event through Enqueue has the same shape.
	e := f.enqueue(veriland.Sandbox, approved(rcv.URL+"/cb"))
	var pd, pe map[string]any
	require.NoError(t, json.Unmarshal(d.Payload, &pd))
	require.NoError(t, json.Unmarshal(e.Payload, &pe))
	require.Equal(t, "2026-05-01T12:00:00.000Z", pd["timestamp"], "Prepare's time")
	require.Equal(t, "2026-05-01T12:00:01.000Z", pe["timestamp"])
	delete(pd, "timestamp")
	delete(pe, "timestamp")
	require.Equal(t, pe, pd)
	e.ID, e.CreatedAt, e.NextAttemptAt, e.Payload = d.ID, d.CreatedAt, d.NextAttemptAt, d.Payload
	require.Equal(t, e, d)

	for _, filter := range []webhook.Filter{{}, {Verifier: "verifier-1"}, {Account: "acct_1"}} {
		list, _, err := f.ob.List(t.Context(), veriland.Sandbox, filter)
		require.NoError(t, err)
		require.Len(t, list, 2, "%+v", filter)
	}
	n, err := f.ob.Pending(t.Context())
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.Equal(t, 2, f.runOnce())
	require.Equal(t, webhook.StatusSucceeded, f.get(veriland.Sandbox, d.ID).Status)
	require.Len(t, rcv.requests(), 2)
}

// Prepare has nothing to queue without a callback (TestEnqueueRefusesBadInput checks
// that it refuses what Enqueue refuses).
func TestPrepareWithoutCallbackURL(t *testing.T) {
	f := newFixture(t)
	p, err := f.ob.Prepare(t.Context(), veriland.Sandbox, approved(""))
	require.NoError(t, err)
	require.Nil(t, p)
}
