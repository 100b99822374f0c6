package identity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// Limits of an IssueRequest (SPEC S3).
const (
	MaxSubjectRef  = 256       // characters
	MaxPayloadSize = 512 << 10 // bytes
)

var countryCodePattern = regexp.MustCompile(`^[A-Z]{2,3}$`)

// IssueRequest is the body of POST /identity/issue.
type IssueRequest struct {
	// SubjectRef is the caller's reference for the person, 1..256 characters. It is
	// kept only as a keyed hash, to refuse a second identity for the same subject.
	SubjectRef string `json:"subjectRef"`
	// CountryCode is the ISO 3166 code of the document, 2 or 3 upper-case letters.
	// Optional: "" (or JSON null, or no member) means none was given.
	CountryCode string `json:"countryCode,omitempty"`
	// WalletAddress optionally binds an Ethereum wallet: "0x" and 40 hex digits, with a
	// valid EIP-55 checksum when mixed-case. One wallet binds at most one identity.
	WalletAddress string `json:"walletAddress,omitempty"`
	// Payload is the KYC material: any JSON value (object, array, string, number,
	// boolean or null) of at most 512 KiB. It goes to the KYC provider as is and is
	// never stored or logged. Absent and null are the same: no payload.
	Payload json.RawMessage `json:"payload,omitempty"`
}

// String redacts the subjectRef and the payload.
func (r IssueRequest) String() string {
	return fmt.Sprintf("IssueRequest{SubjectRef:[redacted] CountryCode:%s WalletAddress:%s Payload:[%d bytes redacted]}",
		r.CountryCode, r.WalletAddress, len(r.Payload))
}

// GoString redacts like String.
func (r IssueRequest) GoString() string { return r.String() }

// LogValue redacts the subjectRef and the payload for log/slog.
func (r IssueRequest) LogValue() slog.Value {
	return slog.GroupValue(slog.String("countryCode", r.CountryCode),
		slog.String("walletAddress", r.WalletAddress), slog.Int("payloadBytes", len(r.Payload)))
}

// Validate checks every member and reports each invalid one with its JSON pointer:
// nil, a single *veriland.Error, or veriland.Errors.
func (r IssueRequest) Validate() error {
	var errs veriland.Errors
	if n := utf8.RuneCountInString(r.SubjectRef); n < 1 || n > MaxSubjectRef || !utf8.ValidString(r.SubjectRef) {
		errs = append(errs, veriland.Invalid("/subjectRef", "subjectRef must be 1 to %d characters of valid UTF-8", MaxSubjectRef))
	}
	if r.CountryCode != "" && !countryCodePattern.MatchString(r.CountryCode) {
		errs = append(errs, veriland.Invalid("/countryCode", "countryCode, when given, must be 2 or 3 upper-case letters (ISO 3166)"))
	}
	if r.WalletAddress != "" {
		if _, err := ParseWalletAddress(r.WalletAddress); err != nil {
			errs = append(errs, veriland.Invalid("/walletAddress", "walletAddress %s", err.(*veriland.Error).Message))
		}
	}
	switch p := bytes.TrimSpace(r.Payload); {
	case len(r.Payload) > MaxPayloadSize:
		errs = append(errs, veriland.Invalid("/payload", "payload must be at most %d bytes", MaxPayloadSize))
	case len(p) == 0:
	case !json.Valid(p):
		errs = append(errs, veriland.Invalid("/payload", "payload must be a JSON value"))
	}
	return errs.Err()
}

// IssueResult is the answer to POST /identity/issue.
type IssueResult struct {
	DID           string `json:"did"`
	Status        Status `json:"status"`
	ReviewID      string `json:"reviewId,omitempty"`
	WalletAddress string `json:"walletAddress,omitempty"` // lower case
}

// Issue creates an identity for req.SubjectRef in env and asks the KYC provider about
// it (POST /identity/issue, public).
//
// The identity is stored PENDING_KYC first — claiming the subject and the wallet
// atomically — and only then is the provider asked, so that two concurrent requests
// for one subject never both reach the provider and a provider webhook can never
// arrive for an identity that is not stored yet. The provider's answer is applied in
// a second transaction; if the provider fails, the identity is removed again and the
// caller may retry.
//
// Errors: validation_failed (each invalid member with its pointer, as veriland.Errors
// when there are several; also a payload the provider refuses), already_exists (the
// subject has an identity, its DID in Meta["did"], pointer /subjectRef; or the wallet
// is bound to another identity, pointer /walletAddress), unavailable (the provider
// failed; or no provider serves env — Service.KYC is nil or answered
// *NotConfiguredError — with a message naming the configuration to supply).
func (s *Service) Issue(ctx context.Context, env veriland.Environment, req IssueRequest) (*IssueResult, error) {
	if err := s.check(env); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if s.KYC == nil {
		return nil, providerError(&NotConfiguredError{Env: env})
	}
	wallet := ""
	if req.WalletAddress != "" {
		wallet, _ = ParseWalletAddress(req.WalletAddress)
	}
	did, err := ids.NewDID(s.rand())
	if err != nil {
		return nil, err
	}
	subject := s.subjectKey(env, req.SubjectRef)
	now := s.now()
	created := &Identity{
		DID: did, Env: env, Status: StatusPendingKYC, CountryCode: req.CountryCode,
		WalletAddress: wallet, CreatedAt: now, UpdatedAt: now,
	}
	if err := s.Store.Update(ctx, func(tx storage.Tx) error {
		return s.create(ctx, repo(tx, env), created, subject)
	}); err != nil {
		return nil, err
	}

	payload := req.Payload
	if p := bytes.TrimSpace(payload); len(p) == 0 || bytes.Equal(p, []byte("null")) {
		payload = nil // absent and null are the same: no payload
	}
	res, kycErr := s.KYC.Check(ctx, KYCRequest{Env: env, DID: did, CountryCode: req.CountryCode, Payload: payload})
	if kycErr == nil {
		if err := checkResult(res, false); err != nil {
			// The provider broke its contract: that is its failure, not the client's.
			kycErr = fmt.Errorf("identity: invalid KYC provider answer: %s", err.Error())
		}
	}
	// The identity exists now: record what happened even if the caller has gone.
	bg := context.WithoutCancel(ctx)
	answered := s.now()
	if kycErr != nil {
		if err := s.Store.Update(bg, func(tx storage.Tx) error {
			return s.abort(bg, repo(tx, env), created, subject, answered)
		}); err != nil {
			s.logger().ErrorContext(ctx, "identity: removing identity after KYC failure",
				"did", did, "env", string(env), "err", err)
		}
		return nil, providerError(kycErr)
	}
	var reviewID string
	if res.Outcome == OutcomeReview {
		if reviewID, err = ids.New(s.rand(), reviewPrefix); err != nil {
			return nil, err
		}
	}
	out := created
	err = s.Store.Update(bg, func(tx storage.Tx) error {
		r := repo(tx, env)
		cur, err := r.identity(did)
		if err != nil {
			return err
		}
		if cur.Status != StatusPendingKYC {
			out = cur // a webhook completed it first; its result stands
			return nil
		}
		out, err = s.applyResult(bg, r, cur, res, reviewID, answered)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &IssueResult{DID: out.DID, Status: out.Status, ReviewID: out.ReviewID, WalletAddress: out.WalletAddress}, nil
}

// create stores a new PENDING_KYC identity and claims its subject and wallet.
func (s *Service) create(ctx context.Context, r repository, id *Identity, subject []byte) error {
	existing, taken, err := r.lookup(bucketSubjects, subject)
	if err != nil {
		return err
	}
	if taken {
		return (&veriland.Error{Code: veriland.CodeAlreadyExists, Pointer: "/subjectRef",
			Message: "an identity already exists for this subjectRef"}).WithMeta("did", existing)
	}
	if id.WalletAddress != "" {
		_, bound, err := r.lookup(bucketWallets, []byte(id.WalletAddress))
		if err != nil {
			return err
		}
		if bound {
			return &veriland.Error{Code: veriland.CodeAlreadyExists, Pointer: "/walletAddress",
				Message: "this wallet is already bound to an identity"}
		}
		if err := r.index(bucketWallets, []byte(id.WalletAddress), id.DID); err != nil {
			return err
		}
	}
	if err := r.index(bucketSubjects, subject, id.DID); err != nil {
		return err
	}
	if err := r.putIdentity(id); err != nil {
		return err
	}
	return s.emit(ctx, r.tx, Event{Env: r.env, Action: ActionCreated, DID: id.DID, To: id.Status, At: id.CreatedAt})
}

// abort removes an identity whose provider could not be asked, with its index entries,
// unless something (a webhook) already moved it on.
func (s *Service) abort(ctx context.Context, r repository, id *Identity, subject []byte, now time.Time) error {
	cur, err := r.identity(id.DID)
	if err != nil {
		return err
	}
	if cur.Status != StatusPendingKYC {
		return nil
	}
	if err := r.unindex(bucketSubjects, subject); err != nil {
		return err
	}
	if cur.WalletAddress != "" {
		if err := r.unindex(bucketWallets, []byte(cur.WalletAddress)); err != nil {
			return err
		}
	}
	if cur.ProviderRef != "" {
		if err := r.unindex(bucketProvider, []byte(cur.ProviderRef)); err != nil {
			return err
		}
	}
	if err := r.deleteIdentity(cur.DID); err != nil {
		return err
	}
	return s.emit(ctx, r.tx, Event{Env: r.env, Action: ActionAborted, DID: cur.DID, From: cur.Status, At: now})
}
