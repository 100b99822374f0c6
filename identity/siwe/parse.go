package siwe

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
)

// MaxMessageSize bounds the text Parse accepts, in bytes.
const MaxMessageSize = 16 << 10

// ParseError says which part of a message is malformed. It is the Cause of the
// validation_failed error Parse returns.
type ParseError struct {
	Line  int    // 1-based line number; 0 for the message as a whole
	Field string // "header", "address", "statement", "URI", "Version", "Chain ID", "Nonce", "Issued At", …
	Msg   string
}

// Error implements error.
func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("sign-in message: %s", e.Msg)
	}
	return fmt.Sprintf("sign-in message line %d (%s): %s", e.Line, e.Field, e.Msg)
}

// Parse parses an EIP-4361 message, strictly by the EIP's ABNF: LF line ends only, the
// fields in their order, the address with its EIP-55 checksum, an RFC 3986 domain and
// URIs, RFC 3339 timestamps, version 1, a nonce of at least 8 letters or digits.
// It never panics. Errors are validation_failed at pointer /message with a
// *ParseError cause.
func Parse(s string) (*Message, error) {
	m, perr := parse(s)
	if perr != nil {
		return nil, &veriland.Error{Code: veriland.CodeValidationFailed, Message: perr.Error(),
			Pointer: "/message", Cause: perr}
	}
	return m, nil
}

// lines walks the message line by line.
type lines struct {
	all []string
	i   int // index of the next line
}

func (l *lines) more() bool { return l.i < len(l.all) }

func (l *lines) peek() (string, bool) {
	if !l.more() {
		return "", false
	}
	return l.all[l.i], true
}

func (l *lines) next() string {
	s := l.all[l.i]
	l.i++
	return s
}

func (l *lines) errorf(field, format string, args ...any) *ParseError {
	return &ParseError{Line: l.i, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// field reads the next line, which must be prefix followed by the value.
func (l *lines) field(name, prefix string) (string, *ParseError) {
	if !l.more() {
		return "", &ParseError{Line: l.i + 1, Field: name, Msg: "missing"}
	}
	line := l.next()
	v, ok := strings.CutPrefix(line, prefix)
	if !ok {
		return "", l.errorf(name, "expected %q", prefix)
	}
	return v, nil
}

func parse(s string) (*Message, *ParseError) {
	if len(s) > MaxMessageSize {
		return nil, &ParseError{Msg: fmt.Sprintf("longer than %d bytes", MaxMessageSize)}
	}
	l := &lines{all: strings.Split(s, "\n")}
	m := &Message{}

	// [ scheme "://" ] domain " wants you to sign in with your Ethereum account:"
	header := l.next()
	authority, ok := strings.CutSuffix(header, headerSuffix)
	if !ok {
		return nil, l.errorf("header", "expected %q at the end", headerSuffix)
	}
	if scheme, rest, found := strings.Cut(authority, "://"); found {
		if !validScheme(scheme) {
			return nil, l.errorf("header", "invalid scheme")
		}
		m.Scheme, authority = scheme, rest
	}
	if !validAuthority(authority) {
		return nil, l.errorf("header", "domain is not an RFC 3986 authority")
	}
	m.Domain = authority

	// address
	if !l.more() {
		return nil, &ParseError{Line: 2, Field: "address", Msg: "missing"}
	}
	m.Address = l.next()
	if !validChecksumAddress(m.Address) {
		return nil, l.errorf("address", "not an EIP-55 checksummed address")
	}

	// LF [ statement LF ] LF
	if line, ok := l.peek(); !ok || line != "" {
		return nil, &ParseError{Line: l.i + 1, Field: "statement", Msg: "expected an empty line after the address"}
	}
	l.next()
	line, ok := l.peek()
	if !ok {
		return nil, &ParseError{Line: l.i + 1, Field: "statement", Msg: "missing"}
	}
	if line == "" {
		l.next()
		// Either no statement (the URI follows) or an empty statement (one more LF).
		if next, ok := l.peek(); ok && next == "" {
			l.next()
		}
	} else {
		l.next()
		if !validStatement(line) {
			return nil, l.errorf("statement", "statement may hold only RFC 3986 reserved and unreserved characters and spaces")
		}
		m.Statement = line
		if next, ok := l.peek(); !ok || next != "" {
			return nil, &ParseError{Line: l.i + 1, Field: "statement", Msg: "expected an empty line after the statement"}
		}
		l.next()
	}

	var perr *ParseError
	if m.URI, perr = l.field("URI", prefixURI); perr != nil {
		return nil, perr
	}
	if !validURI(m.URI) {
		return nil, l.errorf("URI", "not an RFC 3986 URI")
	}
	if m.Version, perr = l.field("Version", prefixVersion); perr != nil {
		return nil, perr
	}
	if m.Version != "1" {
		return nil, l.errorf("Version", "version must be 1")
	}
	chain, perr := l.field("Chain ID", prefixChainID)
	if perr != nil {
		return nil, perr
	}
	if m.ChainID, ok = parseDigits(chain); !ok {
		return nil, l.errorf("Chain ID", "chain id must be a decimal number below 2^64")
	}
	if m.Nonce, perr = l.field("Nonce", prefixNonce); perr != nil {
		return nil, perr
	}
	if !validNonce(m.Nonce) {
		return nil, l.errorf("Nonce", "nonce must be at least 8 letters or digits")
	}
	issued, perr := l.field("Issued At", prefixIssuedAt)
	if perr != nil {
		return nil, perr
	}
	if m.IssuedAt, ok = parseTime(issued); !ok {
		return nil, l.errorf("Issued At", "not an RFC 3339 date-time")
	}

	// Optional fields, each at most once and in this order.
	optional := []struct {
		name, prefix string
		set          func(v string) bool
	}{
		{"Expiration Time", prefixExpirationTime, func(v string) (ok bool) { m.ExpirationTime, ok = parseTime(v); return ok }},
		{"Not Before", prefixNotBefore, func(v string) (ok bool) { m.NotBefore, ok = parseTime(v); return ok }},
		{"Request ID", prefixRequestID, func(v string) bool { m.RequestID = v; return validRequestID(v) }},
	}
	for _, f := range optional {
		line, ok := l.peek()
		if !ok {
			break
		}
		v, found := strings.CutPrefix(line, f.prefix)
		if !found {
			continue
		}
		l.next()
		if !f.set(v) {
			return nil, l.errorf(f.name, "malformed value")
		}
	}
	if line, ok := l.peek(); ok && line == linesResources {
		l.next()
		m.Resources = []string{}
		for l.more() {
			r, found := strings.CutPrefix(l.next(), prefixResource)
			if !found || !validURI(r) {
				return nil, l.errorf("Resources", "each resource must be \"- \" and an RFC 3986 URI")
			}
			m.Resources = append(m.Resources, r)
		}
	}
	if l.more() {
		return nil, &ParseError{Line: l.i + 1, Field: "end", Msg: "unexpected line (a field out of order, repeated, unknown, or a trailing line break)"}
	}
	return m, nil
}

func validChecksumAddress(s string) bool {
	if len(s) != 42 || !strings.HasPrefix(s, "0x") || !common.IsHexAddress(s) {
		return false
	}
	return common.HexToAddress(s).Hex() == s
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func isSubDelim(c byte) bool { return strings.IndexByte("!$&'()*+,;=", c) >= 0 }

func isReserved(c byte) bool { return isSubDelim(c) || strings.IndexByte(":/?#[]@", c) >= 0 }

// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
func validScheme(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// validAuthority accepts [ userinfo "@" ] host [ ":" port ] where host is a DNS name
// (letters, digits, hyphens, dots), an IPv4 address or a bracketed IPv6 literal.
// RFC 3986 allows more exotic reg-names; none of them can be our origin.
func validAuthority(s string) bool {
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		if !validUserinfo(s[:at]) {
			return false
		}
		s = s[at+1:]
	}
	host := s
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		host, s = s[1:end], s[end+1:]
		if host == "" || strings.Trim(host, "0123456789abcdefABCDEF:.") != "" {
			return false
		}
		if s != "" && (s[0] != ':' || !allDigits(s[1:])) {
			return false
		}
		return true
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		host = s[:i]
		if !allDigits(s[i+1:]) {
			return false
		}
	}
	if host == "" || len(host) > 253 {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if !isAlpha(label[i]) && !isDigit(label[i]) && label[i] != '-' {
				return false
			}
		}
	}
	return true
}

// userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
func validUserinfo(s string) bool {
	return validChars(s, func(c byte) bool { return isUnreserved(c) || isSubDelim(c) || c == ':' })
}

// validChars checks s against allowed, also accepting pct-encoded triplets.
func validChars(s string, allowed func(c byte) bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case allowed(c):
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// statement = *( reserved / unreserved / " " )
func validStatement(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isReserved(c) && !isUnreserved(c) && c != ' ' {
			return false
		}
	}
	return true
}

// validURI accepts an absolute RFC 3986 URI: a scheme, then only URI characters
// (reserved, unreserved, pct-encoded), and a successful net/url parse.
func validURI(s string) bool {
	scheme, _, found := strings.Cut(s, ":")
	if !found || !validScheme(scheme) {
		return false
	}
	if !validChars(s, func(c byte) bool { return isReserved(c) || isUnreserved(c) }) {
		return false
	}
	_, err := url.Parse(s)
	return err == nil
}

// request-id = *pchar; pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
func validRequestID(s string) bool {
	return validChars(s, func(c byte) bool { return isUnreserved(c) || isSubDelim(c) || c == ':' || c == '@' })
}

// nonce = 8*( ALPHA / DIGIT )
func validNonce(s string) bool {
	if len(s) < 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlpha(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// chain-id = 1*DIGIT
func parseDigits(s string) (uint64, bool) {
	if s == "" || !allDigits(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// dateTime is RFC 3339's date-time. time.Parse alone is laxer (it takes a comma before
// the fraction, for one).
var dateTime = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`)

// parseTime parses an RFC 3339 date-time (time.RFC3339 also takes fractional seconds).
func parseTime(s string) (time.Time, bool) {
	if !dateTime.MatchString(s) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s)
	return t, err == nil
}
