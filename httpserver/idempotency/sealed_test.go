package idempotency

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// marker stands for the personal data a stored response holds (an owner's name).
const marker = "Amina-Diallo-7f3c9e"

func testKeyring(t *testing.T) *fieldcrypt.Keyring {
	t.Helper()
	ring, err := fieldcrypt.LoadOrCreate(t.TempDir(), rand.Reader)
	require.NoError(t, err)
	return ring
}

// storeAt opens a Store over the bbolt file at path with the keyring fields.
func storeAt(t *testing.T, path string, fields *fieldcrypt.Keyring) (*Store, *bolt.Store) {
	t.Helper()
	db, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return &Store{Store: db, Now: newFakeClock().Now, Fields: fields}, db
}

// TestStoredResponseIsSealedAtRest scans the bbolt file after a response holding the
// marker was stored: with a keyring the marker is nowhere in it, and the replay, after
// reopening the file, is still byte for byte the first response.
func TestStoredResponseIsSealedAtRest(t *testing.T) {
	for _, tt := range []struct {
		name   string
		fields *fieldcrypt.Keyring
	}{
		{"keyring", testKeyring(t)},
		{"no keyring (control: the scan finds the marker)", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "idem.db")
			s, db := storeAt(t, path, tt.fields)
			h := Middleware(s, scopeBySubject, writeError)(&creator{})
			body := `{"owner":{"fullName":"` + marker + `"}}`
			first := post(h, "/v1/parcels", "k-1", body, "X-Sub", "acct_1")
			require.Equal(t, http.StatusCreated, first.Code)
			require.Contains(t, first.Body.String(), marker)
			require.NoError(t, db.Close())

			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			// The clear record keeps the body base64-encoded (JSON []byte): look for both.
			b64 := base64.StdEncoding.EncodeToString(first.Body.Bytes())
			leaks := bytes.Contains(raw, []byte(marker)) || bytes.Contains(raw, []byte(b64))
			require.Equal(t, tt.fields == nil, leaks)
			require.Equal(t, tt.fields == nil, bytes.Contains(raw, []byte("/v1/parcels/prc_1")), "the Location header")

			s2, _ := storeAt(t, path, tt.fields)
			again := post(Middleware(s2, scopeBySubject, writeError)(&creator{}), "/v1/parcels", "k-1", body, "X-Sub", "acct_1")
			require.Equal(t, "true", again.Header().Get(HeaderReplayed))
			require.Equal(t, first.Code, again.Code)
			require.Equal(t, first.Body.Bytes(), again.Body.Bytes())
			require.Equal(t, first.Header().Get("Location"), again.Header().Get("Location"))
			require.Equal(t, first.Header().Get("Content-Type"), again.Header().Get("Content-Type"))
		})
	}
}

func TestSealedResponseFailures(t *testing.T) {
	ctx := context.Background()
	resp := Response{Status: http.StatusCreated, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(marker)}
	complete := func(t *testing.T, s *Store, scope Scope) {
		t.Helper()
		require.Equal(t, Proceed, begin(t, s, scope, bodyA).Kind)
		require.NoError(t, s.Complete(ctx, scope, resp))
	}
	rawRecord := func(t *testing.T, s *Store, scope Scope) []byte {
		t.Helper()
		var v []byte
		require.NoError(t, s.Store.View(ctx, func(tx storage.Tx) error {
			var err error
			v, err = tx.Get(storage.Bucket(scope.Env, bucketName), scope.storageKey())
			return err
		}))
		return v
	}

	t.Run("moved to another scope", func(t *testing.T) {
		s, _ := newStore(t, bolt.Options{NoSync: true})
		s.Fields = testKeyring(t)
		a, b := testScope("a"), testScope("b")
		complete(t, s, a)
		v := rawRecord(t, s, a)
		require.NoError(t, s.Store.Update(ctx, func(tx storage.Tx) error {
			return tx.Put(storage.Bucket(b.Env, bucketName), b.storageKey(), v)
		}))
		_, err := s.Begin(ctx, b, bodyA)
		require.Equal(t, veriland.CodeInternal, veriland.CodeOf(err))
		require.ErrorIs(t, err, fieldcrypt.ErrOpen)
		require.Equal(t, Replay, begin(t, s, a, bodyA).Kind)
	})
	t.Run("keyring removed", func(t *testing.T) {
		s, _ := newStore(t, bolt.Options{NoSync: true})
		s.Fields = testKeyring(t)
		complete(t, s, testScope("a"))
		s.Fields = nil
		_, err := s.Begin(ctx, testScope("a"), bodyA)
		require.Equal(t, veriland.CodeInternal, veriland.CodeOf(err))
	})
	t.Run("key erased", func(t *testing.T) {
		s, _ := newStore(t, bolt.Options{NoSync: true})
		ring := testKeyring(t)
		s.Fields = ring
		complete(t, s, testScope("a"))
		old := ring.Current()
		_, err := ring.Rotate()
		require.NoError(t, err)
		require.Equal(t, Replay, begin(t, s, testScope("a"), bodyA).Kind, "rotation keeps old responses readable")
		require.NoError(t, ring.Erase(old))
		_, err = s.Begin(ctx, testScope("a"), bodyA)
		require.ErrorIs(t, err, fieldcrypt.ErrUnknownKey)
		// A reused key is still refused without opening anything.
		require.Equal(t, Reused, begin(t, s, testScope("a"), bodyB).Kind)
	})
	t.Run("clear record from before the keyring still replays", func(t *testing.T) {
		s, _ := newStore(t, bolt.Options{NoSync: true})
		complete(t, s, testScope("a"))
		require.Contains(t, string(rawRecord(t, s, testScope("a"))), `"body"`)
		s.Fields = testKeyring(t)
		out := begin(t, s, testScope("a"), bodyA)
		require.Equal(t, Replay, out.Kind)
		require.Equal(t, resp, out.Response)
		complete(t, s, testScope("b"))
		require.NotContains(t, string(rawRecord(t, s, testScope("b"))), `"body"`)
		require.Equal(t, resp, begin(t, s, testScope("b"), bodyA).Response)
	})
}
