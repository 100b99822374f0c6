package assistant

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/parcel"
)

// Domain is what the assistant's tools read. Every lookup runs with the caller's own
// principal, through the same service method as the route that serves it, so the
// assistant never shows more than the caller's token could read directly: a parcel
// only to its account, its notary and admins (another account's prc_… is "not
// found", exactly as GET /v1/parcels/{id} answers); certificate hashes, verification
// requests and attestation statuses as their public routes do (their ids and hashes
// are unguessable capabilities). A nil service makes its tools answer that the
// feature is not enabled.
type Domain struct {
	Parcels      *parcel.Service
	Consent      *consent.Service
	Attestations *attestation.Service
	// PublicOrigin (scheme://host[:port]) prefixes the links of the reply's actions;
	// "" leaves them relative.
	PublicOrigin string
}

// Action is a link the client can offer next to the answer: the public verification
// page of a certificate, its PDF, the consent page of a request.
type Action struct {
	// Type is "link".
	Type string `json:"type"`
	// Rel says what the link is: "verification_page", "certificate_pdf",
	// "certificate", "parcel", "parcels", "transfer", "owner_consent" (the owner's
	// page of a transfer that waits for its signature), "consent_page",
	// "verification_request", "attestation_status".
	Rel string `json:"rel"`
	// Label is a short text in the answer's language.
	Label string `json:"label"`
	// Href is the URL.
	Href string `json:"href"`
	// Method is the HTTP method, "GET" unless the link starts an operation.
	Method string `json:"method"`
	// Accept is the media type to ask for, when the link serves several.
	Accept string `json:"accept,omitempty"`
}

// Reference names a record an answer was grounded on.
type Reference struct {
	// Type is "parcel", "certificate", "transfer", "verification_request" or
	// "attestation".
	Type string `json:"type"`
	// ID is the record's id or hash.
	ID string `json:"id"`
}

// sentence is one templated sentence of an answer: a catalog key and its values.
type sentence struct {
	key  string
	vars map[string]string
}

// finding is what a tool found: the sentences of the answer, its links, the records
// it used, and what a language model is shown (ids, states, hashes and dates; never
// a name or an identity document).
type finding struct {
	sentences []sentence
	actions   []actionSpec
	refs      []Reference
	data      map[string]any
}

// actionSpec is an Action before its label is put in the answer's language.
type actionSpec struct {
	rel, href, method, accept string
}

func (f *finding) say(key string, vars map[string]string) {
	f.sentences = append(f.sentences, sentence{key, vars})
}

func (f *finding) link(rel, href, method, accept string) {
	f.actions = append(f.actions, actionSpec{rel: rel, href: href, method: method, accept: accept})
}

func (f *finding) cite(typ, id string) { f.refs = append(f.refs, Reference{Type: typ, ID: id}) }

func (d Domain) url(path string) string { return strings.TrimRight(d.PublicOrigin, "/") + path }

func day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// absent reports whether err means the record is not there for this caller (unknown,
// of another account or environment, or an id of the wrong shape).
func absent(err error) bool {
	var e *veriland.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code {
	case veriland.CodeNotFound, veriland.CodeForbidden, veriland.CodeValidationFailed:
		return true
	}
	return false
}

func disabled(feature string) *finding {
	f := &finding{data: map[string]any{"enabled": false, "feature": feature}}
	f.say("disabled."+feature, nil)
	return f
}

// parcelStatus answers the status of parcel id as p sees it.
func (d Domain) parcelStatus(ctx context.Context, p veriland.Principal, id string) (*finding, error) {
	if d.Parcels == nil {
		return disabled("parcels"), nil
	}
	prc, err := d.Parcels.Get(ctx, p, id)
	if absent(err) {
		f := &finding{data: map[string]any{"parcelId": id, "found": false}}
		f.say("parcel.notFound", map[string]string{"id": id})
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	f := &finding{data: map[string]any{"parcelId": prc.ID, "found": true, "status": prc.Status, "city": prc.City,
		"notary": prc.Notary, "version": prc.Version, "certificateHash": prc.CertificateHash, "openTransferId": prc.OpenTransferID}}
	vars := map[string]string{"id": prc.ID, "city": prc.City, "notary": prc.Notary, "version": strconv.FormatUint(prc.Version, 10),
		"hash": prc.CertificateHash, "created": day(prc.CreatedAt)}
	if prc.Token != nil {
		vars["token"] = prc.Token.TokenID
		f.data["tokenId"] = prc.Token.TokenID
	}
	for _, t := range []*time.Time{prc.CertifiedAt, prc.DecidedAt, prc.RevokedAt} {
		if t != nil {
			vars["date"] = day(*t)
		}
	}
	f.cite("parcel", prc.ID)
	f.say("parcel.status."+string(prc.Status), vars)
	if prc.OpenTransferID != "" {
		tvars := map[string]string{"id": prc.ID, "transfer": prc.OpenTransferID}
		if tr := d.openTransfer(ctx, p, prc.OpenTransferID); tr != nil && tr.Status == parcel.TransferPendingOwner {
			tvars["deadline"] = deadline(tr)
			f.say("parcel.openTransfer.owner", tvars)
		} else {
			f.say("parcel.openTransfer", tvars)
		}
		f.cite("transfer", prc.OpenTransferID)
	}
	if prc.CertificateHash != "" {
		f.cite("certificate", prc.CertificateHash)
		if prc.Status == parcel.StatusCertified {
			f.link("certificate_pdf", d.url("/v1/parcels/"+prc.ID+"/certificate"), "GET", "application/pdf")
		}
		f.link("verification_page", d.url("/v1/registry/verify/"+prc.CertificateHash), "GET", "text/html")
	}
	f.link("parcel", d.url("/v1/parcels/"+prc.ID), "GET", "")
	return f, nil
}

// openTransfer reads transfer id as p may (GET /v1/transfers/{id}); nil when p may
// not or it cannot be read.
func (d Domain) openTransfer(ctx context.Context, p veriland.Principal, id string) *parcel.Transfer {
	tr, err := d.Parcels.GetTransfer(ctx, p, id)
	if err != nil {
		return nil
	}
	return tr
}

// deadline is the owner's deadline of tr, as the answers write times.
func deadline(tr *parcel.Transfer) string {
	if tr.OwnerConsent == nil || tr.OwnerConsent.Deadline == nil {
		return ""
	}
	return stamp(*tr.OwnerConsent.Deadline)
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// ownsByWallet reports whether p owns parcels through its wallet: a holder signed in
// with one (SIWE), whose parcels are those GET /v1/me/parcels lists.
func ownsByWallet(p veriland.Principal) bool {
	return p.Role == veriland.RoleHolder && p.Wallet != ""
}

// ownerConsentURL is the owner's page of transfer id (GET
// /v1/transfers/{id}/owner-consent), where the owner signs.
func (d Domain) ownerConsentURL(id string) string {
	return d.url("/v1/transfers/" + id + "/owner-consent")
}

// ownedParcels answers a holder signed in with its wallet with the parcels it owns
// (parcel.Service.MyParcels, with the caller's own principal): each one's id, city,
// status, certificate version and owner binding, and an open transfer that waits for
// the owner's signature with the page to sign it on. No name: MyParcels has none. To
// anyone else it says that the list is for owners signed in with their wallet.
func (d Domain) ownedParcels(ctx context.Context, p veriland.Principal) (*finding, error) {
	if d.Parcels == nil {
		return disabled("parcels"), nil
	}
	notHolder := func() *finding {
		f := &finding{data: map[string]any{"owner": false}}
		f.say("owned.notHolder", nil)
		return f
	}
	if !ownsByWallet(p) {
		return notHolder(), nil
	}
	const shown = 5
	list, next, err := d.Parcels.MyParcels(ctx, p, "", shown)
	if veriland.IsCode(err, veriland.CodeForbidden) {
		return notHolder(), nil
	}
	if err != nil {
		return nil, err
	}
	wallet := strings.ToLower(p.Wallet)
	f := &finding{data: map[string]any{"owner": true, "wallet": wallet, "parcels": []map[string]any{}}}
	if len(list) == 0 {
		f.say("owned.none", map[string]string{"wallet": wallet})
		return f, nil
	}
	f.say("owned", map[string]string{"wallet": wallet, "count": strconv.Itoa(len(list))})
	items := []map[string]any{}
	awaiting := false
	for _, op := range list {
		vars := map[string]string{"id": op.ID, "city": op.City, "status": string(op.Status),
			"version": strconv.FormatUint(op.Version, 10), "binding": string(op.Owner.Binding)}
		f.say("owned.item.parcel", vars)
		f.cite("parcel", op.ID)
		item := map[string]any{"parcelId": op.ID, "city": op.City, "status": op.Status, "version": op.Version,
			"binding": op.Owner.Binding, "certificateHash": op.CertificateHash}
		if tr := op.OpenTransfer; tr != nil {
			tvars := map[string]string{"id": op.ID, "transfer": tr.ID, "notary": tr.Notary}
			open := map[string]any{"transferId": tr.ID, "status": tr.Status, "notary": tr.Notary}
			switch tr.Status {
			case parcel.TransferPendingOwner:
				awaiting = true
				tvars["url"] = d.ownerConsentURL(tr.ID)
				open["ownerConsentUrl"] = tvars["url"]
				if tr.Deadline != nil {
					tvars["deadline"] = stamp(*tr.Deadline)
					open["deadline"] = tr.Deadline.UTC().Format(time.RFC3339)
				}
				f.say("owned.item.awaiting", tvars)
				f.link("owner_consent", tvars["url"], "GET", "text/html")
			default:
				f.say("owned.item.pendingNotary", tvars)
			}
			f.cite("transfer", tr.ID)
			item["openTransfer"] = open
		}
		items = append(items, item)
	}
	if awaiting {
		f.say("owned.sign", nil)
	}
	if next != "" {
		f.say("owned.more", nil)
	}
	f.data["parcels"] = items
	f.link("parcels", d.url("/v1/me/parcels"), "GET", "")
	return f, nil
}

// myParcels lists p's newest parcels: those its account made, or for a holder signed
// in with its wallet, those it owns (ownedParcels).
func (d Domain) myParcels(ctx context.Context, p veriland.Principal) (*finding, error) {
	if d.Parcels == nil {
		return disabled("parcels"), nil
	}
	if ownsByWallet(p) {
		return d.ownedParcels(ctx, p)
	}
	const shown = 5
	list, next, err := d.Parcels.List(ctx, p, "", shown)
	if err != nil && !absent(err) {
		return nil, err
	}
	f := &finding{data: map[string]any{"parcels": []map[string]any{}}}
	if len(list) == 0 {
		f.say("parcel.mine.none", nil)
		return f, nil
	}
	f.say("parcel.mine", map[string]string{"count": strconv.Itoa(len(list))})
	items := []map[string]any{}
	for _, prc := range list {
		f.say("parcel.mine.item."+string(prc.Status), map[string]string{"id": prc.ID, "city": prc.City, "notary": prc.Notary, "hash": prc.CertificateHash})
		f.cite("parcel", prc.ID)
		items = append(items, map[string]any{"parcelId": prc.ID, "status": prc.Status, "city": prc.City, "certificateHash": prc.CertificateHash})
	}
	if next != "" {
		f.say("parcel.mine.more", nil)
	}
	f.data["parcels"] = items
	f.link("parcels", d.url("/v1/parcels"), "GET", "")
	return f, nil
}

// certificateCheck answers whether hash names a certificate of p's environment.
func (d Domain) certificateCheck(ctx context.Context, p veriland.Principal, hash string) (*finding, error) {
	if d.Parcels == nil {
		return disabled("parcels"), nil
	}
	v, err := d.Parcels.VerifyHash(ctx, p.Env, common.HexToHash(hash))
	if absent(err) {
		f := &finding{data: map[string]any{"hash": hash, "authentic": false}}
		f.say("certificate.notFound", map[string]string{"hash": hash})
		f.cite("certificate", hash)
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	f := &finding{data: map[string]any{"hash": v.Hash, "authentic": true, "status": v.Status, "parcelId": v.ParcelID,
		"version": v.Version, "certifiedAt": day(v.CertifiedAt), "notary": v.Notary, "city": v.City, "tokenId": v.TokenID}}
	f.say("certificate."+string(v.Status), map[string]string{"hash": v.Hash, "id": v.ParcelID, "version": strconv.FormatUint(v.Version, 10),
		"date": day(v.CertifiedAt), "notary": v.Notary, "city": v.City, "token": v.TokenID})
	f.cite("certificate", v.Hash)
	f.cite("parcel", v.ParcelID)
	f.link("verification_page", d.url("/v1/registry/verify/"+v.Hash), "GET", "text/html")
	return f, nil
}

// transferHowTo explains a transfer, and with a parcel id whether that parcel can be
// transferred now.
func (d Domain) transferHowTo(ctx context.Context, p veriland.Principal, parcelID string) (*finding, error) {
	f := &finding{data: map[string]any{"steps": []string{
		"the parcel's account (never a notary) sends POST /v1/parcels/{id}/transfer with newOwner {fullName, id_doc, walletAddress?}",
		"an owner with a wallet must sign the transfer: it is PENDING_OWNER until the owner approves or refuses it with that wallet " +
			"on GET /v1/transfers/{id}/owner-consent, before its deadline; an owner without a wallet appears before the notary, who witnesses the consent",
		"the parcel's notary approves (POST /v1/transfers/{id}/approve) or rejects it; whoever requested the transfer never approves it",
		"on approval a new certificate version and token name the new owner; the old certificate becomes SUPERSEDED",
	}}}
	if parcelID == "" || d.Parcels == nil {
		f.say("transfer.steps", map[string]string{"id": "prc_…"})
		return f, nil
	}
	prc, err := d.Parcels.Get(ctx, p, parcelID)
	if absent(err) {
		f.say("parcel.notFound", map[string]string{"id": parcelID})
		f.data["parcelId"], f.data["found"] = parcelID, false
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	f.data["parcelId"], f.data["found"], f.data["status"] = prc.ID, true, prc.Status
	f.cite("parcel", prc.ID)
	vars := map[string]string{"id": prc.ID, "notary": prc.Notary, "transfer": prc.OpenTransferID}
	switch {
	case prc.OpenTransferID != "":
		if tr := d.openTransfer(ctx, p, prc.OpenTransferID); tr != nil && tr.Status == parcel.TransferPendingOwner {
			vars["deadline"], vars["url"] = deadline(tr), d.ownerConsentURL(tr.ID)
			f.say("transfer.openOwner", vars)
			f.link("owner_consent", vars["url"], "GET", "text/html")
		} else {
			f.say("transfer.open", vars)
		}
		f.cite("transfer", prc.OpenTransferID)
		f.link("transfer", d.url("/v1/transfers/"+prc.OpenTransferID), "GET", "")
	case prc.Status == parcel.StatusCertified:
		f.say("transfer.steps", vars)
		f.say("transfer.ready", vars)
		f.link("transfer", d.url("/v1/parcels/"+prc.ID+"/transfer"), "POST", "")
	default:
		f.say("transfer.notCertified", map[string]string{"id": prc.ID, "status": string(prc.Status)})
	}
	return f, nil
}

// verificationStatus answers the status of verification request id.
func (d Domain) verificationStatus(ctx context.Context, p veriland.Principal, id string) (*finding, error) {
	if d.Consent == nil {
		return disabled("consent"), nil
	}
	req, err := d.Consent.Get(ctx, p.Env, id)
	if absent(err) {
		f := &finding{data: map[string]any{"requestId": id, "found": false}}
		f.say("request.notFound", map[string]string{"id": id})
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	f := &finding{data: map[string]any{"requestId": req.ID, "found": true, "status": req.Status, "mode": req.Mode,
		"scope": req.Scope, "expiresAt": req.ExpiresAt.UTC().Format(time.RFC3339), "attestationId": req.AttestationID}}
	vars := map[string]string{"id": req.ID, "expires": req.ExpiresAt.UTC().Format("2006-01-02 15:04 UTC"),
		"scope": strings.Join(req.Scope, ", "), "attestation": req.AttestationID}
	if req.DecidedAt != nil {
		vars["date"] = day(*req.DecidedAt)
	}
	f.say("request.status."+string(req.Status), vars)
	f.cite("verification_request", req.ID)
	if req.Status == consent.StatusPending {
		f.link("consent_page", d.url("/consent/"+req.ID), "GET", "text/html")
	}
	if req.AttestationID != "" {
		f.cite("attestation", req.AttestationID)
		f.link("attestation_status", d.url("/attestation/"+req.AttestationID+"/status"), "GET", "")
	}
	f.link("verification_request", d.url("/verify/request/"+req.ID), "GET", "")
	return f, nil
}

// attestationStatus answers the public status of attestation id.
func (d Domain) attestationStatus(ctx context.Context, p veriland.Principal, id string) (*finding, error) {
	if d.Attestations == nil {
		return disabled("attestations"), nil
	}
	st, err := d.Attestations.Status(ctx, p.Env, id)
	if absent(err) {
		f := &finding{data: map[string]any{"attestationId": id, "found": false}}
		f.say("attestation.notFound", map[string]string{"id": id})
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	f := &finding{data: map[string]any{"attestationId": st.ID, "found": true, "status": st.Status}}
	vars := map[string]string{"id": st.ID}
	if st.RevokedAt != nil {
		vars["date"] = day(*st.RevokedAt)
		f.data["revokedAt"] = st.RevokedAt.UTC().Format(time.RFC3339)
	}
	f.say("attestation."+string(st.Status), vars)
	f.cite("attestation", st.ID)
	f.link("attestation_status", d.url("/attestation/"+st.ID+"/status"), "GET", "")
	return f, nil
}
