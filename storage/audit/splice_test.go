package audit

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// TestSealPendingMatchesSeal: sealing a pending record in place gives the bytes and
// hash of encoding the entry again, whatever its detail and strings hold.
func TestSealPendingMatchesSeal(t *testing.T) {
	zeros := strings.Repeat("0", 64)
	tricky := `,"seq":0,"prevHash":"","id":"`
	details := []map[string]any{
		nil,
		{"seq": 0, "prevHash": "", "id": "x", "hash": zeros},
		{"nested": map[string]any{"seq": 0, "prevHash": ""}, "list": []any{map[string]any{"id": "y"}}},
		{"text": tricky, "ünïcode": "العربية", "n": 1.5},
	}
	strs := []string{"", tricky, `"hash":"` + zeros + `"`, "\u2028<script>"}
	for i, d := range details {
		for j, str := range strs {
			e := Entry{ID: "aud_x", Time: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), Env: veriland.Sandbox,
				Actor: str, Role: veriland.RoleAdmin, Action: "api_key.create", Severity: SeverityInfo, Outcome: OutcomeSuccess,
				ResourceType: str, ResourceID: str, RequestID: str, Detail: d}
			pending, err := canonical(e.wire())
			require.NoError(t, err)
			for _, seq := range []uint64{1, 9, 10, 1 << 40} {
				e.Seq, e.PrevHash = seq, GenesisHash
				if i%2 == 1 {
					e.PrevHash = zeros[:63] + "1"
				}
				want := e
				wantRaw, err := seal(&want)
				require.NoError(t, err)
				raw, hash, err := sealPending(pending, e.Seq, e.PrevHash)
				require.NoError(t, err, "detail %d, string %d", i, j)
				require.Equal(t, string(wantRaw), string(raw), "detail %d, string %d, seq %d", i, j, seq)
				require.Equal(t, want.Hash, hash)
			}
		}
	}
}

// TestSealPendingRefuses: a record without the pending shape is left to seal.
func TestSealPendingRefuses(t *testing.T) {
	good := `{"action":"a","detail":{},"env":"SANDBOX","id":"aud_x","outcome":"SUCCESS","prevHash":"","seq":0,"time":"t"}`
	tests := []struct{ name, raw, prev string }{
		{"already sealed", strings.Replace(good, `"seq":0`, `"seq":3`, 1), GenesisHash},
		{"no prevHash", strings.Replace(good, `"prevHash":"",`, ``, 1), GenesisHash},
		{"no id", strings.Replace(good, `"id":"aud_x",`, ``, 1), GenesisHash},
		{"no detail", strings.Replace(good, `"detail":{},`, ``, 1), GenesisHash},
		{"seq not an integer zero", strings.Replace(good, `"seq":0`, `"seq":0.5`, 1), GenesisHash},
		{"bad prevHash", good, "zz"},
		{"empty", "", GenesisHash},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := sealPending([]byte(tt.raw), 1, tt.prev)
			require.ErrorIs(t, err, errNoSplice)
		})
	}
	_, _, err := sealPending([]byte(good), 1, GenesisHash)
	require.NoError(t, err)
}
