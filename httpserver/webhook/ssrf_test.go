package webhook

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/veriland/veriland"
)

func TestValidateCallbackURL(t *testing.T) {
	strict := CallbackPolicy{StrictSandbox: true}
	tests := []struct {
		env    veriland.Environment
		policy CallbackPolicy
		url    string
		want   error // nil: accepted
	}{
		{veriland.Production, CallbackPolicy{}, "https://hooks.example.com/veriland", nil},
		{veriland.Production, CallbackPolicy{}, "https://hooks.example.com:8443/a?b=c", nil},
		{veriland.Production, CallbackPolicy{}, "https://93.184.215.14/hook", nil},
		{veriland.Production, CallbackPolicy{}, "https://[2606:4700::1111]/hook", nil},
		{veriland.Production, CallbackPolicy{}, "http://hooks.example.com/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "ftp://hooks.example.com/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "hooks.example.com/x", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "/relative", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https:opaque", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://user:pass@hooks.example.com/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://user@hooks.example.com/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://hooks.example.com:0/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://hooks.example.com:70000/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://hooks.example.com/" + strings.Repeat("a", MaxCallbackURLLength), ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://bad_host!.example/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://127.1/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://2130706433/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://0x7f000001/", ErrDisallowedURL},
		{veriland.Production, CallbackPolicy{}, "https://127.0.0.1/", ErrDisallowedAddress},
		{veriland.Production, CallbackPolicy{}, "https://[::1]/", ErrDisallowedAddress},
		{veriland.Production, CallbackPolicy{}, "https://[::ffff:127.0.0.1]/", ErrDisallowedAddress},
		{veriland.Production, CallbackPolicy{}, "https://10.0.0.1/", ErrDisallowedAddress},
		{veriland.Production, CallbackPolicy{}, "https://169.254.169.254/latest/meta-data/", ErrDisallowedAddress},
		{veriland.Production, CallbackPolicy{}, "https://[fd00:ec2::254]/", ErrDisallowedAddress},
		{veriland.Production, CallbackPolicy{}, "https://100.100.100.200/", ErrDisallowedAddress},
		{veriland.Production, CallbackPolicy{}, "https://[fe80::1%25eth0]/", ErrDisallowedAddress},
		{veriland.Production, CallbackPolicy{}, "https://localhost/", ErrDisallowedAddress},
		{veriland.Production, CallbackPolicy{}, "https://api.localhost./", ErrDisallowedAddress},
		{"", CallbackPolicy{}, "http://127.0.0.1/", ErrDisallowedURL}, // an unknown environment is PRODUCTION
		{veriland.Sandbox, CallbackPolicy{}, "http://127.0.0.1:8080/hook", nil},
		{veriland.Sandbox, CallbackPolicy{}, "http://localhost:8080/hook", nil},
		{veriland.Sandbox, CallbackPolicy{}, "http://[::1]:8080/hook", nil},
		{veriland.Sandbox, CallbackPolicy{}, "http://10.0.0.1/", ErrDisallowedAddress},
		{veriland.Sandbox, CallbackPolicy{}, "http://169.254.169.254/", ErrDisallowedAddress},
		{veriland.Sandbox, strict, "http://hooks.example.com/", ErrDisallowedURL},
		{veriland.Sandbox, strict, "https://127.0.0.1/", ErrDisallowedAddress},
		{veriland.Sandbox, strict, "https://localhost/", ErrDisallowedAddress},
		{veriland.Sandbox, strict, "https://hooks.example.com/", nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.env)+" "+tt.url[:min(len(tt.url), 60)], func(t *testing.T) {
			err := ValidateCallbackURL(tt.env, tt.url, tt.policy)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("ValidateCallbackURL = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("ValidateCallbackURL = %v, want cause %v", err, tt.want)
			}
			var verr *veriland.Error
			if !errors.As(err, &verr) || verr.Code != veriland.CodeValidationFailed || verr.Pointer != "/callbackUrl" {
				t.Fatalf("ValidateCallbackURL = %#v, want validation_failed at /callbackUrl", err)
			}
		})
	}
}

func TestCheckAddr(t *testing.T) {
	refused := []string{
		"127.0.0.1", "127.255.255.254", "::1", "0.0.0.0", "0.1.2.3", "::",
		"10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "fc00::1", "fd12:3456::1",
		"169.254.0.1", "169.254.169.254", "fe80::1", "fe80::1%eth0",
		"100.64.0.1", "100.127.255.255", "100.100.100.200", "fd00:ec2::254",
		"224.0.0.1", "239.255.255.250", "ff02::1", "255.255.255.255", "240.0.0.1",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:100.100.100.200",
		"::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "2002:a9fe:a9fe::",
		"192.0.2.1", "198.18.0.1", "2001:db8::1", "fec0::1",
	}
	allowed := []string{"8.8.8.8", "93.184.215.14", "2606:4700::1111", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"}
	production := newGuard(veriland.Production, CallbackPolicy{})
	sandbox := newGuard(veriland.Sandbox, CallbackPolicy{})
	strictSandbox := newGuard(veriland.Sandbox, CallbackPolicy{StrictSandbox: true})
	for _, s := range refused {
		a := netip.MustParseAddr(s)
		if err := production.checkAddr(a); !errors.Is(err, ErrDisallowedAddress) {
			t.Errorf("PRODUCTION checkAddr(%s) = %v, want refused", s, err)
		}
		if err := strictSandbox.checkAddr(a); !errors.Is(err, ErrDisallowedAddress) {
			t.Errorf("strict SANDBOX checkAddr(%s) = %v, want refused", s, err)
		}
		loopback := a.WithZone("").Unmap().IsLoopback()
		if err := sandbox.checkAddr(a); loopback != (err == nil) {
			t.Errorf("SANDBOX checkAddr(%s) = %v, want allowed only for loopback", s, err)
		}
	}
	for _, s := range allowed {
		if err := production.checkAddr(netip.MustParseAddr(s)); err != nil {
			t.Errorf("PRODUCTION checkAddr(%s) = %v, want allowed", s, err)
		}
	}
}

func TestControlRefusesBeforeConnect(t *testing.T) {
	g := newGuard(veriland.Production, CallbackPolicy{})
	for _, address := range []string{"127.0.0.1:443", "[::1]:443", "10.0.0.1:443", "169.254.169.254:80", "[::ffff:127.0.0.1]:443"} {
		if err := g.control("tcp4", address, nil); !errors.Is(err, ErrDisallowedAddress) {
			t.Errorf("control(%s) = %v, want refused", address, err)
		}
	}
	if err := g.control("udp4", "8.8.8.8:53", nil); !errors.Is(err, ErrDisallowedAddress) {
		t.Errorf("control(udp) = %v, want refused", err)
	}
	if err := g.control("tcp4", "8.8.8.8:443", nil); err != nil {
		t.Errorf("control(public) = %v, want nil", err)
	}
}
