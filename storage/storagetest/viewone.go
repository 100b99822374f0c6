package storagetest

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
)

// testViewOne checks storage.ViewOne on the store, through its Getter when it has
// one: the value, an empty value, a missing key, what the one-read Tx refuses, the
// function's error, a cancelled context and a closed store.
func testViewOne(t *testing.T, h *harness) {
	s := h.store(t)
	put(t, s, "one", kv{"a", "1"}, kv{"empty", ""})
	read := func(key string) ([]byte, error) {
		var v []byte
		err := storage.ViewOne(t.Context(), s, func(tx storage.Tx) error {
			var err error
			v, err = tx.Get("one", []byte(key))
			return err
		})
		return v, err
	}
	tests := []struct {
		key  string
		want []byte
		err  error
	}{
		{"a", []byte("1"), nil},
		{"empty", []byte{}, nil},
		{"missing", nil, storage.ErrNotFound},
	}
	for _, tt := range tests {
		v, err := read(tt.key)
		if tt.err != nil {
			require.ErrorIs(t, err, tt.err, tt.key)
			continue
		}
		require.NoError(t, err, tt.key)
		require.NotNil(t, v, "%s: an empty value is not nil", tt.key)
		require.Equal(t, tt.want, v, tt.key)
	}
	v, err := read("missing-bucket-key")
	require.ErrorIs(t, err, storage.ErrNotFound)
	require.Nil(t, v)

	// Returned slices are the caller's.
	v, err = read("a")
	require.NoError(t, err)
	v[0] = 'X'
	requireValue(t, s, "one", "a", "1")

	errMine := errors.New("mine")
	err = storage.ViewOne(t.Context(), s, func(tx storage.Tx) error {
		require.ErrorIs(t, tx.Put("one", []byte("b"), []byte("2")), storage.ErrReadOnly)
		require.ErrorIs(t, tx.Delete("one", []byte("a")), storage.ErrReadOnly)
		require.ErrorIs(t, tx.Scan("one", storage.Range{}, func(k, v []byte) error { return nil }), storage.ErrOneRead)
		_, err := tx.Get("one", []byte("a"))
		require.NoError(t, err)
		_, err = tx.Get("one", []byte("a"))
		require.ErrorIs(t, err, storage.ErrOneRead, "a second read")
		return errMine
	})
	require.ErrorIs(t, err, errMine)
	requireMissing(t, s, "one", "b")

	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	err = storage.ViewOne(cancelled, s, func(tx storage.Tx) error {
		_, err := tx.Get("one", []byte("a"))
		return err
	})
	require.ErrorIs(t, err, context.Canceled)

	require.NoError(t, s.Close())
	_, err = read("a")
	require.ErrorIs(t, err, storage.ErrClosed)
}
