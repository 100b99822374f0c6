package siwe_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity/siwe"
)

// Positive vectors after spruceid/siwe test/parsing_positive.json, plus ours.
const (
	svcHeader = "service.org wants you to sign in with your Ethereum account:\n0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n\n"
	svcStmt   = "I accept the ServiceOrg Terms of Service: https://service.org/tos\n\n"
	svcFields = "URI: https://service.org/login\nVersion: 1\nChain ID: 1\nNonce: 32891757\nIssued At: 2021-09-30T16:25:24.000Z"
	full      = svcHeader + svcStmt + svcFields +
		"\nExpiration Time: 2023-03-17T12:45:13.610Z\nNot Before: 2022-03-17T12:45:13.610Z\nRequest ID: some_id\nResources:\n- https://service.org/login"
)

func TestParsePositive(t *testing.T) {
	issued := time.Date(2021, 9, 30, 16, 25, 24, 0, time.UTC)
	tests := []struct {
		name    string
		message string
		check   func(t *testing.T, m *siwe.Message)
	}{
		{"no optional field", svcHeader + svcStmt + svcFields, func(t *testing.T, m *siwe.Message) {
			require.Equal(t, "service.org", m.Domain)
			require.Equal(t, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", m.Address)
			require.Equal(t, "I accept the ServiceOrg Terms of Service: https://service.org/tos", m.Statement)
			require.Equal(t, "https://service.org/login", m.URI)
			require.Equal(t, "1", m.Version)
			require.Equal(t, uint64(1), m.ChainID)
			require.Equal(t, "32891757", m.Nonce)
			require.True(t, issued.Equal(m.IssuedAt))
			require.True(t, m.ExpirationTime.IsZero())
			require.Nil(t, m.Resources)
		}},
		{"couple of optional fields", svcHeader + svcStmt + svcFields +
			"\nResources:\n- ipfs://Qme7ss3ARVgxv6rXqVPiikMJ8u2NLgmgszg13pYrDKEoiu\n- https://example.com/my-web2-claim.json",
			func(t *testing.T, m *siwe.Message) {
				require.Equal(t, []string{"ipfs://Qme7ss3ARVgxv6rXqVPiikMJ8u2NLgmgszg13pYrDKEoiu", "https://example.com/my-web2-claim.json"}, m.Resources)
			}},
		{"every optional field", full, func(t *testing.T, m *siwe.Message) {
			require.True(t, time.Date(2023, 3, 17, 12, 45, 13, 610e6, time.UTC).Equal(m.ExpirationTime))
			require.True(t, time.Date(2022, 3, 17, 12, 45, 13, 610e6, time.UTC).Equal(m.NotBefore))
			require.Equal(t, "some_id", m.RequestID)
			require.Equal(t, []string{"https://service.org/login"}, m.Resources)
		}},
		{"timestamp without fraction", strings.Replace(svcHeader+svcStmt+svcFields, ".000Z", "Z", 1), func(t *testing.T, m *siwe.Message) {
			require.True(t, issued.Equal(m.IssuedAt))
		}},
		{"timestamp with offset", strings.Replace(svcHeader+svcStmt+svcFields, "16:25:24.000Z", "18:25:24+02:00", 1), func(t *testing.T, m *siwe.Message) {
			require.True(t, issued.Equal(m.IssuedAt))
		}},
		{"no statement", svcHeader + "\n" + svcFields, func(t *testing.T, m *siwe.Message) { require.Empty(t, m.Statement) }},
		{"empty statement", svcHeader + "\n\n" + svcFields, func(t *testing.T, m *siwe.Message) { require.Empty(t, m.Statement) }},
		{"domain with IP", strings.Replace(svcHeader, "service.org", "127.0.0.1", 1) + svcStmt + svcFields, func(t *testing.T, m *siwe.Message) { require.Equal(t, "127.0.0.1", m.Domain) }},
		{"domain with userinfo", strings.Replace(svcHeader, "service.org", "test@127.0.0.1", 1) + svcStmt + svcFields, func(t *testing.T, m *siwe.Message) { require.Equal(t, "test@127.0.0.1", m.Domain) }},
		{"domain with port", strings.Replace(svcHeader, "service.org", "127.0.0.1:8080", 1) + svcStmt + svcFields, func(t *testing.T, m *siwe.Message) { require.Equal(t, "127.0.0.1:8080", m.Domain) }},
		{"domain with userinfo and port", strings.Replace(svcHeader, "service.org", "test@127.0.0.1:8080", 1) + svcStmt + svcFields, func(t *testing.T, m *siwe.Message) { require.Equal(t, "test@127.0.0.1:8080", m.Domain) }},
		{"IPv6 domain", strings.Replace(svcHeader, "service.org", "[::1]:8080", 1) + svcStmt + svcFields, func(t *testing.T, m *siwe.Message) { require.Equal(t, "[::1]:8080", m.Domain) }},
		{"scheme", "https://" + svcHeader + svcStmt + svcFields, func(t *testing.T, m *siwe.Message) { require.Equal(t, "https", m.Scheme) }},
		{"empty resources", svcHeader + svcStmt + svcFields + "\nResources:", func(t *testing.T, m *siwe.Message) { require.Equal(t, []string{}, m.Resources) }},
		{"large chain id", strings.Replace(svcHeader+svcStmt+svcFields, "Chain ID: 1", "Chain ID: 18446744073709551615", 1), func(t *testing.T, m *siwe.Message) {
			require.Equal(t, uint64(18446744073709551615), m.ChainID)
		}},
		{"address of digits only", strings.Replace(svcHeader, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "0x"+strings.Repeat("1", 40), 1) + svcStmt + svcFields, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := siwe.Parse(tt.message)
			require.NoError(t, err)
			if tt.check != nil {
				tt.check(t, m)
			}
			again, err := siwe.Parse(m.String())
			require.NoError(t, err)
			requireSameMessage(t, m, again)
		})
	}
}

func requireSameMessage(t *testing.T, want, got *siwe.Message) {
	t.Helper()
	for _, p := range [][2]*time.Time{{&want.IssuedAt, &got.IssuedAt}, {&want.ExpirationTime, &got.ExpirationTime}, {&want.NotBefore, &got.NotBefore}} {
		require.True(t, p[0].Equal(*p[1]), "%s != %s", p[0], p[1])
	}
	w, g := *want, *got
	w.IssuedAt, w.ExpirationTime, w.NotBefore = time.Time{}, time.Time{}, time.Time{}
	g.IssuedAt, g.ExpirationTime, g.NotBefore = time.Time{}, time.Time{}, time.Time{}
	require.Equal(t, w, g)
}

// Negative vectors after spruceid/siwe test/parsing_negative.json (less its "version
// not 1" case, whose message says "Version: 1"), plus ours. field is the ParseError
// field that must be blamed.
func TestParseNegative(t *testing.T) {
	replace := func(old, new string) string { return strings.Replace(full, old, new, 1) }
	tests := []struct {
		name, message, field string
	}{
		{"missing mandatory field", svcHeader + svcStmt + "Version: 1\nNonce: 32891757\nIssued At: 2021-09-30T16:25:24Z", "URI"},
		{"extra line breaks", strings.Replace(full, "\n\nI accept", "\n\n\nI accept", 1), "URI"},
		{"non-ISO datetime", replace("2021-09-30T16:25:24.000Z", "Wed Oct 05 2011 16:48:00 GMT+0200 (CEST)"), "Issued At"},
		{"out of order uri", replace("URI: https://service.org/login\nVersion: 1", "Version: 1\nURI: https://service.org/login"), "URI"},
		{"out of order version", replace("Version: 1\nChain ID: 1", "Chain ID: 1\nVersion: 1"), "Version"},
		{"out of order nonce", replace("Nonce: 32891757\nIssued At: 2021-09-30T16:25:24.000Z", "Issued At: 2021-09-30T16:25:24.000Z\nNonce: 32891757"), "Nonce"},
		{"out of order chainId", replace("Chain ID: 1\nNonce: 32891757", "Nonce: 32891757Chain ID: 1\n"), "Chain ID"},
		{"out of order expirationTime", replace("Expiration Time: 2023-03-17T12:45:13.610Z\nNot Before: 2022-03-17T12:45:13.610Z", "Not Before: 2022-03-17T12:45:13.610Z\nExpiration Time: 2023-03-17T12:45:13.610Z"), "end"},
		{"out of order requestId", replace("Request ID: some_id\nResources:\n- https://service.org/login", "Resources:\n- https://service.org/login\nRequest ID: some_id"), "Resources"},
		{"out of order resources", replace("Not Before: 2022-03-17T12:45:13.610Z\nRequest ID: some_id\nResources:\n- https://service.org/login", "Resources:\n- https://service.org/login\nNot Before: 2022-03-17T12:45:13.610Z\nRequest ID: some_id"), "Resources"},
		{"missing domain", replace("service.org wants", " wants"), "header"},
		{"missing address", replace("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", ""), "address"},
		{"missing uri", replace("URI: https://service.org/login\n", "\n"), "URI"},
		{"missing version", replace("Version: 1\n", "\n"), "Version"},
		{"missing chain id", replace("Chain ID: 1\n", "\n"), "Chain ID"},
		{"missing nonce", replace("Nonce: 32891757\n", "\n"), "Nonce"},
		{"missing issued at", replace("Issued At: 2021-09-30T16:25:24.000Z\n", "\n"), "Issued At"},
		{"domain not an authority", replace("service.org wants", "not_rfc4501 wants"), "header"},
		{"domain with path", replace("service.org wants", "service.org/x wants"), "header"},
		{"domain with bad port", replace("service.org wants", "service.org:80a wants"), "header"},
		{"bad scheme", "1http://" + full, "header"},
		{"address not EIP-55", replace("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2"), "address"},
		{"address bad checksum", replace("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756CC2"), "address"},
		{"short address", replace("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc"), "address"},
		{"statement has line break", replace("Terms of Service: https", "Terms of Service: \nhttps"), "statement"},
		{"statement has non-ASCII", replace("I accept", "I accépt"), "statement"},
		{"statement has a quote", replace("I accept", "I \"accept\""), "statement"},
		{"no blank line after address", strings.Replace(full, "Cc2\n\n", "Cc2\n", 1), "statement"},
		{"legacy layout without statement", svcHeader + svcFields, "statement"},
		{"uri not RFC 3986", replace("URI: https://service.org/login", "URI: _not_a_rfc3986_valid_uri_"), "URI"},
		{"uri with space", replace("URI: https://service.org/login", "URI: https://service.org/a b"), "URI"},
		{"version 2", replace("Version: 1", "Version: 2"), "Version"},
		{"chain id not a number", replace("Chain ID: 1", "Chain ID: ?"), "Chain ID"},
		{"chain id negative", replace("Chain ID: 1", "Chain ID: -1"), "Chain ID"},
		{"chain id overflow", replace("Chain ID: 1", "Chain ID: 18446744073709551616"), "Chain ID"},
		{"nonce with less than 8 chars", replace("Nonce: 32891757", "Nonce: 1234567"), "Nonce"},
		{"nonce not alphanumeric", replace("Nonce: 32891757", "Nonce: 3289-1757"), "Nonce"},
		{"non-ISO 8601 issuedAt", replace("Issued At: 2021-09-30T16:25:24.000Z", "Issued At: Wed Oct 05 2011 16:48:00 GMT+0200 (CEST)"), "Issued At"},
		{"issuedAt with comma fraction", replace("Issued At: 2021-09-30T16:25:24.000Z", "Issued At: 2021-09-30T16:25:24,000Z"), "Issued At"},
		{"issuedAt without zone", replace("Issued At: 2021-09-30T16:25:24.000Z", "Issued At: 2021-09-30T16:25:24"), "Issued At"},
		{"non-ISO 8601 expirationTime", replace("Expiration Time: 2023-03-17T12:45:13.610Z", "Expiration Time: Wed Oct 05 2011 16:48:00 GMT+0200 (CEST)"), "Expiration Time"},
		{"non-ISO 8601 notBefore", replace("Not Before: 2022-03-17T12:45:13.610Z", "Not Before: Wed Oct 05 2011 16:48:00 GMT+0200 (CEST)"), "Not Before"},
		{"request id with space", replace("Request ID: some_id", "Request ID: some id"), "Request ID"},
		{"resources not separated by line break", replace("- https://service.org/login", "- https://service.org/login - https://service.org/login/2"), "Resources"},
		{"first resource not RFC 3986", full + "\n- _not_a_rfc3986_valid_uri_", "Resources"},
		{"resource without dash", full + "\nhttps://service.org/x", "Resources"},
		{"repeated field", replace("Request ID: some_id", "Request ID: some_id\nRequest ID: other"), "end"},
		{"unknown field", replace("Request ID: some_id", "Request ID: some_id\nColour: blue"), "end"},
		{"trailing line break", svcHeader + svcStmt + svcFields + "\n", "end"},
		{"CRLF line ends", strings.ReplaceAll(full, "\n", "\r\n"), "header"},
		{"empty", "", "header"},
		{"header only", svcHeader[:strings.IndexByte(svcHeader, '\n')], "address"},
		{"too long", full + "\nResources:" + strings.Repeat("\n- https://a.example/", 2000), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := siwe.Parse(tt.message)
			require.Nil(t, m)
			require.Equal(t, veriland.CodeValidationFailed, veriland.CodeOf(err))
			var verr *veriland.Error
			require.ErrorAs(t, err, &verr)
			require.Equal(t, "/message", verr.Pointer)
			var perr *siwe.ParseError
			require.True(t, errors.As(err, &perr))
			require.Equal(t, tt.field, perr.Field, perr.Error())
		})
	}
}
