package attestationpage

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"image"
	"image/color"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/boombuler/barcode/qr"
	"github.com/makiuchi-d/gozxing"
	gzqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/internal/htmlpage"
)

const statusURL = "https://id.example/attestation/att_abcdefghijklmnopqrstuvwxyz/status"

func TestAttestationPageWrite(t *testing.T) {
	for _, tc := range []struct {
		name       string
		view       View
		wantStatus int
		want       []string // substrings of the body
		wantNot    []string
	}{
		{
			name: "found", view: View{ID: "att_abcdefghijklmnopqrstuvwxyz", Found: true, StatusURL: statusURL},
			wantStatus: http.StatusOK,
			want:       []string{`<code id="status-url" dir="ltr">` + statusURL + `</code>`, "<svg ", `id="token-form"`, `id="status"`},
			wantNot:    []string{">NOT FOUND<"},
		},
		{
			name: "unknown", view: View{ID: "att_zzzzzzzzzzzzzzzzzzzzzzzzzz"},
			wantStatus: http.StatusNotFound,
			want:       []string{"NOT FOUND", `<code id="att-id" dir="ltr">att_zzzzzzzzzzzzzzzzzzzzzzzzzz</code>`, "<h1 id=\"title\">Attestation not found</h1>"},
			wantNot:    []string{"<svg", `id="token-form"`, `id="status-url"`},
		},
		{
			name: "markup in an unknown id is text", view: View{ID: `<img src=x onerror=alert(1)>`},
			wantStatus: http.StatusNotFound,
			want:       []string{"&lt;img src=x onerror=alert(1)&gt;"},
			wantNot:    []string{"<img"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			require.NoError(t, Write(rec, tc.view))
			require.Equal(t, tc.wantStatus, rec.Code)
			h := rec.Header()
			require.Equal(t, MediaType, h.Get("Content-Type"))
			require.Equal(t, ContentSecurityPolicy(), h.Get("Content-Security-Policy"))
			require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
			require.Equal(t, "no-referrer", h.Get("Referrer-Policy"))
			require.Equal(t, "no-store", h.Get("Cache-Control"))
			require.Equal(t, "DENY", h.Get("X-Frame-Options"))
			require.Equal(t, strconv.Itoa(rec.Body.Len()), h.Get("Content-Length"))
			body := rec.Body.String()
			for _, s := range tc.want {
				require.Contains(t, body, s)
			}
			for _, s := range tc.wantNot {
				require.NotContains(t, body, s)
			}
			requireAllowedByPolicy(t, body)
		})
	}
}

// requireAllowedByPolicy checks that the page's one script and one style are the
// ones the policy allows by hash, and that it has no inline handler or style
// attribute the policy would block.
func requireAllowedByPolicy(t *testing.T, body string) {
	t.Helper()
	for _, tag := range []string{"script", "style"} {
		require.Equal(t, 1, strings.Count(body, "<"+tag+">"), tag)
		_, rest, _ := strings.Cut(body, "<"+tag+">")
		content, _, _ := strings.Cut(rest, "</"+tag+">")
		sum := sha256.Sum256([]byte(content))
		require.Contains(t, ContentSecurityPolicy(), tag+"-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", tag)
	}
	tags := strings.Join(regexp.MustCompile(`<[^>]*>`).FindAllString(body, -1), "\n")
	tags = strings.ReplaceAll(tags, `xmlns="http://www.w3.org/2000/svg"`, "")
	require.Equal(t, 1, strings.Count(tags, `<script type="application/json" id="i18n">`), "the labels' data block")
	tags = strings.ReplaceAll(tags, `<script type="application/json" id="i18n">`, "")
	require.NotRegexp(t, `(?i)\son[a-z]+=|\sstyle=|<script\s|src=|https?:`, tags,
		"no inline handler, style attribute, external script or resource")
}

// TestAttestationQRCode draws codes back into a module grid from the SVG path, decodes it with
// ZXing, and compares it module by module with the symbol the barcode package
// encodes, quiet zone included.
func TestAttestationQRCode(t *testing.T) {
	for _, text := range []string{
		statusURL,
		"http://veriland.test/attestation/att_abcdefghijklmnopqrstuvwxyz/status",
		"x",
	} {
		t.Run(text, func(t *testing.T) {
			const quietZone = htmlpage.QuietZone
			svg, err := QRCode(text)
			require.NoError(t, err)
			code, err := qr.Encode(text, qr.M, qr.Auto)
			require.NoError(t, err)
			n := code.Bounds().Dx()
			size := n + 2*quietZone
			require.Contains(t, svg, `viewBox="0 0 `+strconv.Itoa(size)+" "+strconv.Itoa(size)+`"`)

			grid := make([][]bool, size)
			for i := range grid {
				grid[i] = make([]bool, size)
			}
			re := regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`)
			d := regexp.MustCompile(`d="([^"]*)"`).FindStringSubmatch(svg)[1]
			require.Equal(t, d, strings.Join(re.FindAllString(d, -1), ""), "the path holds only unit-high runs")
			for _, m := range re.FindAllStringSubmatch(d, -1) {
				x, _ := strconv.Atoi(m[1])
				y, _ := strconv.Atoi(m[2])
				w, _ := strconv.Atoi(m[3])
				require.Equal(t, m[3], m[4])
				for i := range w {
					require.False(t, grid[y][x+i], "modules drawn twice")
					grid[y][x+i] = true
				}
			}
			img := image.NewGray(image.Rect(0, 0, size*4, size*4))
			for y := range size * 4 {
				for x := range size * 4 {
					img.SetGray(x, y, color.Gray{Y: map[bool]uint8{true: 0, false: 255}[grid[y/4][x/4]]})
				}
			}
			bmp, err := gozxing.NewBinaryBitmapFromImage(img)
			require.NoError(t, err)
			res, err := gzqr.NewQRCodeReader().Decode(bmp, nil)
			require.NoError(t, err, "a reader decodes the drawn code")
			require.Equal(t, text, res.GetText())
			for y := range size {
				for x := range size {
					want := false
					if x >= quietZone && y >= quietZone && x < quietZone+n && y < quietZone+n {
						r, _, _, _ := code.At(x-quietZone, y-quietZone).RGBA()
						want = r < 0x8000
					}
					require.Equal(t, want, grid[y][x], "module (%d, %d)", x, y)
				}
			}
		})
	}
	_, err := QRCode(strings.Repeat("x", 5000))
	require.Error(t, err, "longer than a QR code holds")
}

func TestAttestationPageRefusesAStatusURLTooLongForACode(t *testing.T) {
	_, err := Render(View{ID: "att_x", Found: true, StatusURL: strings.Repeat("x", 5000)})
	require.ErrorContains(t, err, "QR code")
}

// TestAttestationPageLanguages renders the page of a known and of an unknown id in
// each of the consent page's languages: Content-Language, <html lang dir> (right to
// left for Arabic), the heading and the switcher in that language, the labels of
// that language only in the script's data block, and one policy for all; an unknown
// language is served in English.
func TestAttestationPageLanguages(t *testing.T) {
	type tc struct {
		name, lang, want, wantDir string
		found                     bool
	}
	var cases []tc
	for _, l := range consentpage.Languages {
		dir := "ltr"
		if l == "ar" {
			dir = "rtl"
		}
		cases = append(cases, tc{name: l + " found", lang: l, want: l, wantDir: dir, found: true},
			tc{name: l + " unknown id", lang: l, want: l, wantDir: dir})
	}
	cases = append(cases, tc{name: "an unknown language is English", lang: "xx", want: "en", wantDir: "ltr", found: true},
		tc{name: "no language is English", lang: "", want: "en", wantDir: "ltr"})
	seen := map[string]string{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			require.NoError(t, Write(rec, View{ID: "att_abcdefghijklmnopqrstuvwxyz", Found: c.found, StatusURL: statusURL, Lang: c.lang}))
			require.Equal(t, c.want, rec.Header().Get("Content-Language"))
			body := rec.Body.String()
			require.Contains(t, body, `<html lang="`+c.want+`" dir="`+c.wantDir+`">`)
			h1 := Label(c.want, "nf.title")
			if c.found {
				h1 = Label(c.want, "title")
			}
			require.Contains(t, body, `<h1 id="title">`+template.HTMLEscapeString(h1)+`</h1>`)
			require.Contains(t, body, `<label for="lang">`+template.HTMLEscapeString(Label(c.want, "language"))+`</label>`)
			require.Contains(t, body, `<option value="`+c.want+`" lang="`+c.want+`" dir="`+c.wantDir+`" selected>`)
			require.Equal(t, 1, strings.Count(body, " selected>"))
			require.Equal(t, len(consentpage.Languages), strings.Count(body, "<option "))
			_, rest, _ := strings.Cut(body, `<script type="application/json" id="i18n">`)
			block, _, _ := strings.Cut(rest, "</script>")
			var got map[string]string
			require.NoError(t, json.Unmarshal([]byte(block), &got))
			require.Equal(t, Label(c.want, "state.REVOKED"), got["state.REVOKED"])
			require.Equal(t, Label(c.want, "scope.is_adult"), got["scope.is_adult"])
			requireAllowedByPolicy(t, body)
			if c.found && c.lang == c.want {
				if other, dup := seen[got["state.VALID"]+got["h1.CONSENT"]]; dup {
					t.Fatalf("%s has the same status word and heading as %s", c.want, other)
				}
				seen[got["state.VALID"]+got["h1.CONSENT"]] = c.want
			}
		})
	}
}

// TestAttestationPageLabels checks that every language has every label, that the
// placeholders of each label are those of its English one, and that Label falls back
// to English.
func TestAttestationPageLabels(t *testing.T) {
	placeholders := regexp.MustCompile(`\{\w+\}`)
	for _, l := range consentpage.Languages {
		t.Run(l, func(t *testing.T) {
			require.Len(t, labels[l], len(labels["en"]))
			for k, en := range labels["en"] {
				require.ElementsMatch(t, placeholders.FindAllString(en, -1), placeholders.FindAllString(labels[l][k], -1), k)
			}
		})
	}
	require.Equal(t, "VALID", Label("xx", "state.VALID"))
	require.Equal(t, "RÉVOQUÉE", Label("fr", "state.REVOKED"))
	require.Equal(t, "rtl", Label("ar", "dir"))
	require.Equal(t, "", Label("en", "no.such.label"))
}
