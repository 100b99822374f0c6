package webhook_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

func ExampleOutbox() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "outbox-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	secrets := &webhook.SecretStore{Store: store, Now: func() time.Time { return now }}
	outbox := &webhook.Outbox{Store: store, Now: func() time.Time { return now }, Secrets: secrets}

	// The verifier fetched its secret (GET /v1/webhooks/secret) and runs a receiver.
	vs, err := secrets.Secrets(ctx, veriland.Sandbox, "verifier-1")
	if err != nil {
		panic(err)
	}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := webhook.Verify(r.Header, body, []webhook.Secret{vs.Current}, now); err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Println("receiver got", string(body))
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()

	// A domain service enqueues inside the transaction of the state change it reports...
	var d webhook.Delivery
	err = store.Update(ctx, func(tx storage.Tx) error {
		// ... write the approved request here ...
		d, err = outbox.Enqueue(ctx, tx, veriland.Sandbox, webhook.Event{
			Type: "verification.approved", Verifier: "verifier-1", CallbackURL: receiver.URL + "/hooks",
			Data: map[string]string{"requestId": "vrq_1", "status": "APPROVED"},
		})
		return err
	})
	if err != nil {
		panic(err)
	}
	// ...and after the commit, the server calls outbox.Notify() for a running
	// outbox.Run(ctx). Here one pass of the worker does.
	if _, err := outbox.RunOnce(ctx); err != nil {
		panic(err)
	}
	d, err = outbox.Get(ctx, veriland.Sandbox, d.ID)
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Status, len(d.Attempts), d.Attempts[0].StatusCode)
	// Output:
	// receiver got {"type":"verification.approved","timestamp":"2026-05-01T12:00:00.000Z","data":{"requestId":"vrq_1","status":"APPROVED"}}
	// SUCCEEDED 1 204
}
