package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/veriland/veriland"
)

// Standard Webhooks v1 header names.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// DefaultTolerance is how far webhook-timestamp may be from the verifier's clock, in
// either direction (SPEC S8).
const DefaultTolerance = 5 * time.Minute

// signatureVersion is the only scheme this package signs and checks; tokens of any other
// version in webhook-signature are ignored, as Standard Webhooks requires.
const signatureVersion = "v1"

// Reasons Verify refuses a webhook. Verify returns them as the Cause of a
// *veriland.Error with code invalid_webhook_signature, so both
// errors.Is(err, ErrStaleTimestamp) and veriland.IsCode(err, veriland.CodeInvalidWebhookSig)
// hold.
var (
	ErrMissingHeaders      = errors.New("webhook: missing webhook-id, webhook-timestamp or webhook-signature header")
	ErrInvalidHeader       = errors.New("webhook: malformed webhook header")
	ErrStaleTimestamp      = errors.New("webhook: timestamp too old")
	ErrFutureTimestamp     = errors.New("webhook: timestamp too far in the future")
	ErrNoMatchingSignature = errors.New("webhook: no matching signature")
)

// Sign returns the webhook-signature header value for one message: a "v1,<base64>" token
// per non-zero secret, space separated, so that a receiver holding either the old or
// the new secret during a rotation accepts it. It returns "" if no secret holds a key.
func Sign(secrets []Secret, msgID string, timestamp time.Time, body []byte) string {
	ts := strconv.FormatInt(timestamp.Unix(), 10)
	var b strings.Builder
	for _, s := range secrets {
		if s.IsZero() {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(signatureVersion)
		b.WriteByte(',')
		b.WriteString(base64.StdEncoding.EncodeToString(mac(s, msgID, ts, body)))
	}
	return b.String()
}

// SetHeaders sets the three Standard Webhooks headers on h for one message.
func SetHeaders(h http.Header, secrets []Secret, msgID string, timestamp time.Time, body []byte) {
	h.Set(HeaderID, msgID)
	h.Set(HeaderTimestamp, strconv.FormatInt(timestamp.Unix(), 10))
	h.Set(HeaderSignature, Sign(secrets, msgID, timestamp, body))
}

// mac is HMAC-SHA256(key, id "." timestamp "." body), the Standard Webhooks v1 content.
func mac(s Secret, msgID, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(msgID))
	m.Write([]byte{'.'})
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks a received webhook against secrets with DefaultTolerance. See
// Verifier.Verify.
func Verify(h http.Header, body []byte, secrets []Secret, now time.Time) error {
	return Verifier{Secrets: secrets}.Verify(h, body, now)
}

// Verifier checks inbound Standard Webhooks v1 signatures.
type Verifier struct {
	// Secrets are all the keys currently valid for the sender; several during a rotation.
	Secrets []Secret
	// Tolerance is the accepted clock difference in either direction; zero or negative
	// means DefaultTolerance.
	Tolerance time.Duration
}

// Verify accepts the webhook if webhook-timestamp is within the tolerance of now and any
// v1 signature in webhook-signature matches any non-zero secret, compared in constant
// time. Unknown signature versions are ignored. body must be the exact bytes received.
//
// It returns nil or a *veriland.Error with code invalid_webhook_signature whose cause is
// one of ErrMissingHeaders, ErrInvalidHeader, ErrStaleTimestamp, ErrFutureTimestamp or
// ErrNoMatchingSignature. The timestamp is checked before the signature, so a replayed
// old message is refused as stale whatever its signature.
//
// Verify does not remember webhook-ids: refusing a replay inside the tolerance window is
// the caller's job.
func (v Verifier) Verify(h http.Header, body []byte, now time.Time) error {
	tolerance := v.Tolerance
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	// Signatures split over several header lines are read as one list.
	msgID, ts, sigHeader := h.Get(HeaderID), h.Get(HeaderTimestamp), strings.Join(h.Values(HeaderSignature), " ")
	if msgID == "" || ts == "" || sigHeader == "" {
		return refuse(ErrMissingHeaders, "missing %s, %s or %s header", HeaderID, HeaderTimestamp, HeaderSignature)
	}
	sent, err := parseTimestamp(ts)
	if err != nil {
		return refuse(ErrInvalidHeader, "%s must be unix seconds", HeaderTimestamp)
	}
	if sent.Before(now.Add(-tolerance)) {
		return refuse(ErrStaleTimestamp, "%s is more than %s in the past", HeaderTimestamp, tolerance)
	}
	if sent.After(now.Add(tolerance)) {
		return refuse(ErrFutureTimestamp, "%s is more than %s in the future", HeaderTimestamp, tolerance)
	}

	var candidates [][]byte
	wellFormed := false
	for token := range strings.FieldsSeq(sigHeader) {
		version, sig, ok := strings.Cut(token, ",")
		if !ok || version == "" || sig == "" {
			continue
		}
		wellFormed = true
		if version != signatureVersion {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(sig)
		if err != nil || len(raw) != sha256.Size {
			continue
		}
		candidates = append(candidates, raw)
	}
	if !wellFormed {
		return refuse(ErrInvalidHeader, "%s holds no version,signature token", HeaderSignature)
	}
	// Every candidate is compared with every secret, without an early exit, so the time
	// taken does not tell which secret or which token matched.
	matched := false
	for _, s := range v.Secrets {
		if s.IsZero() {
			continue
		}
		want := mac(s, msgID, ts, body)
		for _, got := range candidates {
			if hmac.Equal(want, got) {
				matched = true
			}
		}
	}
	if !matched {
		return refuse(ErrNoMatchingSignature, "no signature matches")
	}
	return nil
}

// parseTimestamp accepts only plain decimal digits, as Standard Webhooks senders write.
func parseTimestamp(s string) (time.Time, error) {
	if len(s) > 18 {
		return time.Time{}, ErrInvalidHeader
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return time.Time{}, ErrInvalidHeader
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(n, 0), nil
}

func refuse(cause error, format string, args ...any) error {
	return &veriland.Error{
		Code:    veriland.CodeInvalidWebhookSig,
		Message: fmt.Sprintf(format, args...),
		Cause:   cause,
	}
}
