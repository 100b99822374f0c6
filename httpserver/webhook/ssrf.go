package webhook

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"

	"github.com/veriland/veriland"
)

// MaxCallbackURLLength is the longest callback URL ValidateCallbackURL accepts.
const MaxCallbackURLLength = 2048

// ErrDisallowedAddress is the cause when a callback URL names, or its host resolves to,
// an address the policy refuses (loopback, private, link-local, metadata, …). Dial
// errors from NewClient's client wrap it, so errors.Is finds it in a failed delivery.
var ErrDisallowedAddress = errors.New("webhook: callback address not allowed")

// ErrDisallowedURL is the cause when a callback URL is refused for its form: scheme,
// missing host, userinfo, length.
var ErrDisallowedURL = errors.New("webhook: callback URL not allowed")

// CallbackPolicy is the operator's configuration for outbound callbacks. The zero value
// is the default of SPEC S5: PRODUCTION allows only https to public addresses; SANDBOX
// also allows http and loopback, for local testing.
type CallbackPolicy struct {
	// StrictSandbox makes SANDBOX callbacks follow the PRODUCTION rules (https only, no
	// loopback). PRODUCTION follows them whatever this field says.
	StrictSandbox bool
}

// guard applies a CallbackPolicy for one environment to URLs and dialled addresses.
type guard struct {
	// lenient allows http and loopback; only ever true in SANDBOX.
	lenient bool
	// exempt lets tests reach their own loopback httptest servers in PRODUCTION mode.
	// No exported API sets it, so no operator flag can open PRODUCTION up.
	exempt func(netip.Addr) bool
}

func newGuard(env veriland.Environment, p CallbackPolicy) guard {
	// Anything but SANDBOX, including an invalid environment, gets the strict rules.
	return guard{lenient: env == veriland.Sandbox && !p.StrictSandbox}
}

// ValidateCallbackURL checks a callback URL when a verification request is created:
// absolute http(s) URL with a host, https unless SANDBOX allows http, no userinfo, at most
// MaxCallbackURLLength bytes, and a literal IP or well-known local name ("localhost")
// only if the policy allows that address. Host names are checked again, after DNS
// resolution, each time NewClient's client dials, so a name that later resolves to a
// refused address still cannot be reached.
//
// It returns nil or a validation_failed *veriland.Error with pointer "/callbackUrl" whose
// cause is ErrDisallowedURL or ErrDisallowedAddress.
func ValidateCallbackURL(env veriland.Environment, raw string, policy CallbackPolicy) error {
	_, err := newGuard(env, policy).checkURL(raw)
	return err
}

func (g guard) checkURL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, badURL("callbackUrl must not be empty")
	}
	if len(raw) > MaxCallbackURLLength {
		return nil, badURL("callbackUrl must be at most %d characters", MaxCallbackURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, badURL("callbackUrl is not a valid URL")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !g.lenient {
			return nil, badURL("callbackUrl must use https")
		}
	default:
		return nil, badURL("callbackUrl must be an https URL")
	}
	if u.Opaque != "" || u.Host == "" || u.Hostname() == "" {
		return nil, badURL("callbackUrl must have a host")
	}
	if u.User != nil {
		return nil, badURL("callbackUrl must not contain credentials")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, badURL("callbackUrl has an invalid port")
		}
	}
	host := u.Hostname()
	if addr, err := netip.ParseAddr(host); err == nil {
		if err := g.checkAddr(addr); err != nil {
			return nil, badAddr(err)
		}
		return u, nil
	}
	if err := checkHostname(host); err != nil {
		return nil, err
	}
	if !g.lenient && isLocalName(host) {
		return nil, badAddr(fmt.Errorf("%w: %s is a local name", ErrDisallowedAddress, host))
	}
	return u, nil
}

// checkHostname accepts ASCII DNS names only. A numeric last label is refused: no public
// name ends in one, and resolvers read forms such as "127.1" or "2130706433" as IPv4.
func checkHostname(host string) error {
	name := strings.TrimSuffix(host, ".")
	if name == "" || len(name) > 253 {
		return badURL("callbackUrl host is not a valid DNS name")
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return badURL("callbackUrl host is not a valid DNS name")
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return badURL("callbackUrl host is not a valid DNS name (use punycode for international names)")
			}
		}
	}
	last := strings.ToLower(labels[len(labels)-1])
	if strings.Trim(last, "0123456789") == "" || strings.HasPrefix(last, "0x") {
		return badURL("callbackUrl host is not a valid DNS name")
	}
	return nil
}

// isLocalName reports the names that resolve to this machine by convention (RFC 6761).
func isLocalName(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

func badURL(format string, args ...any) error {
	return veriland.Invalid("/callbackUrl", format, args...).WithCause(ErrDisallowedURL)
}

func badAddr(cause error) error {
	return veriland.Invalid("/callbackUrl", "callbackUrl must not point to a loopback, private, link-local or metadata address").WithCause(cause)
}

// Addresses no callback may reach, on top of what netip's predicates catch. Cloud
// metadata endpoints sit inside these ranges but are listed so the refusal does not
// depend on that.
var refusedPrefixes = [...]netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),          // "this network"
	netip.MustParsePrefix("10.0.0.0/8"),         // RFC 1918
	netip.MustParsePrefix("100.64.0.0/10"),      // CGNAT, holds Alibaba metadata 100.100.100.200
	netip.MustParsePrefix("100.100.100.200/32"), // Alibaba Cloud metadata
	netip.MustParsePrefix("127.0.0.0/8"),        // loopback
	netip.MustParsePrefix("169.254.0.0/16"),     // link-local
	netip.MustParsePrefix("169.254.169.254/32"), // AWS, GCP, Azure, OCI metadata
	netip.MustParsePrefix("172.16.0.0/12"),      // RFC 1918
	netip.MustParsePrefix("192.0.0.0/24"),       // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),       // documentation
	netip.MustParsePrefix("192.168.0.0/16"),     // RFC 1918
	netip.MustParsePrefix("198.18.0.0/15"),      // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"),    // documentation
	netip.MustParsePrefix("203.0.113.0/24"),     // documentation
	netip.MustParsePrefix("224.0.0.0/4"),        // multicast
	netip.MustParsePrefix("240.0.0.0/4"),        // reserved, holds broadcast 255.255.255.255
	netip.MustParsePrefix("::/96"),              // unspecified, loopback, IPv4-compatible
	netip.MustParsePrefix("100::/64"),           // discard-only
	netip.MustParsePrefix("2001:db8::/32"),      // documentation
	netip.MustParsePrefix("fc00::/7"),           // unique local, holds AWS fd00:ec2::254
	netip.MustParsePrefix("fd00:ec2::254/128"),  // AWS metadata over IPv6
	netip.MustParsePrefix("fe80::/10"),          // link-local
	netip.MustParsePrefix("fec0::/10"),          // deprecated site-local
	netip.MustParsePrefix("ff00::/8"),           // multicast
}

// Prefixes that carry an IPv4 address in their low bits; the embedded address is
// checked too, so that NAT64 or 6to4 cannot be used to reach a refused IPv4 address.
var (
	nat64Prefix = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour   = netip.MustParsePrefix("2002::/16")
)

// checkAddr returns nil if a callback may connect to addr.
func (g guard) checkAddr(addr netip.Addr) error {
	addr = addr.WithZone("").Unmap()
	if g.exempt != nil && g.exempt(addr) {
		return nil
	}
	if g.lenient && addr.IsLoopback() {
		return nil
	}
	if reason := refusedReason(addr); reason != "" {
		return fmt.Errorf("%w: %s is %s", ErrDisallowedAddress, addr, reason)
	}
	return nil
}

func refusedReason(addr netip.Addr) string {
	switch {
	case !addr.IsValid():
		return "not an address"
	case addr.IsLoopback():
		return "loopback"
	case addr.IsUnspecified():
		return "unspecified"
	case addr.IsPrivate():
		return "private"
	case addr.IsLinkLocalUnicast():
		return "link-local"
	case addr.IsMulticast():
		return "multicast"
	}
	for _, p := range refusedPrefixes {
		if p.Contains(addr) {
			return "in refused range " + p.String()
		}
	}
	if addr.Is6() {
		b := addr.As16()
		var embedded netip.Addr
		switch {
		case nat64Prefix.Contains(addr):
			embedded = netip.AddrFrom4([4]byte(b[12:16]))
		case sixToFour.Contains(addr):
			embedded = netip.AddrFrom4([4]byte(b[2:6]))
		}
		if embedded.IsValid() {
			if r := refusedReason(embedded); r != "" {
				return "an IPv6 form of a " + r + " IPv4 address"
			}
		}
	}
	return ""
}

// control runs after DNS resolution, just before each connect(2), on the address the
// socket is about to reach. This is what defeats DNS rebinding: whatever a name resolved
// to at validation time, the address actually dialled is checked here.
func (g guard) control(network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return fmt.Errorf("%w: network %s", ErrDisallowedAddress, network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrDisallowedAddress, address)
	}
	return g.checkAddr(ap.Addr())
}
