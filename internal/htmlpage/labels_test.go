package htmlpage_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/htmlpage"
)

func TestLabels(t *testing.T) {
	langs := []string{"en", "ar"}
	for _, tc := range []struct {
		name, table, err string
	}{
		{"complete", `{"en":{"a":"A","b":"B"},"ar":{"a":"أ","b":"ب"}}`, ""},
		{"a key missing", `{"en":{"a":"A","b":"B"},"ar":{"a":"أ"}}`, `ar lacks "b"`},
		{"a key empty", `{"en":{"a":"A","b":"B"},"ar":{"a":"أ","b":""}}`, `ar lacks "b"`},
		{"a key too many", `{"en":{"a":"A"},"ar":{"a":"أ","c":"ج"}}`, `ar has "c", which en does not`},
		{"a language missing", `{"en":{"a":"A"}}`, "the language ar is missing"},
		{"a language too many", `{"en":{"a":"A"},"ar":{"a":"أ"},"fr":{"a":"A"}}`, "fr is not one of"},
		{"not JSON", `{"en":`, "unexpected end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := htmlpage.Labels([]byte(tc.table), langs, "en")
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, "ب", m["ar"]["b"])
		})
	}
	_, err := htmlpage.Labels([]byte(`{"en":{}}`), langs, "fr")
	require.ErrorContains(t, err, "default language fr")
}

func TestInlinePolicy(t *testing.T) {
	doc := []byte(`<style>a{}</style><script type="application/json">{}</script><script>x()</script>`)
	csp, err := htmlpage.InlinePolicy(doc)
	require.NoError(t, err)
	require.Equal(t, "default-src 'none'; script-src '"+htmlpage.Hash([]byte("x()"))+"'; style-src '"+htmlpage.Hash([]byte("a{}"))+"'; "+
		"connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; "+
		"require-trusted-types-for 'script'; trusted-types 'none'", csp)
	for _, bad := range []string{`<script>x()</script>`, `<style>a{}</style>`, strings.Repeat(`<style>a{}</style>`, 2) + `<script>x()</script>`} {
		_, err := htmlpage.InlinePolicy([]byte(bad))
		require.Error(t, err, bad)
	}
}

func TestSwitcher(t *testing.T) {
	names := map[string]string{"en": "English", "ar": "العربية"}
	got := htmlpage.Switcher([]string{"en", "ar"}, "ar",
		func(c string) string { return names[c] },
		func(c string) string {
			if c == "ar" {
				return "rtl"
			}
			return "ltr"
		})
	require.Equal(t, []htmlpage.Language{
		{Code: "en", Name: "English", Dir: "ltr"},
		{Code: "ar", Name: "العربية", Dir: "rtl", Selected: true},
	}, got)
}
