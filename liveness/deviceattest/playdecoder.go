package deviceattest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// Decoder turns a Play Integrity token into its JSON payload (the object Google calls
// tokenPayloadExternal). Errors wrap ErrMalformedToken, ErrDecryption,
// ErrTokenSignature or ErrDecoderUnavailable.
type Decoder interface {
	Decode(ctx context.Context, token string) (payload []byte, err error)
}

// maxPlayToken bounds the compact JWE accepted, in bytes.
const maxPlayToken = 32 << 10

// OfflineDecoder decrypts and verifies Play Integrity tokens locally with the keys
// from the Play Console (classic requests, "manage response encryption"): an AES-256
// key for the A256KW/A256GCM JWE and an EC P-256 public key for the inner ES256 JWS.
type OfflineDecoder struct {
	decryptionKey   []byte
	verificationKey *ecdsa.PublicKey
}

// NewOfflineDecoder returns a decoder for a 32-byte AES key and a P-256 public key.
func NewOfflineDecoder(decryptionKey []byte, verificationKey *ecdsa.PublicKey) (*OfflineDecoder, error) {
	if len(decryptionKey) != 32 {
		return nil, fmt.Errorf("deviceattest: Play Integrity decryption key is %d bytes, want 32", len(decryptionKey))
	}
	if verificationKey == nil || verificationKey.Curve == nil || verificationKey.Curve.Params().Name != "P-256" {
		return nil, errors.New("deviceattest: Play Integrity verification key must be ECDSA P-256")
	}
	return &OfflineDecoder{decryptionKey: bytes.Clone(decryptionKey), verificationKey: verificationKey}, nil
}

// ParseOfflineDecoderKeys builds an OfflineDecoder from the two base64 strings the
// Play Console shows: the decryption key (raw AES key) and the verification key (DER
// SubjectPublicKeyInfo).
func ParseOfflineDecoderKeys(decryptionKeyB64, verificationKeyB64 string) (*OfflineDecoder, error) {
	dk, err := decodeBase64(decryptionKeyB64)
	if err != nil {
		return nil, fmt.Errorf("deviceattest: decryption key: %w", err)
	}
	der, err := decodeBase64(verificationKeyB64)
	if err != nil {
		return nil, fmt.Errorf("deviceattest: verification key: %w", err)
	}
	pub, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("deviceattest: verification key: %w", err)
	}
	ec, ok := pub.(*ecdsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("deviceattest: verification key is %T, want ECDSA", pub)
	}
	return NewOfflineDecoder(dk, ec)
}

// Decode implements Decoder: it accepts only alg A256KW, enc A256GCM and an inner
// ES256 signature.
func (d *OfflineDecoder) Decode(_ context.Context, token string) ([]byte, error) {
	if len(token) == 0 || len(token) > maxPlayToken {
		return nil, fmt.Errorf("%w: token length %d", ErrMalformedToken, len(token))
	}
	jwe, err := jose.ParseEncryptedCompact(token, []jose.KeyAlgorithm{jose.A256KW}, []jose.ContentEncryption{jose.A256GCM})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformedToken, err)
	}
	inner, err := jwe.Decrypt(d.decryptionKey)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDecryption, err)
	}
	jws, err := jose.ParseSignedCompact(string(inner), []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return nil, fmt.Errorf("%w: inner JWS: %w", ErrMalformedToken, err)
	}
	payload, err := jws.Verify(d.verificationKey)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTokenSignature, err)
	}
	return payload, nil
}

// HTTPDecoder decodes tokens through Google's decodeIntegrityToken endpoint (or a
// compatible one): it POSTs {"integrityToken": token} with a bearer token and reads
// tokenPayloadExternal from the answer.
type HTTPDecoder struct {
	// URL is the endpoint, e.g.
	// https://playintegrity.googleapis.com/v1/PACKAGE_NAME:decodeIntegrityToken.
	URL string
	// BearerToken returns the OAuth access token to send. Required.
	BearerToken func(ctx context.Context) (string, error)
	// Client sends the request. Nil means a client with a 10-second timeout.
	Client *http.Client
}

// maxDecodeResponse bounds the endpoint's answer.
const maxDecodeResponse = 1 << 20

// Decode implements Decoder. A 400 answer means Google refused the token
// (ErrMalformedToken); any other failure is ErrDecoderUnavailable.
func (d *HTTPDecoder) Decode(ctx context.Context, token string) ([]byte, error) {
	if len(token) == 0 || len(token) > maxPlayToken {
		return nil, fmt.Errorf("%w: token length %d", ErrMalformedToken, len(token))
	}
	if d.URL == "" || d.BearerToken == nil {
		return nil, fmt.Errorf("%w: decoder not configured", ErrDecoderUnavailable)
	}
	bearer, err := d.BearerToken(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: bearer token: %w", ErrDecoderUnavailable, err)
	}
	body, _ := json.Marshal(map[string]string{"integrityToken": token})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDecoderUnavailable, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+bearer)
	client := d.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDecoderUnavailable, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDecodeResponse+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDecoderUnavailable, err)
	}
	switch {
	case resp.StatusCode == http.StatusBadRequest:
		return nil, fmt.Errorf("%w: endpoint refused the token", ErrMalformedToken)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%w: endpoint answered %d", ErrDecoderUnavailable, resp.StatusCode)
	case len(data) > maxDecodeResponse:
		return nil, fmt.Errorf("%w: answer larger than %d bytes", ErrDecoderUnavailable, maxDecodeResponse)
	}
	var out struct {
		TokenPayloadExternal json.RawMessage `json:"tokenPayloadExternal"`
	}
	if err := json.Unmarshal(data, &out); err != nil || len(out.TokenPayloadExternal) == 0 {
		return nil, fmt.Errorf("%w: answer has no tokenPayloadExternal", ErrDecoderUnavailable)
	}
	return out.TokenPayloadExternal, nil
}
