package consent_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
	"github.com/veriland/veriland/storage/bolt"
)

// expiryBackends open two handles on one store: the same bbolt store twice (two
// sweepers in one process), or two PostgreSQL pools on one schema (two replicas).
var expiryBackends = map[string]func(t *testing.T) (storage.Store, storage.Store){
	"bolt": func(t *testing.T) (storage.Store, storage.Store) {
		s, err := bolt.Open(filepath.Join(t.TempDir(), "veriland.db"), bolt.Options{NoSync: true})
		require.NoError(t, err)
		t.Cleanup(func() { _ = s.Close() })
		return s, s
	},
	"postgres": func(t *testing.T) (storage.Store, storage.Store) {
		pg := pgtest.Replicas(t, 2, 8)
		return pg[0], pg[1]
	},
}

// Two replicas sweep the same due requests at once, in small batches: each request is
// expired exactly once, with exactly one event, one audit entry and one webhook
// outbox record, and no request that is not due (or already decided) is touched.
func TestExpireDueOnTwoReplicas(t *testing.T) {
	const due, notDue = 24, 4
	for name, open := range expiryBackends {
		t.Run(name, func(t *testing.T) {
			storeA, storeB := open(t)
			f := newFixtureOn(t, storeA)
			log := &audit.Log{Now: f.clock.Now}
			outbox := &webhook.Outbox{Store: storeA, Now: f.clock.Now}
			// The hook the reference server installs: an audit entry for every change
			// and a webhook for those a verifier hears about, in the change's transaction.
			f.svc.OnEvent = func(ctx context.Context, tx storage.Tx, ev consent.Event) error {
				if err := recordEvent(ctx, tx, ev); err != nil {
					return err
				}
				_, err := log.Append(ctx, tx, audit.Entry{
					Env: ev.Env, Actor: ev.Actor, Action: string(ev.Type), ResourceType: "verification_request", ResourceID: ev.Request.ID,
					Severity: audit.SeverityInfo, Outcome: audit.OutcomeSuccess, Detail: map[string]any{"status": string(ev.Request.Status)},
				})
				if err != nil || !ev.Type.Webhook() {
					return err
				}
				_, err = outbox.Enqueue(ctx, tx, ev.Env, webhook.Event{
					Type: string(ev.Type), Verifier: ev.Request.Verifier, Account: ev.Request.Account, CallbackURL: ev.Request.CallbackURL,
					Data: map[string]any{"requestId": ev.Request.ID, "status": string(ev.Request.Status)},
				})
				return err
			}
			replicaB := *f.svc
			replicaB.Store = storeB
			replicas := []*consent.Service{f.svc, &replicaB}

			var dueIDs []string
			for range due {
				dueIDs = append(dueIDs, f.create(func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(60) }).ID)
			}
			var live []string
			for range notDue {
				live = append(live, f.create(func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(3600) }).ID)
			}
			decided := f.create(func(c *consent.CreateRequest) { c.ExpiresInSeconds = intp(60) })
			_, err := f.svc.Decide(f.ctx, veriland.Sandbox, decided.ID, signed(t, decided, f.holder, consent.StatusRejected, nil))
			require.NoError(t, err)
			f.clock.Advance(61 * time.Second)

			// Each replica sweeps in batches of 5 until a sweep finds nothing.
			counts := make([]int, len(replicas))
			var wg sync.WaitGroup
			for i, r := range replicas {
				wg.Go(func() {
					for {
						n, err := r.ExpireDue(f.ctx, f.clock.Now(), 5)
						if err != nil {
							t.Errorf("replica %d: %v", i, err)
							return
						}
						if n == 0 {
							return
						}
						counts[i] += n
					}
				})
			}
			wg.Wait()
			require.Equal(t, due, counts[0]+counts[1], "expired by each replica: %v", counts)
			t.Logf("expired by replica A: %d, by replica B: %d", counts[0], counts[1])

			for _, id := range dueIDs {
				got, err := f.svc.Get(f.ctx, veriland.Sandbox, id)
				require.NoError(t, err)
				require.Equal(t, consent.StatusExpired, got.Status, id)
				require.Equal(t, 1, f.eventsOf(veriland.Sandbox, id, consent.EventExpired), id)
			}
			for _, id := range live {
				got, err := f.svc.Get(f.ctx, veriland.Sandbox, id)
				require.NoError(t, err)
				require.Equal(t, consent.StatusPending, got.Status, id)
			}
			got, err := f.svc.Get(f.ctx, veriland.Sandbox, decided.ID)
			require.NoError(t, err)
			require.Equal(t, consent.StatusRejected, got.Status)

			entries, _, err := audit.List(f.ctx, storeB, veriland.Sandbox, audit.Filter{Action: string(consent.EventExpired), Limit: 100})
			require.NoError(t, err)
			audited := map[string]int{}
			for _, e := range entries {
				audited[e.ResourceID]++
			}
			deliveries, _, err := outbox.List(f.ctx, veriland.Sandbox, webhook.Filter{Limit: 100})
			require.NoError(t, err)
			hooks := map[string]int{}
			for _, d := range deliveries {
				if d.EventType == string(consent.EventExpired) {
					var p struct {
						Data struct {
							RequestID string `json:"requestId"`
						} `json:"data"`
					}
					require.NoError(t, json.Unmarshal(d.Payload, &p))
					hooks[p.Data.RequestID]++
				}
			}
			require.Len(t, audited, due)
			require.Len(t, hooks, due)
			for _, id := range dueIDs {
				require.Equal(t, 1, audited[id], "audit entries of %s", id)
				require.Equal(t, 1, hooks[id], "webhooks of %s", id)
			}
			report, err := audit.Verify(f.ctx, storeA, veriland.Sandbox)
			require.NoError(t, err)
			require.True(t, report.Valid, "%+v", report)
		})
	}
}
