package audit

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// sealTwice is the definition seal implements in one pass: the hash over the
// canonical entry without "hash", then the canonical entry with it.
func sealTwice(t *testing.T, e Entry) ([]byte, string) {
	t.Helper()
	e.Hash = ""
	body, err := canonical(e.wire())
	require.NoError(t, err)
	e.Hash, err = chainHash(e.PrevHash, body)
	require.NoError(t, err)
	full, err := canonical(e.wire())
	require.NoError(t, err)
	return full, e.Hash
}

func TestSealMatchesDefinition(t *testing.T) {
	zeros := strings.Repeat("0", 64)
	details := []map[string]any{
		nil,
		{"hash": zeros, "id": "x"},
		{"nested": map[string]any{"hash": zeros}, "list": []any{map[string]any{"hash": zeros}}},
		{"text": `"hash":"` + zeros + `",`},
	}
	for i, d := range details {
		e := Entry{Seq: uint64(i + 1), ID: "aud_x", Time: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), Env: veriland.Sandbox,
			Actor: "admin", Role: veriland.RoleAdmin, Action: "api_key.create", Severity: SeverityInfo, Outcome: OutcomeSuccess,
			ResourceID: `"hash":"` + zeros + `"`, Detail: d, PrevHash: GenesisHash}
		wantRaw, wantHash := sealTwice(t, e)
		got := e
		raw, err := seal(&got)
		require.NoError(t, err)
		require.Equal(t, string(wantRaw), string(raw), "detail %v", d)
		require.Equal(t, wantHash, got.Hash)
	}
}
