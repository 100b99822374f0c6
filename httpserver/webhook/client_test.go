package webhook

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/veriland/veriland"
)

// trust returns TLS settings that accept srv's test certificate.
func trust(srv *httptest.Server) *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

// hits counts the requests a test server receives.
func countingServer(t testing.TB, tlsOn bool, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	})
	var srv *httptest.Server
	if tlsOn {
		srv = httptest.NewTLSServer(handler)
	} else {
		srv = httptest.NewServer(handler)
	}
	t.Cleanup(srv.Close)
	return srv, &n
}

func ok204(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }

func TestProductionClientRefuses(t *testing.T) {
	client := NewClient(veriland.Production, CallbackPolicy{StrictSandbox: false})
	tests := []struct {
		url  string
		want error
	}{
		{"https://127.0.0.1/hook", ErrDisallowedAddress},
		{"https://[::1]/hook", ErrDisallowedAddress},
		{"https://10.0.0.1/hook", ErrDisallowedAddress},
		{"https://169.254.169.254/latest/meta-data/", ErrDisallowedAddress},
		{"https://[::ffff:169.254.169.254]/", ErrDisallowedAddress},
		{"https://localhost/hook", ErrDisallowedAddress},
		{"http://hooks.example.com/hook", ErrDisallowedURL},
		{"https://user:pw@hooks.example.com/hook", ErrDisallowedURL},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			resp, err := client.Post(tt.url, "application/json", strings.NewReader("{}"))
			if err == nil {
				resp.Body.Close()
				t.Fatalf("POST %s succeeded, want refused", tt.url)
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("POST %s: %v, want %v", tt.url, err, tt.want)
			}
		})
	}
}

// A name that passes ValidateCallbackURL but resolves to a refused address (DNS
// rebinding, or a hostile DNS record) is refused when dialled, after resolution.
func TestDialTimeCheckAfterResolution(t *testing.T) {
	srv, hits := countingServer(t, false, ok204)
	port := srv.Listener.Addr().String()
	port = port[strings.LastIndex(port, ":"):]
	names := map[string]netip.Addr{
		"rebind.example":   netip.MustParseAddr("127.0.0.1"),
		"internal.example": netip.MustParseAddr("10.0.0.1"),
		"metadata.example": netip.MustParseAddr("169.254.169.254"),
		"v6loop.example":   netip.MustParseAddr("::1"),
		"mapped.example":   netip.MustParseAddr("::ffff:127.0.0.1"),
	}
	resolver := fakeResolver(names)

	production := newClient(newGuard(veriland.Production, CallbackPolicy{}), clientDeps{resolver: resolver})
	for name := range names {
		u := "https://" + name + port + "/hook"
		if err := ValidateCallbackURL(veriland.Production, u, CallbackPolicy{}); err != nil {
			t.Fatalf("ValidateCallbackURL(%s) = %v; the name alone must look acceptable", u, err)
		}
		resp, err := production.Post(u, "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
			t.Fatalf("PRODUCTION POST %s succeeded", u)
		}
		if !errors.Is(err, ErrDisallowedAddress) {
			t.Fatalf("PRODUCTION POST %s: %v, want ErrDisallowedAddress", u, err)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("receiver got %d requests in PRODUCTION", hits.Load())
	}

	// Positive control: the same resolver in SANDBOX reaches the loopback receiver, so
	// the refusal above came from the dial-time check and not from a broken resolver.
	sandbox := newClient(newGuard(veriland.Sandbox, CallbackPolicy{}), clientDeps{resolver: resolver})
	resp, err := sandbox.Post("http://rebind.example"+port+"/hook", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("SANDBOX POST: %v", err)
	}
	resp.Body.Close()
	if hits.Load() != 1 {
		t.Fatalf("receiver got %d requests in SANDBOX, want 1", hits.Load())
	}
	strict := newClient(newGuard(veriland.Sandbox, CallbackPolicy{StrictSandbox: true}), clientDeps{resolver: resolver})
	if resp, err := strict.Get("https://rebind.example" + port + "/hook"); !errors.Is(err, ErrDisallowedAddress) {
		if err == nil {
			resp.Body.Close()
		}
		t.Fatalf("strict SANDBOX GET: %v, want ErrDisallowedAddress", err)
	}
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			target, targetHits := countingServer(t, false, ok204)
			srv, _ := countingServer(t, false, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, target.URL+"/latest/meta-data/", code)
			})
			a := Deliver(t.Context(), NewClient(veriland.Sandbox, CallbackPolicy{}), srv.URL, testSecrets(t), "msg_1", []byte(`{}`), testNow)
			if a.Succeeded() || a.StatusCode != code {
				t.Fatalf("attempt %+v, want a failed %d", a, code)
			}
			if targetHits.Load() != 0 {
				t.Fatal("redirect was followed")
			}
		})
	}
}

// In PRODUCTION the test receiver is itself on loopback, so the test exempts exactly
// its address; the redirect it answers, to loopback or to the metadata service, is
// still not followed.
func TestProductionRedirectToLoopback(t *testing.T) {
	target, targetHits := countingServer(t, true, ok204)
	for _, to := range []string{target.URL + "/admin", "https://169.254.169.254/latest/meta-data/", "http://127.0.0.1:1/"} {
		srv, srvHits := countingServer(t, true, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, to, http.StatusFound)
		})
		g := newGuard(veriland.Production, CallbackPolicy{})
		g.exempt = func(a netip.Addr) bool { return a == netip.MustParseAddr("127.0.0.1") }
		client := newClient(g, clientDeps{tls: trust(srv)})
		a := Deliver(t.Context(), client, srv.URL, testSecrets(t), "msg_1", []byte(`{}`), testNow)
		if srvHits.Load() != 1 {
			t.Fatalf("exempted receiver got %d requests, want 1 (attempt %+v)", srvHits.Load(), a)
		}
		if a.Succeeded() || a.StatusCode != http.StatusFound {
			t.Fatalf("redirect to %s: attempt %+v, want a failed 302", to, a)
		}
	}
	if targetHits.Load() != 0 {
		t.Fatal("redirect was followed")
	}
}

func TestProductionHTTPSDelivery(t *testing.T) {
	srv, hits := countingServer(t, true, ok204)
	g := newGuard(veriland.Production, CallbackPolicy{})
	g.exempt = func(a netip.Addr) bool { return a.IsLoopback() }
	a := Deliver(t.Context(), newClient(g, clientDeps{tls: trust(srv)}), srv.URL+"/hook", testSecrets(t), "msg_1", []byte(`{}`), testNow)
	if !a.Succeeded() || hits.Load() != 1 {
		t.Fatalf("attempt %+v, hits %d; want a delivered 204", a, hits.Load())
	}
	// Without the exemption the same receiver is refused before any byte is sent.
	a = Deliver(t.Context(), newClient(newGuard(veriland.Production, CallbackPolicy{}), clientDeps{tls: trust(srv)}), srv.URL+"/hook", testSecrets(t), "msg_1", []byte(`{}`), testNow)
	if a.Succeeded() || a.StatusCode != 0 || hits.Load() != 1 {
		t.Fatalf("attempt %+v, hits %d; want refused", a, hits.Load())
	}
}

func TestResponseBodyCapped(t *testing.T) {
	srv, _ := countingServer(t, false, func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte(strings.Repeat("x", 1<<20)))
	})
	resp, err := NewClient(veriland.Sandbox, CallbackPolicy{}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(body) != MaxResponseBody {
		t.Fatalf("read %d bytes, want %d", len(body), MaxResponseBody)
	}
}

func TestClientIgnoresProxyEnvironment(t *testing.T) {
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	tr := NewClient(veriland.Production, CallbackPolicy{}).Transport.(guardedTransport).next.(*http.Transport)
	if tr.Proxy != nil {
		p, _ := tr.Proxy(&http.Request{URL: &url.URL{Scheme: "https", Host: "hooks.example.com"}})
		t.Fatalf("client uses a proxy: %v", p)
	}
}
