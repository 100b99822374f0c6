package siwe

import (
	"strconv"
	"strings"
	"time"
)

// Message is a parsed EIP-4361 sign-in message. Parse fills it from the exact text a
// wallet signed; String renders it back in the EIP-4361 layout.
type Message struct {
	// Scheme is the optional scheme before the domain ("https"), "" when absent.
	Scheme string
	// Domain is the RFC 3986 authority asking for the sign-in ("example.com:8443").
	Domain string
	// Address is the signer's address exactly as written: "0x" and 40 hex digits with
	// its EIP-55 checksum.
	Address string
	// Statement is the optional human-readable assertion, "" when absent (an empty
	// statement parses as absent).
	Statement string
	// URI is the RFC 3986 URI of the resource the sign-in is for.
	URI string
	// Version is always "1".
	Version string
	// ChainID is the EIP-155 chain id the session is bound to.
	ChainID uint64
	// Nonce is the server's single-use nonce: at least 8 ASCII letters or digits.
	Nonce string
	// IssuedAt is when the message was made.
	IssuedAt time.Time
	// ExpirationTime, when not zero, is when the message stops being valid.
	ExpirationTime time.Time
	// NotBefore, when not zero, is when the message becomes valid.
	NotBefore time.Time
	// RequestID is the optional system-specific request id, "" when absent.
	RequestID string
	// Resources are the optional URIs the user asks to be granted, nil when absent.
	Resources []string
}

const headerSuffix = " wants you to sign in with your Ethereum account:"

// Field prefixes of the message lines, in their required order.
const (
	prefixURI            = "URI: "
	prefixVersion        = "Version: "
	prefixChainID        = "Chain ID: "
	prefixNonce          = "Nonce: "
	prefixIssuedAt       = "Issued At: "
	prefixExpirationTime = "Expiration Time: "
	prefixNotBefore      = "Not Before: "
	prefixRequestID      = "Request ID: "
	linesResources       = "Resources:"
	prefixResource       = "- "
)

// String renders m in the EIP-4361 layout, timestamps as RFC 3339 with nanoseconds
// trimmed. Parse(m.String()) returns a Message equal to m; the text may differ from the
// one m was parsed from (timestamps), so always verify signatures over the original.
func (m *Message) String() string {
	var b strings.Builder
	if m.Scheme != "" {
		b.WriteString(m.Scheme)
		b.WriteString("://")
	}
	b.WriteString(m.Domain)
	b.WriteString(headerSuffix)
	b.WriteString("\n")
	b.WriteString(m.Address)
	b.WriteString("\n\n")
	if m.Statement != "" {
		b.WriteString(m.Statement)
		b.WriteString("\n")
	}
	b.WriteString("\n")
	version := m.Version
	if version == "" {
		version = "1"
	}
	b.WriteString(prefixURI + m.URI + "\n")
	b.WriteString(prefixVersion + version + "\n")
	b.WriteString(prefixChainID + strconv.FormatUint(m.ChainID, 10) + "\n")
	b.WriteString(prefixNonce + m.Nonce + "\n")
	b.WriteString(prefixIssuedAt + formatTime(m.IssuedAt))
	if !m.ExpirationTime.IsZero() {
		b.WriteString("\n" + prefixExpirationTime + formatTime(m.ExpirationTime))
	}
	if !m.NotBefore.IsZero() {
		b.WriteString("\n" + prefixNotBefore + formatTime(m.NotBefore))
	}
	if m.RequestID != "" {
		b.WriteString("\n" + prefixRequestID + m.RequestID)
	}
	if m.Resources != nil {
		b.WriteString("\n" + linesResources)
		for _, r := range m.Resources {
			b.WriteString("\n" + prefixResource + r)
		}
	}
	return b.String()
}

func formatTime(t time.Time) string { return t.Format(time.RFC3339Nano) }
