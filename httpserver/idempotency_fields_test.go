package httpserver

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// TestIdempotencyResponsesSealedAtRest: with Config.Fields, the response the
// idempotency store keeps (here an API key's token, which is in that response only) is
// nowhere in the bbolt file, and the replay is still byte for byte (SPEC S2.4).
func TestIdempotencyResponsesSealedAtRest(t *testing.T) {
	for _, sealed := range []bool{true, false} {
		t.Run(map[bool]string{true: "keyring", false: "no keyring (control)"}[sealed], func(t *testing.T) {
			h := newHarness(t, func(c *Config) {
				if sealed {
					ring, err := fieldcrypt.LoadOrCreate(t.TempDir(), rand.Reader)
					require.NoError(t, err)
					c.Fields = ring
				} else {
					c.Fields = nil // the harness seals by default
				}
			})
			tok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
			body := `{"role":"verifier","sub":"acme","name":"Acme"}`
			key := map[string]string{"Idempotency-Key": "sealed-1"}
			first := h.do(request{method: "POST", path: "/v1/api-keys", token: tok, body: body, header: key})
			require.Equal(t, 201, first.status)
			secret, _ := first.json(t)["data"].(map[string]any)["attributes"].(map[string]any)["token"].(string)
			require.NotEmpty(t, secret)

			raw, err := os.ReadFile(h.storePath)
			require.NoError(t, err)
			leaks := bytes.Contains(raw, []byte(secret)) ||
				bytes.Contains(raw, []byte(base64.StdEncoding.EncodeToString(first.body)))
			require.Equal(t, !sealed, leaks, "stored response in clear")

			again := h.do(request{method: "POST", path: "/v1/api-keys", token: tok, body: body, header: key})
			require.Equal(t, "true", again.header.Get("Idempotent-Replayed"))
			require.Equal(t, first.status, again.status)
			require.Equal(t, first.body, again.body, "replayed byte for byte")
			require.Equal(t, first.header.Get("Location"), again.header.Get("Location"))
		})
	}
}
