package catalogue_test

import (
	"net/http/httptest"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/catalogue"
)

// TestComplete loads the embedded catalogue: every page's file holds every
// language, each with every key of English and nothing else.
func TestComplete(t *testing.T) {
	require.NotPanics(t, func() { catalogue.Pages() })
	for _, page := range []string{"common", "consent", "ownerconsent", "attestation", "registry", "certificate", "dashboard"} {
		require.Contains(t, catalogue.Pages(), page)
		tab := catalogue.Page(page)
		for _, lang := range catalogue.Languages {
			require.Len(t, tab[lang], len(tab[catalogue.Default]), "%s.json: %s", page, lang)
		}
	}
}

func TestCheckFindsEveryGap(t *testing.T) {
	full := func() catalogue.Table {
		t := catalogue.Table{}
		for _, l := range catalogue.Languages {
			t[l] = map[string]string{"a": "x", "b": "y"}
		}
		return t
	}
	for _, tc := range []struct {
		name  string
		edit  func(catalogue.Table)
		wants []string
	}{
		{"complete", func(catalogue.Table) {}, nil},
		{"a key missing in one language", func(t catalogue.Table) { delete(t["pt"], "b") }, []string{`pt lacks "b"`}},
		{"an empty text", func(t catalogue.Table) { t["ar"]["a"] = "" }, []string{`ar lacks "a"`}},
		{"a key only in one language", func(t catalogue.Table) { t["de"]["c"] = "z" }, []string{`de has "c"`}},
		{"a language missing", func(t catalogue.Table) { delete(t, "it") }, []string{"the language it is missing"}},
		{"an unknown language", func(t catalogue.Table) { t["xx"] = map[string]string{} }, []string{"xx is not one of"}},
		{"two gaps, both named", func(t catalogue.Table) { delete(t["fr"], "a"); delete(t["es"], "b") },
			[]string{`fr lacks "a"`, `es lacks "b"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := full()
			tc.edit(tab)
			err := catalogue.Check(tab)
			if tc.wants == nil {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, w := range tc.wants {
				require.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	_, err := catalogue.Load(fstest.MapFS{
		"registry.json": {Data: []byte(`{"en":{"a":"x"},"fr":{"a":"y"}}`)},
		"broken.json":   {Data: []byte(`{`)},
	})
	require.ErrorContains(t, err, "registry.json: the language es is missing")
	require.ErrorContains(t, err, "broken.json:")
}

func TestNegotiate(t *testing.T) {
	for _, tc := range []struct{ override, accept, want string }{
		{"", "", "en"},
		{"ar", "fr", "ar"},
		{"AR", "", "ar"},
		{"xx", "pt-BR,pt;q=0.9", "pt"},
		{"", "fr-CA,fr;q=0.9,en;q=0.8", "fr"},
		{"", "de;q=0.5,it;q=0.6", "it"},
		{"", "ja,ar;q=0.2", "ar"},
		{"", "es;q=0,de", "de"},
		{"", "es;q=2", "en"},
		{"", "*", "en"},
	} {
		require.Equal(t, tc.want, catalogue.Negotiate(tc.override, tc.accept), "%q %q", tc.override, tc.accept)
	}
}

func TestFromRequest(t *testing.T) {
	for _, tc := range []struct{ target, accept, want string }{
		{"/x", "", "en"},
		{"/x?lang=ar", "fr", "ar"},
		{"/x?lang=xx", "pt-BR", "pt"},
		{"/x", "de-AT,de;q=0.9", "de"},
	} {
		r := httptest.NewRequest("GET", tc.target, nil)
		if tc.accept != "" {
			r.Header.Set("Accept-Language", tc.accept)
		}
		require.Equal(t, tc.want, catalogue.FromRequest(r), "%s %q", tc.target, tc.accept)
	}
}

func TestDatesAndNumbers(t *testing.T) {
	at := time.Date(2026, time.January, 2, 14, 5, 0, 0, time.UTC)
	for _, tc := range []struct{ lang, date, dateTime, number string }{
		{"en", "2 January 2026", "2 January 2026, 14:05 UTC", "1,234,567.5"},
		{"fr", "2 janvier 2026", "2 janvier 2026 à 14:05 UTC", "1\u00a0234\u00a0567,5"},
		{"es", "2 de enero de 2026", "2 de enero de 2026, 14:05 UTC", "1.234.567,5"},
		{"pt", "2 de janeiro de 2026", "2 de janeiro de 2026, 14:05 UTC", "1.234.567,5"},
		{"ar", "2 يناير 2026", "2 يناير 2026، 14:05 UTC", "1,234,567.5"},
		{"de", "2. Januar 2026", "2. Januar 2026, 14:05 UTC", "1.234.567,5"},
		{"it", "2 gennaio 2026", "2 gennaio 2026, 14:05 UTC", "1.234.567,5"},
		{"zz", "2 January 2026", "2 January 2026, 14:05 UTC", "1,234,567.5"},
	} {
		require.Equal(t, tc.date, catalogue.Date(tc.lang, at), tc.lang)
		require.Equal(t, tc.dateTime, catalogue.DateTime(tc.lang, at), tc.lang)
		require.Equal(t, tc.number, catalogue.Number(tc.lang, 1234567.5, 1), tc.lang)
	}
	require.Equal(t, "", catalogue.Date("en", time.Time{}))
	require.Equal(t, "-1,000", catalogue.Number("en", -1000, 0))
	require.Equal(t, "0", catalogue.Number("en", -0.2, 0))
	require.Equal(t, "999", catalogue.Number("en", 999, 0))
	require.Equal(t, "rtl", catalogue.Dir("ar"))
	require.Equal(t, "ltr", catalogue.Dir("fr"))
	require.Equal(t, "Português", catalogue.Name("pt"))
}
