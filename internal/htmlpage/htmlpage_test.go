package htmlpage_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/htmlpage"
)

func TestElementHash(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		ok        bool
	}{
		{"one element", `<style>a{}</style>`, true},
		{"a data block beside it is not counted", `<script type="application/json">{}</script><script>x()</script>`, true},
		{"none", `<p>`, false},
		{"two", `<style>a{}</style><style>b{}</style>`, false},
		{"unclosed", `<style>a{}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open, close := "<style>", "</style>"
			if strings.Contains(tc.doc, "<script") {
				open, close = "<script>", "</script>"
			}
			h, err := htmlpage.ElementHash([]byte(tc.doc), open, close)
			if !tc.ok {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			want := "a{}"
			if open == "<script>" {
				want = "x()"
			}
			require.Equal(t, htmlpage.Hash([]byte(want)), h)
		})
	}
	// The CSP3 example: the hash of alert('Hello, world.');
	require.Equal(t, "sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=", htmlpage.Hash([]byte("alert('Hello, world.');")))
}

func TestWrite(t *testing.T) {
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Language", "fr")
	require.NoError(t, htmlpage.Write(rec, 404, "default-src 'none'", []byte("<p>x</p>")))
	h := rec.Header()
	require.Equal(t, 404, rec.Code)
	require.Equal(t, htmlpage.MediaType, h.Get("Content-Type"))
	require.Equal(t, "default-src 'none'", h.Get("Content-Security-Policy"))
	require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
	require.Equal(t, "no-referrer", h.Get("Referrer-Policy"))
	require.Equal(t, "no-store", h.Get("Cache-Control"))
	require.Equal(t, "DENY", h.Get("X-Frame-Options"))
	require.Equal(t, "8", h.Get("Content-Length"))
	require.Equal(t, "fr", h.Get("Content-Language"))
}

func TestQRPath(t *testing.T) {
	d, size, err := htmlpage.QRPath("https://veriland.example/consent/vrq_x")
	require.NoError(t, err)
	require.Equal(t, 29+2*htmlpage.QuietZone, size)               // version 3 at level M for this length
	require.True(t, strings.HasPrefix(d, "M4 4h7v1h-7z"), d[:20]) // the top-left finder's first row
	_, _, err = htmlpage.QRPath(strings.Repeat("x", 5000))
	require.Error(t, err)
}
