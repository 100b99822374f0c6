package deviceattest

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// Play Integrity verdict labels this package acts on.
const (
	PlayRecognized       = "PLAY_RECOGNIZED"
	MeetsDeviceIntegrity = "MEETS_DEVICE_INTEGRITY"
	MeetsStrongIntegrity = "MEETS_STRONG_INTEGRITY"
)

// Defaults for PlayIntegrityConfig.
const (
	DefaultPlayMaxAge = 10 * time.Minute
	DefaultPlaySkew   = time.Minute
)

// PlayIntegrityConfig configures a PlayIntegrityVerifier.
type PlayIntegrityConfig struct {
	// PackageName is the Android application id the verdict must be for. Required.
	PackageName string
	// Decoder decrypts and verifies tokens: an *OfflineDecoder or an *HTTPDecoder.
	// Required.
	Decoder Decoder
	// MaxAge is the oldest verdict accepted; zero means DefaultPlayMaxAge.
	MaxAge time.Duration
	// MaxSkew is how far in the future a verdict timestamp may be; zero means
	// DefaultPlaySkew.
	MaxSkew time.Duration
	// AllowTestingResponses accepts payloads Google marks as testing responses
	// (license testers). Leave false in production.
	AllowTestingResponses bool
	// Now is the clock for the verdict age. Nil means time.Now.
	Now func() time.Time
}

// PlayIntegrityVerifier verifies Google Play Integrity verdicts (PLAY_INTEGRITY). It is
// safe for concurrent use if its Decoder is.
type PlayIntegrityVerifier struct {
	pkg          string
	decoder      Decoder
	maxAge, skew time.Duration
	allowTesting bool
	now          func() time.Time
}

// NewPlayIntegrityVerifier returns a verifier for cfg.
func NewPlayIntegrityVerifier(cfg PlayIntegrityConfig) (*PlayIntegrityVerifier, error) {
	if cfg.PackageName == "" {
		return nil, errors.New("deviceattest: PackageName is required")
	}
	if cfg.Decoder == nil {
		return nil, errors.New("deviceattest: Decoder is required")
	}
	if cfg.MaxAge < 0 || cfg.MaxSkew < 0 {
		return nil, errors.New("deviceattest: MaxAge and MaxSkew must not be negative")
	}
	v := &PlayIntegrityVerifier{
		pkg: cfg.PackageName, decoder: cfg.Decoder, maxAge: cfg.MaxAge, skew: cfg.MaxSkew,
		allowTesting: cfg.AllowTestingResponses, now: cfg.Now,
	}
	if v.maxAge == 0 {
		v.maxAge = DefaultPlayMaxAge
	}
	if v.skew == 0 {
		v.skew = DefaultPlaySkew
	}
	if v.now == nil {
		v.now = time.Now
	}
	return v, nil
}

// integrityPayload is the part of a decoded verdict (tokenPayloadExternal) this
// package reads; timestampMillis arrives as a JSON string or number.
type integrityPayload struct {
	RequestDetails struct {
		RequestPackageName string      `json:"requestPackageName"`
		Nonce              string      `json:"nonce"`
		RequestHash        string      `json:"requestHash"`
		TimestampMillis    json.Number `json:"timestampMillis"`
	} `json:"requestDetails"`
	AppIntegrity struct {
		AppRecognitionVerdict string `json:"appRecognitionVerdict"`
		PackageName           string `json:"packageName"`
	} `json:"appIntegrity"`
	DeviceIntegrity struct {
		DeviceRecognitionVerdict []string `json:"deviceRecognitionVerdict"`
	} `json:"deviceIntegrity"`
	TestingDetails *struct {
		IsTestingResponse bool `json:"isTestingResponse"`
	} `json:"testingDetails"`
}

// Verify implements Verifier for PLAY_INTEGRITY.
func (v *PlayIntegrityVerifier) Verify(ctx context.Context, token string, challenge [32]byte) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	payload, err := v.decoder.Decode(ctx, token)
	if err != nil {
		return nil, wrap(PlayIntegrity, err)
	}
	res, err := v.CheckPayload(payload, challenge)
	return res, wrap(PlayIntegrity, err)
}

// CheckPayload applies the enrolment policy to a decoded verdict: the nonce (or
// requestHash) is base64url(challenge), padded or not; both package names are the
// configured one; the app is PLAY_RECOGNIZED; the device MEETS_DEVICE_INTEGRITY
// (MEETS_STRONG_INTEGRITY gives STRONG trust); the verdict is at most MaxAge old and
// at most MaxSkew in the future.
func (v *PlayIntegrityVerifier) CheckPayload(payload []byte, challenge [32]byte) (*Result, error) {
	var p integrityPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil, fmt.Errorf("%w: payload: %w", ErrMalformedToken, err)
	}
	rd := p.RequestDetails
	if !matchesChallenge(rd.Nonce, challenge) && !matchesChallenge(rd.RequestHash, challenge) {
		return nil, ErrChallengeMismatch
	}
	if rd.RequestPackageName != v.pkg || p.AppIntegrity.PackageName != v.pkg {
		return nil, ErrPackageMismatch
	}
	if p.TestingDetails != nil && p.TestingDetails.IsTestingResponse && !v.allowTesting {
		return nil, ErrTestingResponse
	}
	if p.AppIntegrity.AppRecognitionVerdict != PlayRecognized {
		return nil, fmt.Errorf("%w: %q", ErrAppNotRecognized, p.AppIntegrity.AppRecognitionVerdict)
	}
	verdicts := p.DeviceIntegrity.DeviceRecognitionVerdict
	if !slices.Contains(verdicts, MeetsDeviceIntegrity) {
		return nil, fmt.Errorf("%w: %q", ErrDeviceIntegrity, verdicts)
	}
	ms, err := strconv.ParseInt(rd.TimestampMillis.String(), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: timestampMillis %q", ErrMalformedToken, rd.TimestampMillis)
	}
	ts, now := time.UnixMilli(ms), v.now()
	if now.Sub(ts) > v.maxAge {
		return nil, fmt.Errorf("%w: issued %s", ErrTokenStale, ts.UTC().Format(time.RFC3339))
	}
	if ts.Sub(now) > v.skew {
		return nil, fmt.Errorf("%w: issued %s", ErrTokenFromFuture, ts.UTC().Format(time.RFC3339))
	}
	res := &Result{
		Type:           PlayIntegrity,
		Trust:          TrustBasic,
		Platform:       PlatformAndroid,
		SecurityLevel:  MeetsDeviceIntegrity,
		DeviceVerdicts: slices.Clone(verdicts),
	}
	if slices.Contains(verdicts, MeetsStrongIntegrity) {
		res.Trust, res.SecurityLevel = TrustStrong, MeetsStrongIntegrity
	}
	return res, nil
}

// matchesChallenge reports whether s is base64url(challenge), padded or not.
func matchesChallenge(s string, challenge [32]byte) bool {
	if s == "" {
		return false
	}
	b, err := decodeBase64(s)
	if err != nil || len(b) != len(challenge) {
		return false
	}
	// decodeBase64 also takes the standard alphabet; the spec says base64url, so
	// refuse '+' and '/'.
	if bytes.ContainsAny([]byte(s), "+/") {
		return false
	}
	return subtle.ConstantTimeCompare(b, challenge[:]) == 1
}
