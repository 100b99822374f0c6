package audit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// TestHashVector pins the entry format and the hash input: SHA-256 over the raw bytes
// of prevHash followed by a hand-written canonical JSON string, for a first entry
// (genesis link) and a second one (a real link, empty members).
func TestHashVector(t *testing.T) {
	store := openStore(t)
	l := &Log{
		Now:  func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC) },
		Rand: bytes.NewReader(make([]byte, 40)), // two ids of zero bytes
	}
	ctx := veriland.WithRequestID(context.Background(), "req-1")
	// Both entries have the same time and id: seal each before writing the next.
	first := writeSealed(t, ctx, store, l, Entry{
		Env: veriland.Sandbox, Actor: "did:veriland:abc", Role: veriland.RoleVerifier,
		Action: "consent.approve", ResourceType: "verification_request", ResourceID: "vrq_x",
		Severity: SeverityNotice, Outcome: OutcomeSuccess,
		Detail: map[string]any{"status": "APPROVED", "attempts": 2},
	})
	second := writeSealed(t, context.Background(), store, l, Entry{
		Env: veriland.Sandbox, Actor: "did:veriland:abc", Action: "consent.revoke", Outcome: OutcomeFailure,
	})

	const (
		wantFirst  = "1949bdfa4d2fbf6fd4af2be2dd78d7a4e0cbccf204b06b24b2ad770391d593d1"
		wantSecond = "178ff42f4cd883b4034bf77e7eeee96f2722c0ceda4ed946b1f137dcf2df20c8"
	)
	zeros := strings.Repeat("0", 64)
	tests := []struct {
		name     string
		got      Entry
		prevHash string
		body     string // canonical JSON without "hash", written by hand
		want     string // computed once with sha256sum, independently of this package
	}{
		{
			name: "first entry links to genesis", got: first, prevHash: zeros, want: wantFirst,
			body: `{"action":"consent.approve","actor":"did:veriland:abc","detail":{"attempts":2,"status":"APPROVED"},` +
				`"env":"SANDBOX","id":"aud_aaaaaaaaaaaaaaaaaaaaaaaaaa","outcome":"SUCCESS","prevHash":"` + zeros + `",` +
				`"requestId":"req-1","resourceId":"vrq_x","resourceType":"verification_request","role":"verifier",` +
				`"seq":1,"severity":"NOTICE","time":"2026-01-02T03:04:05.123Z"}`,
		},
		{
			name: "second entry links to the first", got: second, prevHash: wantFirst, want: wantSecond,
			body: `{"action":"consent.revoke","actor":"did:veriland:abc","detail":{},"env":"SANDBOX",` +
				`"id":"aud_aaaaaaaaaaaaaaaaaaaaaaaaaa","outcome":"FAILURE","prevHash":"` + wantFirst + `",` +
				`"requestId":"","resourceId":"","resourceType":"","role":"","seq":2,"severity":"INFO",` +
				`"time":"2026-01-02T03:04:05.123Z"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prev, err := hex.DecodeString(tt.prevHash)
			require.NoError(t, err)
			sum := sha256.Sum256(append(prev, tt.body...))
			require.Equal(t, tt.want, hex.EncodeToString(sum[:]), "hand computation")
			require.Equal(t, tt.want, tt.got.Hash)
			require.Equal(t, tt.prevHash, tt.got.PrevHash)

			// The stored bytes are the canonical body with "hash" inserted in order.
			stored := rawGet(t, store, storage.Bucket(veriland.Sandbox, "audit"), seqKey(tt.got.Seq))
			wantStored := strings.Replace(tt.body, `,"id":`, `,"hash":"`+tt.want+`","id":`, 1)
			require.Equal(t, wantStored, string(stored))

			// MarshalJSON gives the same members.
			raw, err := json.Marshal(tt.got)
			require.NoError(t, err)
			var back Entry
			require.NoError(t, json.Unmarshal(raw, &back))
			require.Equal(t, tt.got.Time, back.Time)
			require.Equal(t, tt.got.Hash, back.Hash)
		})
	}
	requireValid(t, store, veriland.Sandbox, 2)
}

func TestHeadRecord(t *testing.T) {
	store := openStore(t)
	entries := appendN(t, store, &Log{}, nil, veriland.Production, 3)
	raw := rawGet(t, store, storage.Bucket(veriland.Production, "audit_head"), []byte("head"))
	require.JSONEq(t, `{"seq":3,"hash":"`+entries[2].Hash+`"}`, string(raw))
	rep := requireValid(t, store, veriland.Production, 3)
	require.Equal(t, entries[2].Hash, rep.HeadHash)
}
