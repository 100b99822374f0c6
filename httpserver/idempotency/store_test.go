package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

var (
	bodyA = sha256.Sum256([]byte(`{"a":1}`))
	bodyB = sha256.Sum256([]byte(`{"a":2}`))
)

func begin(t *testing.T, s *Store, scope Scope, fp [32]byte) Outcome {
	t.Helper()
	out, err := s.Begin(context.Background(), scope, fp)
	require.NoError(t, err)
	return out
}

func TestBeginLifecycle(t *testing.T) {
	s, _ := newStore(t, bolt.Options{NoSync: true})
	ctx := context.Background()
	scope := testScope("k1")

	require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind)
	require.Equal(t, InFlight, begin(t, s, scope, bodyA).Kind)
	require.Equal(t, Reused, begin(t, s, scope, bodyB).Kind)

	resp := Response{
		Status: http.StatusCreated,
		Header: http.Header{
			"Content-Type": {"application/json"},
			"Location":     {"/consent/vrq_1"},
			"Set-Cookie":   {"session=secret"},
			"Ratelimit":    {`"wallet";r=1;t=1`},
			"X-Request-Id": {"req_1"},
			"Etag":         {`"v1"`},
		},
		Body: []byte(`{"status":"APPROVED"}`),
	}
	require.NoError(t, s.Complete(ctx, scope, resp))

	out := begin(t, s, scope, bodyA)
	require.Equal(t, Replay, out.Kind)
	require.Equal(t, Response{
		Status: http.StatusCreated,
		Header: http.Header{"Content-Type": {"application/json"}, "Location": {"/consent/vrq_1"}},
		Body:   []byte(`{"status":"APPROVED"}`),
	}, out.Response)
	require.Equal(t, Reused, begin(t, s, scope, bodyB).Kind)

	// The first completion wins, so replays never change.
	require.NoError(t, s.Complete(ctx, scope, Response{Status: 200, Body: []byte("other")}))
	require.Equal(t, []byte(`{"status":"APPROVED"}`), begin(t, s, scope, bodyA).Response.Body)
	// Releasing a finished record is a no-op.
	require.NoError(t, s.Release(ctx, scope))
	require.Equal(t, Replay, begin(t, s, scope, bodyA).Kind)
}

func TestOutcomeErrors(t *testing.T) {
	cases := []struct {
		kind Kind
		code veriland.Code
	}{
		{Proceed, ""},
		{Replay, ""},
		{InFlight, veriland.CodeIdempotencyInFlight},
		{Reused, veriland.CodeIdempotencyKeyReused},
	}
	for _, c := range cases {
		t.Run(c.kind.String(), func(t *testing.T) {
			err := Outcome{Kind: c.kind}.Err()
			if c.code == "" {
				require.NoError(t, err)
				return
			}
			require.True(t, veriland.IsCode(err, c.code), "%v", err)
		})
	}
}

func TestStoredHeadersAreConfigurable(t *testing.T) {
	s, _ := newStore(t, bolt.Options{NoSync: true})
	s.Headers = []string{"etag", "Set-Cookie", "RateLimit", "Retry-After"}
	scope := testScope("k")
	require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind)
	require.NoError(t, s.Complete(context.Background(), scope, Response{Status: 200, Header: http.Header{
		"Content-Type": {"application/json"},
		"Etag":         {`"v1"`},
		"Set-Cookie":   {"a=b"},
		"Ratelimit":    {"x"},
		"Retry-After":  {"3"},
	}}))
	require.Equal(t, http.Header{"Content-Type": {"application/json"}, "Etag": {`"v1"`}},
		begin(t, s, scope, bodyA).Response.Header)
}

func TestUnstorableStatusesRelease(t *testing.T) {
	for _, status := range []int{500, 502, 503, 429} {
		s, _ := newStore(t, bolt.Options{NoSync: true})
		scope := testScope("k")
		require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind)
		require.NoError(t, s.Complete(context.Background(), scope, Response{Status: status}))
		require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind, "status %d", status)
	}
	for _, status := range []int{200, 201, 204, 400, 404, 409, 422} {
		s, _ := newStore(t, bolt.Options{NoSync: true})
		scope := testScope("k")
		require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind)
		require.NoError(t, s.Complete(context.Background(), scope, Response{Status: status}))
		require.Equal(t, Replay, begin(t, s, scope, bodyA).Kind, "status %d", status)
	}
}

func TestRelease(t *testing.T) {
	s, _ := newStore(t, bolt.Options{NoSync: true})
	ctx := context.Background()
	scope := testScope("k")
	require.NoError(t, s.Release(ctx, scope), "releasing nothing")
	require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind)
	require.NoError(t, s.Release(ctx, scope))
	// After a release the key is free, even for another body.
	require.Equal(t, Proceed, begin(t, s, scope, bodyB).Kind)
}

func TestCompleteWithoutReservation(t *testing.T) {
	s, _ := newStore(t, bolt.Options{NoSync: true})
	err := s.Complete(context.Background(), testScope("k"), Response{Status: 200})
	require.True(t, veriland.IsCode(err, veriland.CodeInvalidState), "%v", err)
}

func TestExpiry(t *testing.T) {
	s, clock := newStore(t, bolt.Options{NoSync: true})
	ctx := context.Background()
	scope := testScope("k")
	require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind)
	clock.Advance(10 * time.Second)
	require.NoError(t, s.Complete(ctx, scope, Response{Status: 201, Body: []byte("first")}))

	// Kept for 24 hours after completion, reused-body check included.
	clock.Advance(24*time.Hour - time.Nanosecond)
	require.Equal(t, Replay, begin(t, s, scope, bodyA).Kind)
	require.Equal(t, Reused, begin(t, s, scope, bodyB).Kind)

	clock.Advance(time.Nanosecond)
	require.Equal(t, Proceed, begin(t, s, scope, bodyB).Kind, "expired: a new request")
}

func TestAbandonedLeaseIsTakenOver(t *testing.T) {
	s, clock := newStore(t, bolt.Options{NoSync: true})
	ctx := context.Background()
	scope := testScope("k")
	require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind) // then the server crashes

	clock.Advance(DefaultLease - time.Nanosecond)
	require.Equal(t, InFlight, begin(t, s, scope, bodyA).Kind)
	require.Equal(t, Reused, begin(t, s, scope, bodyB).Kind)

	clock.Advance(time.Nanosecond)
	require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind, "lease ran out")
	clock.Advance(DefaultLease)
	require.Equal(t, Proceed, begin(t, s, scope, bodyB).Kind, "an abandoned key is free for any body")
	require.Equal(t, InFlight, begin(t, s, scope, bodyB).Kind, "the new owner holds a fresh lease")
	require.Equal(t, Reused, begin(t, s, scope, bodyA).Kind)
	require.NoError(t, s.Complete(ctx, scope, Response{Status: 200, Body: []byte("done")}))
	require.Equal(t, Replay, begin(t, s, scope, bodyB).Kind)
}

func TestScopesAreIsolated(t *testing.T) {
	s, _ := newStore(t, bolt.Options{NoSync: true})
	base := testScope("k")
	require.Equal(t, Proceed, begin(t, s, base, bodyA).Kind)
	variants := map[string]func(*Scope){
		"env":             func(sc *Scope) { sc.Env = veriland.Sandbox },
		"subject":         func(sc *Scope) { sc.Subject = "did:key:other" },
		"ip not subject":  func(sc *Scope) { sc.ClientIP, sc.Subject = sc.Subject, "" },
		"method":          func(sc *Scope) { sc.Method = "PUT" },
		"path":            func(sc *Scope) { sc.Path = "/consent/vrq_2/approve" },
		"key":             func(sc *Scope) { sc.Key = "k2" },
		"shifted borders": func(sc *Scope) { sc.Method, sc.Path = "POST/consent", "/vrq_1/approve" },
	}
	for name, change := range variants {
		sc := base
		change(&sc)
		require.Equal(t, Proceed, begin(t, s, sc, bodyA).Kind, name)
	}
}

func TestInvalidScope(t *testing.T) {
	s, _ := newStore(t, bolt.Options{NoSync: true})
	cases := []struct {
		name  string
		scope Scope
		code  veriland.Code
	}{
		{"bad env", Scope{Env: "X", Subject: "s", Method: "POST", Path: "/", Key: "k"}, veriland.CodeInternal},
		{"no caller", Scope{Env: veriland.Sandbox, Method: "POST", Path: "/", Key: "k"}, veriland.CodeInternal},
		{"both callers", Scope{Env: veriland.Sandbox, Subject: "s", ClientIP: "1.2.3.4", Method: "POST", Path: "/", Key: "k"}, veriland.CodeInternal},
		{"no path", Scope{Env: veriland.Sandbox, Subject: "s", Method: "POST", Key: "k"}, veriland.CodeInternal},
		{"no key", Scope{Env: veriland.Sandbox, Subject: "s", Method: "POST", Path: "/"}, veriland.CodeInvalidIdempotencyKey},
		{"bad key", Scope{Env: veriland.Sandbox, Subject: "s", Method: "POST", Path: "/", Key: "a\nb"}, veriland.CodeInvalidIdempotencyKey},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.Begin(context.Background(), c.scope, bodyA)
			require.True(t, veriland.IsCode(err, c.code), "%v", err)
		})
	}
}

func TestStoreFailureIsUnavailable(t *testing.T) {
	s, _ := newStore(t, bolt.Options{NoSync: true})
	require.NoError(t, s.Store.Close())
	_, err := s.Begin(context.Background(), testScope("k"), bodyA)
	require.True(t, veriland.IsCode(err, veriland.CodeUnavailable), "%v", err)
	require.ErrorIs(t, err, storage.ErrClosed)
}

func TestPrune(t *testing.T) {
	s, clock := newStore(t, bolt.Options{NoSync: true})
	ctx := context.Background()
	const n = pruneChunk + 150 // more than one prune transaction examines
	now := clock.Now()
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		for i := range n {
			sc := testScope(fmt.Sprint("k", i))
			if i%2 == 0 {
				sc.Env = veriland.Sandbox
			}
			rec := record{State: stateInFlight, Fingerprint: bodyA[:], LeaseUntil: now.Add(DefaultLease).UnixNano(), Expires: now.Add(DefaultTTL).UnixNano()}
			if i%3 == 0 {
				rec = record{State: stateComplete, Fingerprint: bodyA[:], Expires: now.Add(time.Hour).UnixNano(), Status: 200}
			}
			if err := put(tx, storage.Bucket(sc.Env, bucketName), sc.storageKey(), rec); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	deleted, err := s.Prune(ctx)
	require.NoError(t, err)
	require.Zero(t, deleted)

	clock.Advance(time.Hour)
	deleted, err = s.Prune(ctx)
	require.NoError(t, err)
	require.Equal(t, (n+2)/3, deleted, "the completed records, kept one hour")

	clock.Advance(DefaultTTL)
	deleted, err = s.Prune(ctx)
	require.NoError(t, err)
	require.Equal(t, n-(n+2)/3, deleted)
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		err = s.Store.View(ctx, func(tx storage.Tx) error {
			return tx.Scan(storage.Bucket(env, bucketName), storage.Range{}, func(k, v []byte) error {
				t.Errorf("left behind: %x", k)
				return nil
			})
		})
		require.NoError(t, err)
	}
}

func TestNothingStoredVerbatim(t *testing.T) {
	s, _ := newStore(t, bolt.Options{NoSync: true})
	scope := testScope("my-secret-key-123")
	scope.Subject, scope.ClientIP = "", "203.0.113.7"
	require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind)
	err := s.Store.View(context.Background(), func(tx storage.Tx) error {
		return tx.Scan(storage.Bucket(scope.Env, bucketName), storage.Range{}, func(k, v []byte) error {
			for _, raw := range []string{scope.Key, scope.ClientIP} {
				require.False(t, bytes.Contains(k, []byte(raw)))
				require.False(t, bytes.Contains(v, []byte(raw)))
			}
			return nil
		})
	})
	require.NoError(t, err)
}
