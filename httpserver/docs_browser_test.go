package httpserver

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/httpserver/apidocs"
	"github.com/veriland/veriland/internal/testenv"
)

// The harness validates every exchange against the OpenAPI document; kin-openapi
// decodes no JavaScript bodies by default: the renderer is checked as the string its
// schema says it is.
func init() {
	openapi3filter.RegisterBodyDecoder("text/javascript", openapi3filter.PlainBodyDecoder)
}

// TestAPIDocsServed checks the two responses of the API reference: the page with its
// policy, and the pinned renderer, both public and never rate limited.
func TestAPIDocsServed(t *testing.T) {
	h := newHarness(t)
	cases := []struct {
		path, media string
		body        []byte
		csp         string
	}{
		{apidocs.PagePath, apidocs.MediaTypeHTML, apidocs.Page(), apidocs.ContentSecurityPolicy()},
		{apidocs.RendererPath, apidocs.MediaTypeJavaScript, apidocs.Renderer(), ""},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := h.do(request{method: "GET", path: c.path, header: map[string]string{"Accept": "text/html"}})
			require.Equal(t, http.StatusOK, r.status)
			require.Equal(t, c.media, r.header.Get("Content-Type"))
			require.Equal(t, c.csp, r.header.Get("Content-Security-Policy"))
			require.Empty(t, r.header.Get("RateLimit"), "never rate limited")
			require.Equal(t, c.body, r.body)
		})
	}
}

// TestAPIDocsInChromium opens /docs in headless Chromium: Redoc renders every operation
// and every webhook of the served document, styled (its CSS-in-JS works under the
// page's policy), with no script error and no CSP violation; screenshots at desktop
// and phone sizes go to $VERILAND_SCREENSHOT_DIR (else a temp dir).
func TestAPIDocsInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the API reference)", "set VERILAND_CHROMIUM, or put chromium on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
		Webhooks map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"webhooks"`
	}
	require.NoError(t, json.Unmarshal(openAPIDocument, &doc))
	var operations, webhooks []string
	for _, ops := range doc.Paths {
		for _, op := range ops {
			operations = append(operations, op.OperationID)
		}
	}
	for _, ops := range doc.Webhooks {
		for _, op := range ops {
			webhooks = append(webhooks, op.OperationID)
		}
	}
	require.NotEmpty(t, webhooks)

	shots := screenshotDir(t)
	b := launchBrowser(t, bin)
	p := b.newPage(t, nil)
	p.navigate(h.ts.URL + "/docs")
	p.waitFor(`document.querySelectorAll('[data-section-id*="operation/"]').length >= ` + jsonNumber(len(operations)+len(webhooks)))

	ids, _ := p.eval(`Array.from(document.querySelectorAll('[data-section-id*="operation/"]')).map(e => e.getAttribute('data-section-id'))`).([]any)
	rendered := map[string]bool{}
	for _, id := range ids {
		s := id.(string)
		for i := len(s) - 1; i >= 0; i-- {
			if s[i] == '/' {
				rendered[s[i+1:]] = true
				break
			}
		}
	}
	for _, id := range append(append([]string{}, operations...), webhooks...) {
		require.True(t, rendered[id], "operation %s is rendered", id)
	}
	require.Equal(t, "veriland (1.0.0)", p.text("h1"))
	// The styles apply: Redoc's sheets are filled through the CSSOM under the policy.
	require.Equal(t, "rgb(246, 248, 250)", p.eval(`getComputedStyle(document.querySelector('.menu-content')).backgroundColor`))
	require.Equal(t, "en", p.eval(`document.documentElement.lang`))

	// Search runs (in its blob: worker) and finds an operation by its summary.
	p.eval(`(function () { var i = document.querySelector('input[placeholder="Search..."]'); var set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set; set.call(i, 'signed decision'); i.dispatchEvent(new Event('input', {bubbles: true})); }())`)
	p.waitFor(`document.querySelector('[data-role="search:results"] [data-item-id$="operation/decideConsent"]')`)

	p.viewportShots(t, shots, "docs-search", "")
	p.viewportShots(t, shots, "docs-operation", `[data-section-id$="operation/decideConsent"]`)
	p.drain()
	// The one thing the policy refuses is Redoc's footer logo on its CDN: nothing is
	// loaded from another origin.
	for _, problem := range p.problemList() {
		require.Contains(t, problem, "Loading the image 'https://cdn.redoc.ly/redoc/logo-mini.svg' violates the following Content Security Policy directive")
	}
}

// viewportShots saves what the viewport shows at desktop (1280×800) and phone
// (390×844) sizes, scrolled to the element selector names when it is not empty: the
// reference is far too long for a full-page capture.
func (p *tab) viewportShots(t *testing.T, dir, name, selector string) {
	t.Helper()
	for _, size := range []struct {
		suffix        string
		width, height int
		mobile        bool
	}{
		{"desktop", 1280, 800, false},
		{"phone", 390, 844, true},
	} {
		p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": size.width, "height": size.height, "deviceScaleFactor": 1, "mobile": size.mobile}, nil)
		var shot struct {
			Data string `json:"data"`
		}
		if selector != "" {
			sel := jsString(selector)
			p.eval(`document.querySelector(` + sel + `).scrollIntoView()`)
			p.waitFor(`Math.abs(document.querySelector(` + sel + `).getBoundingClientRect().top) < 5`)
		}
		p.call("Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
		png, err := base64.StdEncoding.DecodeString(shot.Data)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"-"+size.suffix+".png"), png, 0o644))
	}
	p.call("Emulation.clearDeviceMetricsOverride", nil, nil)
}

func jsonNumber(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
