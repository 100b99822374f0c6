package ids

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNew(t *testing.T) {
	id, err := New(rand.Reader, "att")
	require.NoError(t, err)
	require.True(t, Valid(id, "att"), id)
	require.False(t, Valid(id, "vrq"))
	require.False(t, Valid("att_"+strings.Repeat("A", Length), "att"))
	require.False(t, Valid("att_short", "att"))

	_, err = New(bytes.NewReader(nil), "att")
	require.Error(t, err)
}

func TestNewDID(t *testing.T) {
	for _, seed := range [][]byte{bytes.Repeat([]byte{0}, 16), bytes.Repeat([]byte{0xff}, 16)} {
		did, err := NewDID(bytes.NewReader(seed))
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(did, "did:veriland:"))
		require.Len(t, strings.TrimPrefix(did, "did:veriland:"), 22)
	}
}
