package registrypage

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestRender(t *testing.T) {
	at := time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC)
	hash := "0x" + strings.Repeat("ab", 32)
	found := View{Hash: hash, Found: true, Authentic: true, ParcelID: "prc_X", City: "Abuja <b>&", Notary: "NOT-ABJ-1",
		Version: 1, CertifiedAt: at, TokenID: "123", History: []Version{{Version: 1, Hash: hash, CertifiedAt: at}}}
	tests := []struct {
		name, status, want, class string
		found                     bool
	}{
		{"current", StatusCurrent, "This certificate is CURRENT", "current", true},
		{"superseded", StatusSuperseded, "This certificate is SUPERSEDED", "superseded", true},
		{"revoked", StatusRevoked, "This certificate is REVOKED", "revoked", true},
		{"unknown", "", "Certificate not found", "unknown", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := View{Hash: hash}
			if tt.found {
				v = found
				v.Status = tt.status
				v.History[0].Status = tt.status
			}
			rec := httptest.NewRecorder()
			require.NoError(t, Write(rec, v))
			body := rec.Body.String()
			require.Contains(t, body, "<h1 id=\"title\">"+tt.want+"</h1>")
			require.Contains(t, body, `class="verdict `+tt.class+`"`)
			require.Contains(t, body, `<html lang="en" dir="ltr">`)
			require.NotContains(t, body, "<script")
			if tt.found {
				require.Equal(t, http.StatusOK, rec.Code)
				require.Contains(t, body, "Abuja &lt;b&gt;&amp;", "text is escaped")
				require.Contains(t, body, `datetime="2026-03-01T10:30:00Z"`)
				require.Contains(t, body, "(this one)")
			} else {
				require.Equal(t, http.StatusNotFound, rec.Code)
			}
			require.Equal(t, csp, rec.Header().Get("Content-Security-Policy"))
			require.Equal(t, MediaType, rec.Header().Get("Content-Type"))
			// The served style is the one the policy allows.
			_, rest, _ := strings.Cut(body, "<style>")
			style, _, _ := strings.Cut(rest, "</style>")
			sum := sha256.Sum256([]byte(style))
			require.Contains(t, csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
		})
	}
}

// TestRenderOwnerWallet: the page shows the owner's bound wallet and, for a version
// made by a transfer, how the previous owner consented; never a name.
func TestRenderOwnerWallet(t *testing.T) {
	at := time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC)
	hash := "0x" + strings.Repeat("cd", 32)
	wallet := "0x" + strings.Repeat("1f", 20)
	tests := []struct {
		name, binding, consent, wantBinding, wantConsent string
	}{
		{"notary verified, owner signed", "NOTARY_VERIFIED", "OWNER_SIGNATURE", "verified by the notary", "transferred with the owner&#39;s signature"},
		{"identity verified, witnessed", "IDENTITY_VERIFIED", "NOTARY_WITNESSED", "the wallet of a verified identity", "owner without a wallet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := View{Hash: hash, Found: true, Authentic: true, Status: StatusCurrent, ParcelID: "prc_X", City: "Abuja",
				Notary: "NOT-ABJ-1", Version: 2, CertifiedAt: at, TokenID: "9", OwnerWallet: wallet, OwnerBinding: tt.binding,
				History: []Version{{Version: 1, Status: StatusSuperseded, Hash: "0x" + strings.Repeat("ab", 32), CertifiedAt: at},
					{Version: 2, Status: StatusCurrent, Hash: hash, CertifiedAt: at, OwnerWallet: wallet, OwnerConsent: tt.consent}}}
			body, err := Render(v)
			require.NoError(t, err)
			require.Contains(t, string(body), `<code id="owner-wallet">`+wallet+`</code>`)
			require.Contains(t, string(body), tt.wantBinding)
			require.Contains(t, string(body), tt.wantConsent)
			require.Contains(t, string(body), "0x1f1f…1f1f", "the history row names the version's wallet, shortened")
		})
	}
	body, err := Render(View{Hash: hash, Found: true, Authentic: true, Status: StatusCurrent})
	require.NoError(t, err)
	require.NotContains(t, string(body), "owner-wallet", "an owner without a wallet has no wallet row")
}
