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
		{"malformed", "", "This is not a certificate hash", "unknown", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := View{Hash: hash}
			if tt.name == "malformed" {
				v = View{Hash: "0x1234<b>", Malformed: true}
			}
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
			} else if tt.name == "malformed" {
				require.Equal(t, http.StatusBadRequest, rec.Code)
				require.Contains(t, body, `<code id="hash" dir="ltr">0x1234&lt;b&gt;</code>`, "what the address held, escaped")
				require.Contains(t, body, "0x followed by 64 hexadecimal digits")
			} else {
				require.Equal(t, http.StatusNotFound, rec.Code)
			}
			require.Equal(t, "en", rec.Header().Get("Content-Language"))
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
			require.Contains(t, string(body), `<code id="owner-wallet" dir="ltr">`+wallet+`</code>`)
			require.Contains(t, string(body), tt.wantBinding)
			require.Contains(t, string(body), tt.wantConsent)
			require.Contains(t, string(body), "0x1f1f…1f1f", "the history row names the version's wallet, shortened")
		})
	}
	body, err := Render(View{Hash: hash, Found: true, Authentic: true, Status: StatusCurrent})
	require.NoError(t, err)
	require.NotContains(t, string(body), "owner-wallet", "an owner without a wallet has no wallet row")
}

// TestRenderLandTitle: the land title section says where the version's token stands,
// in words and colour, who holds it, and the full contract address and transaction
// hashes; the history shows each version's title.
func TestRenderLandTitle(t *testing.T) {
	at := time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC)
	later := at.Add(48 * time.Hour)
	hash := "0x" + strings.Repeat("cd", 32)
	custody := "0x" + strings.Repeat("Ab", 20)
	wallet := "0x" + strings.Repeat("1f", 20)
	contract := "0x" + strings.Repeat("C0", 20)
	mintTx, burnTx := "0x"+strings.Repeat("a1", 32), "0x"+strings.Repeat("b2", 32)
	onChain := Title{TokenID: "42", Standard: "ERC-5192", ChainID: 1337, Contract: contract, Holder: custody,
		HolderKind: HolderRegistryCustody, MintTx: mintTx, MintBlock: 7, MintedAt: at}
	tests := []struct {
		name, status string
		title        Title
		word, class  string
		want, absent []string
	}{
		{"minted to custody", StatusCurrent, with(onChain, func(t *Title) { t.Status = TitleMinted }),
			"On chain, held by the registry&#39;s custody account", "t-minted",
			[]string{`<code id="title-holder" dir="ltr">` + custody + `</code>`, "for an owner without a wallet", `<code id="title-contract" dir="ltr">` + contract + `</code>`,
				`<bdi id="title-chain" dir="ltr">1337</bdi>`, `<code id="title-mint-tx" class="tx" dir="ltr">` + mintTx + `</code>`, "block 7", `<code id="token-id" dir="ltr">42</code>`,
				`datetime="2026-03-01T10:30:00Z"`, ">Held by<"},
			[]string{"title-burn-tx", `id="anchor"`}},
		{"minted to the owner's wallet", StatusCurrent, with(onChain, func(t *Title) {
			t.Status, t.Holder, t.HolderKind = TitleMinted, wallet, HolderOwnerWallet
		}), "On chain, held by the owner&#39;s wallet", "t-minted",
			[]string{`<code id="title-holder" dir="ltr">` + wallet + `</code>`, `<span id="title-holder-kind">the owner&#39;s wallet</span>`}, nil},
		{"minted, burn requested", StatusSuperseded, with(onChain, func(t *Title) { t.Status, t.BurnRequestedAt = TitleMinted, later }),
			"On chain, held by the registry&#39;s custody account", "t-pending",
			[]string{"asked the chain to burn", `<dd id="title-burn">requested on <time datetime="2026-03-03T10:30:00Z">`}, []string{"title-burn-tx"}},
		{"burned, superseded", StatusSuperseded, with(onChain, func(t *Title) {
			t.Status, t.BurnTx, t.BurnedAt, t.BurnRequestedAt = TitleBurned, burnTx, later, later
		}), "Burned (this version was superseded)", "t-burned",
			[]string{`<code id="title-burn-tx" class="tx" dir="ltr">` + burnTx + `</code>`, mintTx, ">Was held by<"}, []string{`id="title-burn"`}},
		{"burned, revoked", StatusRevoked, with(onChain, func(t *Title) { t.Status, t.BurnTx = TitleBurned, burnTx }),
			"Burned (this version was revoked)", "t-burned", []string{burnTx}, nil},
		{"pending", StatusCurrent, Title{Status: TitlePending, TokenID: "42", ChainID: 1337, Contract: contract, Holder: custody, HolderKind: HolderRegistryCustody},
			"Being minted", "t-pending", []string{contract}, []string{"title-mint-tx", "title-burn-tx"}},
		{"failed", StatusCurrent, Title{Status: TitleFailed, TokenID: "42", ChainID: 1337, Contract: contract},
			"Chain transaction failed", "t-failed", []string{"signed record still stands"}, nil},
		{"disabled", StatusCurrent, Title{Status: TitleDisabled, TokenID: "42", Standard: "ERC-5192", HolderKind: HolderRegistryCustody},
			"Registry record only (no chain configured)", "t-disabled", []string{`<code id="token-id" dir="ltr">42</code>`},
			[]string{"title-holder", "title-contract", "title-chain", "title-mint-tx"}},
		{"disabled, retired", StatusSuperseded, Title{Status: TitleBurned, TokenID: "42", BurnRequestedAt: later},
			"Burned (this version was superseded)", "t-burned", []string{"no chain", `<dd id="title-burn">retired by the registry on`}, []string{"title-burn-tx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			title := tt.title
			v := View{Hash: hash, Found: true, Authentic: true, Status: tt.status, ParcelID: "prc_X", City: "Abuja",
				Notary: "NOT-ABJ-1", Version: 2, CertifiedAt: at, TokenID: "42", AnchorStatus: "ANCHORED", Title: &title,
				History: []Version{{Version: 1, Status: StatusSuperseded, Hash: "0x" + strings.Repeat("ab", 32), CertifiedAt: at, TokenStatus: TitleBurned},
					{Version: 2, Status: tt.status, Hash: hash, CertifiedAt: at, TokenStatus: tt.title.Status}}}
			body, err := Render(v)
			require.NoError(t, err)
			s := string(body)
			require.Contains(t, s, `<p id="title-word" class="word">`+tt.word+`</p>`)
			require.Contains(t, s, `class="chain `+tt.class+`"`)
			require.Contains(t, s, `<code id="title-status" dir="ltr">`+tt.title.Status+`</code>`)
			for _, w := range tt.want {
				require.Contains(t, s, w)
			}
			for _, a := range tt.absent {
				require.NotContains(t, s, a)
			}
			require.Contains(t, s, `<span class="tag t-burned" data-token-status="BURNED">Burned</span>`, "the history names each version's title")
			require.Contains(t, s, `data-token-status="`+tt.title.Status+`"`)
			require.Equal(t, 1, strings.Count(s, `id="token-id"`))
		})
	}
	// Without a title (an older registry), the certificate keeps its token and anchor.
	tx := "0x" + strings.Repeat("e5", 32)
	body, err := Render(View{Hash: hash, Found: true, Authentic: true, Status: StatusCurrent, TokenID: "9", AnchorStatus: "ANCHORED", AnchorTx: tx})
	require.NoError(t, err)
	require.Contains(t, string(body), `<dd id="anchor">Anchored on chain in transaction <code dir="ltr">`+tx+`</code></dd>`)
	body, err = Render(View{Lang: "fr", Hash: hash, Found: true, Authentic: true, Status: StatusCurrent, TokenID: "9"})
	require.NoError(t, err)
	require.Contains(t, string(body), `<dd id="anchor">Non ancré</dd>`)
	require.NotContains(t, string(body), "Land title on chain")
}

func with(t Title, f func(*Title)) Title {
	f(&t)
	return t
}
