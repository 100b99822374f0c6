package attestation

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRecordAppendJSON checks that the stored form written through AppendJSON is
// byte for byte json.Marshal's, so that records written before and after read alike.
func TestRecordAppendJSON(t *testing.T) {
	at := time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)
	att := &Attestation{ID: "att_1", Kind: KindConsent, Subject: "did:x", Scope: []string{"is_adult"},
		Claims: json.RawMessage(`{"is_adult":true}`), IssuedAt: at, Status: StatusRevoked, RevokedAt: &at,
		Anchor: AnchorState{Status: AnchorDisabled}}
	for _, r := range []record{
		{Attestation: att},
		{Attestation: att, RevocationReason: "lost <key> & more", RevokedBy: "admin"},
		{Attestation: att, RevokedBy: "é"},
	} {
		want, err := json.Marshal(r)
		require.NoError(t, err)
		got, err := r.appendJSON(r.Attestation)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
	_, err := (&record{}).appendJSON(&Attestation{Claims: json.RawMessage(`{`)})
	require.Error(t, err)
}
