package registrypage

import (
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/catalogue"
)

// pageViews are the page's forms: each certificate status, and the not found, not
// authentic and malformed pages; the certificate ones carry a land title, an owner's
// wallet, an anchor-less history and a drawn parcel, so that every section shows.
func pageViews() []struct {
	name, verdict string
	status        int
	view          View
} {
	at := time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC)
	hash := "0x" + strings.Repeat("cd", 32)
	wallet := "0x" + strings.Repeat("1f", 20)
	found := func(status, token string) View {
		return View{Hash: hash, Found: true, Authentic: true, Status: status, ParcelID: "prc_X", City: "Abuja", Notary: "NOT-ABJ-1",
			Version: 2, CertifiedAt: at, TokenID: "42", OwnerWallet: wallet, OwnerBinding: "NOTARY_VERIFIED",
			Lat: 9.0765, Lon: 7.3986, AreaM2: 1200,
			Title: &Title{Status: token, TokenID: "42", Standard: "ERC-5192", HolderKind: HolderOwnerWallet, Holder: wallet, BurnRequestedAt: at},
			History: []Version{{Version: 1, Status: StatusSuperseded, Hash: "0x" + strings.Repeat("ab", 32), CertifiedAt: at, TokenStatus: TitleBurned},
				{Version: 2, Status: status, Hash: hash, CertifiedAt: at, OwnerWallet: wallet, OwnerConsent: "OWNER_SIGNATURE", TokenStatus: token}}}
	}
	notAuthentic := found(StatusCurrent, TitleMinted)
	notAuthentic.Authentic = false
	return []struct {
		name, verdict string
		status        int
		view          View
	}{
		{"current", "current", http.StatusOK, found(StatusCurrent, TitleMinted)},
		{"superseded", "superseded", http.StatusOK, found(StatusSuperseded, TitleBurned)},
		{"revoked", "revoked", http.StatusOK, found(StatusRevoked, TitleBurned)},
		{"not authentic", "notAuthentic", http.StatusOK, notAuthentic},
		{"not found", "notFound", http.StatusNotFound, View{Hash: hash}},
		{"malformed", "malformed", http.StatusBadRequest, View{Hash: "0x12", Malformed: true}},
	}
}

// visibleText is what a reader sees of a page: its text without the style, the
// code elements (hashes, ids, addresses: no language) and the language switcher
// (each language named in itself), unescaped.
func visibleText(body string) string {
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`(?s)<style>.*?</style>`), regexp.MustCompile(`(?s)<code[^>]*>.*?</code>`),
		regexp.MustCompile(`(?s)<nav .*?</nav>`), regexp.MustCompile(`<[^>]+>`),
	} {
		body = re.ReplaceAllString(body, " ")
	}
	return html.UnescapeString(body)
}

// TestEveryStatusInEveryLanguage renders every form of the page in every language:
// its lang and dir, its Content-Language, the verdict from the catalogue, and no
// English left in a page of another language (every English message of the table
// that the language words differently, cut at its placeholders).
func TestEveryStatusInEveryLanguage(t *testing.T) {
	table := catalogue.Page(Page)
	for _, pv := range pageViews() {
		for _, lang := range catalogue.Languages {
			t.Run(pv.name+"/"+lang, func(t *testing.T) {
				v := pv.view
				v.Lang = lang
				rec := httptest.NewRecorder()
				require.NoError(t, Write(rec, v))
				require.Equal(t, pv.status, rec.Code)
				require.Equal(t, lang, rec.Header().Get("Content-Language"))
				body := rec.Body.String()
				require.Contains(t, body, `<html lang="`+lang+`" dir="`+catalogue.Dir(lang)+`">`)
				require.Contains(t, body, `<h1 id="title">`+html.EscapeString(Text(lang, "verdict."+pv.verdict+".title"))+`</h1>`)
				require.Contains(t, body, `<p id="verdict-word" class="word">`+html.EscapeString(Text(lang, "verdict."+pv.verdict+".word"))+`</p>`)
				require.Contains(t, body, `<p id="verdict-text">`+html.EscapeString(Text(lang, "verdict."+pv.verdict+".text"))+`</p>`)
				require.NotContains(t, body, "<script")
				require.NotContains(t, body, " style=", "the policy allows no style attribute")
				if lang == catalogue.Default {
					return
				}
				require.NotEqual(t, Text("en", "verdict."+pv.verdict+".text"), Text(lang, "verdict."+pv.verdict+".text"))
				seen := visibleText(body)
				for key, english := range table[catalogue.Default] {
					if english == table[lang][key] {
						continue
					}
					for _, part := range regexp.MustCompile(`\{\w+\}`).Split(english, -1) {
						part = strings.TrimSpace(part)
						if len([]rune(part)) < 6 || strings.Contains(table[lang][key], part) {
							continue
						}
						require.NotContains(t, seen, part, "English %s (%q) on the %s page", key, english, lang)
					}
				}
			})
		}
	}
}

// TestLanguageSwitcher: a nav of links to ?lang= for each language, named in
// itself, in its own direction, the page's own marked aria-current.
func TestLanguageSwitcher(t *testing.T) {
	for _, lang := range []string{"en", "ar", "pt", "xx"} {
		body, err := Render(View{Lang: lang, Hash: "0x12", Malformed: true})
		require.NoError(t, err)
		s := string(body)
		want := catalogue.Lang(lang)
		require.Equal(t, 1, strings.Count(s, `aria-current="page"`))
		require.Contains(t, s, `<nav class="langs" aria-label="`+html.EscapeString(Text(want, "languages"))+`">`)
		for _, l := range catalogue.Languages {
			current := ""
			if l == want {
				current = ` aria-current="page"`
			}
			require.Contains(t, s, `<a href="?lang=`+l+`" lang="`+l+`" hreflang="`+l+`" dir="`+catalogue.Dir(l)+`"`+current+`>`+catalogue.Name(l)+`</a>`)
		}
	}
}

// TestWhere: the parcel drawn, its boundary polygon or the circle of its area,
// with its GPS point and area in the page's language beside it.
func TestWhere(t *testing.T) {
	ring := [][2]float64{{3.3790, 6.5240}, {3.37936, 6.5240}, {3.37936, 6.52427}, {3.37918, 6.52440}, {3.3790, 6.52427}, {3.3790, 6.5240}}
	base := View{Hash: "0x" + strings.Repeat("cd", 32), Found: true, Authentic: true, Status: StatusCurrent, Lat: 6.5242, Lon: 3.3792}
	tests := []struct {
		name, lang string
		area       float64
		ring       [][2]float64
		shape      string // "" for no section
		want       []string
		absent     []string
	}{
		{"boundary", "en", 1385, ring, "boundary",
			[]string{`<polygon id="plan-boundary" points="`, `<dd id="boundary">Surveyed, 5 corners</dd>`, `<dd id="area">1,385 m²</dd>`,
				`<bdi id="lat" dir="ltr">6.5242°</bdi>`, `<bdi id="lon" dir="ltr">3.3792°</bdi>`, "<title id=\"plan-title\">Drawing of the parcel</title>"},
			[]string{`id="plan-area"`}},
		{"boundary in French", "fr", 1385.5, ring, "boundary",
			[]string{`<dd id="boundary">Levée, 5 sommets</dd>`, "<dd id=\"area\">1\u00a0385,5 m²</dd>", `<bdi id="lat" dir="ltr">6,5242°</bdi>`, "Plan de la parcelle"}, nil},
		{"circle", "ar", 1200, nil, "circle",
			[]string{`<circle id="plan-area"`, `<dd id="area">1,200 م²</dd>`, Text("ar", "boundary.none"), "مخطط القطعة"},
			[]string{`id="plan-boundary"`}},
		{"a ring that cannot be drawn: the circle", "de", 1200, [][2]float64{{3.379, 6.524}, {3.38, 6.524}, {3.379, 6.524}}, "circle",
			[]string{`<circle id="plan-area"`, "<dd id=\"area\">1.200 m²</dd>"}, nil},
		{"neither area nor boundary", "en", 0, nil, "", nil, []string{`id="where"`, "<svg"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := base
			v.Lang, v.AreaM2, v.Ring = tt.lang, tt.area, tt.ring
			body, err := Render(v)
			require.NoError(t, err)
			s := string(body)
			if tt.shape != "" {
				require.Contains(t, s, `<div class="place" id="where" data-shape="`+tt.shape+`">`)
				require.Contains(t, s, `<h2 id="where-title">`+Text(tt.lang, "h.where")+`</h2>`)
				require.Equal(t, 1, strings.Count(s, "<svg "))
				require.Contains(t, s, `viewBox="0 0 360 270"`)
			}
			for _, w := range tt.want {
				require.Contains(t, s, w)
			}
			for _, a := range tt.absent {
				require.NotContains(t, s, a)
			}
		})
	}
}

// TestTemplateKeys: every message the template asks for is in the table (t fails
// the render otherwise), and the table has no key that nothing asks for.
func TestTemplateKeys(t *testing.T) {
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?:t|phrase) \$?\.Lang "([^"]+)"`).FindAllStringSubmatch(source, -1) {
		used[m[1]] = true
	}
	require.NotEmpty(t, used)
	for key := range used {
		require.NotEmpty(t, Text("en", key), key)
	}
	code := readSource(t)
	for key := range catalogue.Page(Page)[catalogue.Default] {
		if used[key] || strings.Contains(code, `"`+key+`"`) {
			continue
		}
		// Keys built from a prefix and a code (status.CURRENT, anchor.PENDING, …).
		prefix := key[:strings.LastIndex(key, ".")+1]
		if strings.HasPrefix(key, "verdict.") {
			prefix = "verdict."
		}
		require.True(t, strings.Contains(code, `"`+prefix+`"`) || strings.Contains(code, `"`+prefix), "%s is used nowhere", key)
	}
}

func readSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("registrypage.go")
	require.NoError(t, err)
	return string(b)
}

// TestTranslated: no message of another language is its English text, but for the
// few words the languages share with English (checked one by one, so a text
// copied from English while translating is caught).
func TestTranslated(t *testing.T) {
	shared := map[string][]string{
		"fr": {"dt.version", "th.version", "dt.latitude", "dt.longitude"},
		"es": {"authentic.no", "dt.token"},
		"pt": {"dt.token", "dt.latitude", "dt.longitude"},
		"de": {"dt.status", "th.status", "dt.token", "dt.standard"},
		"it": {"authentic.no", "dt.token", "dt.standard"},
	}
	table := catalogue.Page(Page)
	for _, lang := range catalogue.Languages[1:] {
		for key, english := range table[catalogue.Default] {
			if table[lang][key] == english {
				require.Contains(t, shared[lang], key, "%s %s is the English %q", lang, key, english)
			}
		}
	}
}
