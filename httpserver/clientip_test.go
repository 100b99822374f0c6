package httpserver

import (
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestClientIP(t *testing.T) {
	lb := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	for _, tc := range []struct {
		name    string
		trust   bool
		proxies []netip.Prefix
		peer    string
		xff     []string
		want    string
	}{
		{"no trust: the peer, whatever the header", false, nil, "203.0.113.9:1234", []string{"198.51.100.1"}, "203.0.113.9"},
		{"one proxy: the rightmost entry", true, nil, "10.0.0.2:80", []string{"198.51.100.1"}, "198.51.100.1"},
		{"a client's own header cannot spoof", true, nil, "10.0.0.2:80", []string{"1.2.3.4, 198.51.100.1"}, "198.51.100.1"},
		{"several header lines are one list", true, nil, "10.0.0.2:80", []string{"1.2.3.4", "198.51.100.1"}, "198.51.100.1"},
		{"no header: the peer", true, nil, "10.0.0.2:80", nil, "10.0.0.2"},
		{"unreadable hop: the peer", true, nil, "10.0.0.2:80", []string{"1.2.3.4, junk"}, "10.0.0.2"},
		{"trusted hops are skipped", true, lb, "10.0.0.2:80", []string{"1.2.3.4, 198.51.100.1, 10.1.1.1"}, "198.51.100.1"},
		{"an untrusted peer is keyed on itself", true, lb, "203.0.113.9:1234", []string{"198.51.100.1"}, "203.0.113.9"},
		{"every hop trusted: the peer", true, lb, "10.0.0.2:80", []string{"10.9.9.9"}, "10.0.0.2"},
		{"IPv6 and mapped IPv4", true, lb, "[fd00::1]:80", []string{"::ffff:198.51.100.7"}, "198.51.100.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{cfg: Config{TrustForwardedFor: tc.trust, TrustedProxies: tc.proxies}}
			r := httptest.NewRequest("GET", "/v1/health", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			require.Equal(t, tc.want, s.clientIP(r))
		})
	}
}
