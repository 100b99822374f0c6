package httpserver

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/unicode/norm"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/internal/testenv"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/pdf"
)

// TestParcelCertificatePDFLanguage: the PDF certificate is in the language ?lang=
// names, else the one Accept-Language prefers, else English; Content-Language says
// which, Vary names Accept-Language; the page draws the parcel's surveyed boundary
// and still embeds the signed certificate.
func TestParcelCertificatePDFLanguage(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)
	ring := `[[7.3983,9.0762],[7.3989,9.0762],[7.3989,9.0768],[7.3983,9.0768],[7.3983,9.0762]]`
	b, err := parcel.ParseBoundary(json.RawMessage(`{"type":"Polygon","coordinates":[` + ring + `]}`))
	require.NoError(t, err)
	body := fmt.Sprintf(`{"owner":{"fullName":%q,"id_doc":%q},"parcel":{"gps":[9.0765,7.3986],"area_m2":%d,"city":"Abuja","boundary":{"type":"Polygon","coordinates":[%s]}},"notary":%q}`,
		ownerName, ownerIDDoc, int(math.Round(b.AreaM2())), ring, parcelNotary)
	r := h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: body})
	require.Equal(t, 201, r.status, string(r.body))
	id := attrs(t, r)["id"].(string)
	f.post(t, "/v1/parcels/"+id+"/certify", f.notary, nil, 200)

	c := catalogue.Page("certificate")
	tests := []struct {
		query, acceptLanguage, want string
	}{
		{"", "", "en"},
		{"", "ar, en;q=0.5", "ar"},
		{"", "pt-BR,pt;q=0.9", "pt"},
		{"?lang=fr", "ar", "fr"},
		{"?lang=xx", "de-CH", "de"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			hdr := map[string]string{"Accept": "application/pdf"}
			if tt.acceptLanguage != "" {
				hdr["Accept-Language"] = tt.acceptLanguage
			}
			res := h.do(request{method: "GET", path: "/v1/parcels/" + id + "/certificate" + tt.query, token: f.agent, header: hdr})
			require.Equal(t, 200, res.status, string(res.body))
			require.Equal(t, mediaPDF, res.header.Get("Content-Type"))
			require.Equal(t, tt.want, res.header.Get("Content-Language"))
			require.Contains(t, res.header.Values("Vary"), "Accept-Language")
			embedded, err := pdf.ExtractCertificate(res.body)
			require.NoError(t, err)
			require.Contains(t, string(embedded), id)

			bin, err := exec.LookPath("pdftotext")
			if err != nil {
				testenv.Require(t, "pdftotext (poppler-utils)", "apt-get install -y poppler-utils")
			}
			path := filepath.Join(t.TempDir(), "c.pdf")
			require.NoError(t, os.WriteFile(path, res.body, 0o600))
			out, err := exec.Command(bin, path, "-").Output()
			require.NoError(t, err)
			text := flatText(string(out))
			require.Contains(t, text, flatText(c.Text(tt.want, "title")))
			// The surveyed boundary is drawn: the drawing says so, with its 4 corners.
			desc := catalogue.Page(catalogue.Common).Text(tt.want, "plan.boundary")
			lead, _, _ := strings.Cut(desc, "{n}")
			require.Contains(t, text, flatText(lead+"4"))
			// The land title: no chain in the harness, a registry record only.
			require.Contains(t, text, flatText(c.Text(tt.want, "token.DISABLED")))
		})
	}
}

// flatText folds text for comparison: Arabic presentation forms folded to letters
// (NFKC); bidi controls, white space and brackets dropped (pdftotext's reordering of
// right-to-left lines moves spaces next to numbers and does not mirror brackets back).
func flatText(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Bidi_Control, r) || unicode.IsSpace(r) || strings.ContainsRune("()", r) {
			return -1
		}
		return r
	}, norm.NFKC.String(s))
}

// TestPDFLandTitle: the PDF prints public chain facts of the version's own token only,
// without a chain id when there is no contract.
func TestPDFLandTitle(t *testing.T) {
	require.Nil(t, pdfLandTitle(nil, 1))
	require.Nil(t, pdfLandTitle(&parcel.Token{Version: 1}, 2), "another version's token")
	got := pdfLandTitle(&parcel.Token{Version: 2, Status: parcel.TokenMinted, Standard: "ERC-5192", Contract: "0xabc", ChainID: 31337,
		Holder: "0xdef", HolderKind: parcel.HolderRegistryCustody, Error: "node down"}, 2)
	require.Equal(t, &pdf.LandTitle{Status: "MINTED", Standard: "ERC-5192", Contract: "0xabc", ChainID: 31337, Holder: "0xdef", HolderKind: "REGISTRY_CUSTODY"}, got)
	require.Zero(t, pdfLandTitle(&parcel.Token{Version: 1, Status: parcel.TokenDisabled, ChainID: 1}, 1).ChainID)
}
