package apidocs_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/httpserver/apidocs"
)

func TestRendererIsThePinnedBundle(t *testing.T) {
	sum := sha256.Sum256(apidocs.Renderer())
	require.Equal(t, apidocs.RendererSHA256, hex.EncodeToString(sum[:]), "vendor/redoc-%s.standalone.js changed: see vendor/README.md", apidocs.RendererVersion)
	require.Contains(t, apidocs.RendererPath, apidocs.RendererVersion)
}

func TestPageAndPolicy(t *testing.T) {
	page := string(apidocs.Page())
	csp := apidocs.ContentSecurityPolicy()
	cases := []struct {
		name string
		ok   bool
	}{
		{"the page loads the bundle from its own path", strings.Contains(page, `<script src="`+apidocs.RendererPath+`" integrity="`+apidocs.Integrity()+`"></script>`)},
		{"the page reads the server's own document", strings.Contains(page, `Redoc.init('/v1/openapi.json'`)},
		{"no other origin in the page", !strings.Contains(page, "http://") && !strings.Contains(page, "https://")},
		{"lang is set", strings.Contains(page, `<html lang="en">`)},
		{"default-src none", strings.HasPrefix(csp, "default-src 'none'; ")},
		{"scripts: own origin and the inline script's hash only", strings.Contains(csp, "script-src 'self' 'sha256-")},
		{"no unsafe-inline", !strings.Contains(csp, "unsafe-inline")},
		{"no unsafe-eval", !strings.Contains(csp, "unsafe-eval")},
		{"no framing", strings.Contains(csp, "frame-ancestors 'none'")},
		{"no other origin in the policy", !strings.Contains(csp, "http")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { require.True(t, c.ok, "page:\n%s\npolicy: %s", page, csp) })
	}
}

func TestWriters(t *testing.T) {
	cases := []struct {
		name   string
		write  func(*httptest.ResponseRecorder)
		media  string
		cache  string
		csp    bool
		length int
	}{
		{"page", func(w *httptest.ResponseRecorder) { apidocs.WritePage(w) }, apidocs.MediaTypeHTML, "no-cache", true, len(apidocs.Page())},
		{"renderer", func(w *httptest.ResponseRecorder) { apidocs.WriteRenderer(w) }, apidocs.MediaTypeJavaScript, "public, max-age=31536000, immutable", false, len(apidocs.Renderer())},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			c.write(w)
			require.Equal(t, 200, w.Code)
			require.Equal(t, c.media, w.Header().Get("Content-Type"))
			require.Equal(t, c.cache, w.Header().Get("Cache-Control"))
			require.Equal(t, "nosniff", w.Header().Get("X-Content-Type-Options"))
			require.Equal(t, c.csp, w.Header().Get("Content-Security-Policy") != "")
			require.Equal(t, c.length, w.Body.Len())
		})
	}
}
