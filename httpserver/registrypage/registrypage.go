// Package registrypage is the public verification page of SPEC S9: what a phone shows
// after scanning the QR code of a parcel certificate, served by
// GET /v1/registry/verify/{hash} to clients that prefer text/html.
//
// The page is rendered on the server with html/template (every value is escaped in
// its context), so that it works with JavaScript disabled: it has no script at all.
// Its only inline style is allowed by the Content-Security-Policy by its SHA-256
// hash, computed here from the embedded template, so the page cannot drift from its
// policy. It says the important fact first, in words and in colour (CURRENT green,
// SUPERSEDED amber, REVOKED red, unknown grey), then the certificate's public facts,
// its land title on chain (SPEC S14: the ERC-5192 token's status in words and colour,
// who holds it, the contract, the chain and the full mint and burn transaction
// hashes) and its version history, each version with its title's status.
//
// What it never does: show the owner's name or identity document. View has no field
// for them, so a caller cannot pass them by mistake.
package registrypage

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/veriland/veriland/internal/htmlpage"
)

//go:embed page.html
var source string

// MediaType is the content type the page is served with.
const MediaType = htmlpage.MediaType

// Certificate statuses, as the registry reports them.
const (
	StatusCurrent    = "CURRENT"
	StatusSuperseded = "SUPERSEDED"
	StatusRevoked    = "REVOKED"
)

var (
	tmpl = template.Must(template.New("page").Parse(source))
	csp  = "default-src 'none'; style-src '" + mustHash(source, "<style>", "</style>") + "'; img-src data:; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

// View is what the page shows about one hash. The zero value (Found false) is the
// page of a hash the registry does not know.
type View struct {
	// Hash is the certificate hash looked up (0x + 64 hex).
	Hash string
	// Found reports whether the registry knows the hash.
	Found bool
	// Authentic reports whether the hash is a certificate this registry issued.
	Authentic bool
	// Status is CURRENT, SUPERSEDED or REVOKED.
	Status string
	// ParcelID, City and Notary describe the parcel and who certified it.
	ParcelID, City, Notary string
	// Version is the certificate version the hash names.
	Version uint64
	// CertifiedAt is when that version was certified.
	CertifiedAt time.Time
	// TokenID is the soulbound token of that version (a decimal uint256).
	TokenID string
	// Anchor says in words where the token is anchored ("ANCHORED in transaction
	// 0x…", "PENDING", "DISABLED"); empty says "not anchored". The page shows it only
	// when Title is nil: a land title's transactions say more.
	Anchor string
	// Title is the version's land title on chain (nil: the registry reported none).
	Title *Title
	// OwnerWallet is the owner's wallet that the certifying notary bound ("" for an
	// owner without one), and OwnerBinding how (NOTARY_VERIFIED or
	// IDENTITY_VERIFIED). A wallet address is public; the owner's name never is.
	OwnerWallet, OwnerBinding string
	// History lists every certificate version of the parcel, oldest first.
	History []Version
}

// Version is one row of the version history.
type Version struct {
	Version     uint64
	Status      string
	Hash        string
	CertifiedAt time.Time
	// OwnerWallet is the version's owner wallet ("" for none), and OwnerConsent how
	// the previous owner consented to the transfer that made it: OWNER_SIGNATURE or
	// NOTARY_WITNESSED ("" for version 1).
	OwnerWallet, OwnerConsent string
	// TokenStatus is the status of the version's land title ("" when unknown).
	TokenStatus string
}

// Land title statuses (SPEC S14), as the registry reports them.
const (
	TitlePending  = "PENDING"
	TitleMinted   = "MINTED"
	TitleBurned   = "BURNED"
	TitleFailed   = "FAILED"
	TitleDisabled = "DISABLED"
)

// Holder kinds of a land title.
const (
	HolderOwnerWallet     = "OWNER_WALLET"
	HolderRegistryCustody = "REGISTRY_CUSTODY"
)

// Title is a certificate version's land title: an ERC-5192 (soulbound) token of the
// registry's LandTitle contract. Every field is public chain data; none names the
// owner.
type Title struct {
	// Status is PENDING, MINTED, BURNED, FAILED or DISABLED.
	Status string
	// TokenID is the token's id (a decimal uint256) and Standard its standard
	// ("ERC-5192").
	TokenID, Standard string
	// ChainID and Contract name the chain and the LandTitle contract ("" without a
	// chain).
	ChainID  uint64
	Contract string
	// Holder is the address that holds the token and HolderKind whose it is:
	// OWNER_WALLET (the owner's wallet) or REGISTRY_CUSTODY (the registry's custody
	// account, for an owner without a wallet).
	Holder, HolderKind string
	// MintTx and BurnTx are the transactions that minted and burned the token
	// (0x + 64 hex, "" before), MintBlock the mint's block.
	MintTx, BurnTx string
	MintBlock      uint64
	// MintedAt and BurnedAt are when the chain minted and burned it; BurnRequestedAt
	// when the registry closed the version (the burn follows).
	MintedAt, BurnedAt, BurnRequestedAt time.Time
}

// pageData is View with its words, colour class and formatted dates.
type pageData struct {
	View
	Lang, Dir, Title, Word, Explanation, Class, AnchorText string
	CertifiedAtISO, CertifiedAtText                        string
	BindingText                                            string
	History                                                []row
	// Land is the land title in words (nil without one).
	Land *titleData
}

// titleData is Title with its words, colour class and formatted dates.
type titleData struct {
	Title
	Word, Text, Class, HolderLabel, HolderText string
	StandardText                               string
	MintedAtISO, MintedAtText                  string
	BurnedAtISO, BurnedAtText                  string
	BurnRequestedAtISO, BurnRequestedAtText    string
}

// row is one line of the history table.
type row struct {
	Number                                                    uint64
	Here                                                      bool
	Status, Class, ShortHash, CertifiedAtISO, CertifiedAtText string
	ShortWallet, ConsentText                                  string
	TokenStatus, TokenClass, TokenText                        string
}

// Render returns the page for v.
func Render(v View) ([]byte, error) {
	d := pageData{View: v, Lang: "en", Dir: "ltr", AnchorText: v.Anchor}
	d.Class = class(v.Status)
	switch {
	case !v.Found:
		d.Class = "unknown"
		d.Title, d.Word = "Certificate not found", "NOT FOUND"
		d.Explanation = "This registry has no certificate with this hash. Do not rely on a document that carries it."
	case !v.Authentic:
		d.Class = "unknown"
		d.Title, d.Word = "Certificate not authentic", "NOT AUTHENTIC"
		d.Explanation = "This hash does not match a certificate this registry signed."
	case v.Status == StatusCurrent:
		d.Title, d.Word = "This certificate is CURRENT", "CURRENT"
		d.Explanation = "Authentic, and the latest version for this parcel."
	case v.Status == StatusSuperseded:
		d.Title, d.Word = "This certificate is SUPERSEDED", "SUPERSEDED"
		d.Explanation = "Authentic, but no longer in force: a newer version replaced it (after a transfer of ownership). Ask for the current certificate."
	case v.Status == StatusRevoked:
		d.Title, d.Word = "This certificate is REVOKED", "REVOKED"
		d.Explanation = "Authentic, but the registry revoked this parcel's certification. It is no longer valid."
	default:
		d.Class = "unknown"
		d.Title, d.Word = "Certificate status unknown", "UNKNOWN"
		d.Explanation = "The registry could not say whether this certificate is in force."
	}
	if d.AnchorText == "" {
		d.AnchorText = "not anchored"
	}
	d.CertifiedAtISO, d.CertifiedAtText = dates(v.CertifiedAt)
	switch v.OwnerBinding {
	case "IDENTITY_VERIFIED":
		d.BindingText = "verified by the notary, and the wallet of a verified identity"
	case "NOTARY_VERIFIED":
		d.BindingText = "verified by the notary"
	}
	for _, h := range v.History {
		r := row{Number: h.Version, Here: h.Hash == v.Hash, Status: h.Status, Class: class(h.Status), ShortHash: short(h.Hash),
			ShortWallet: short(h.OwnerWallet)}
		switch h.OwnerConsent {
		case "OWNER_SIGNATURE":
			r.ConsentText = "transferred with the owner's signature"
		case "NOTARY_WITNESSED":
			r.ConsentText = "transferred before the notary (owner without a wallet)"
		}
		if h.TokenStatus != "" {
			r.TokenStatus, r.TokenClass, r.TokenText = h.TokenStatus, titleClass(h.TokenStatus), titleShortWords(h.TokenStatus)
		}
		r.CertifiedAtISO, r.CertifiedAtText = dates(h.CertifiedAt)
		if !h.CertifiedAt.IsZero() {
			r.CertifiedAtText = h.CertifiedAt.UTC().Format("2 Jan 2006")
		}
		d.History = append(d.History, r)
	}
	if v.Title != nil {
		d.Land = describeTitle(*v.Title, v.Status)
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("registrypage: %w", err)
	}
	return buf.Bytes(), nil
}

// Write answers with the page for v and its security headers: 200 when the hash is
// known, 404 when it is not.
func Write(w http.ResponseWriter, v View) error {
	body, err := Render(v)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if !v.Found {
		status = http.StatusNotFound
	}
	return htmlpage.Write(w, status, csp, body)
}

// ContentSecurityPolicy returns the policy the page is served with: no script at
// all, its own inline style by hash, no base URI, no form targets, no framing.
func ContentSecurityPolicy() string { return csp }

func class(status string) string {
	switch status {
	case StatusCurrent:
		return "current"
	case StatusSuperseded:
		return "superseded"
	case StatusRevoked:
		return "revoked"
	}
	return "unknown"
}

// describeTitle puts a land title into words: its status (with the status of its
// certificate, which says why a title was burned), who holds it, and its dates.
func describeTitle(t Title, certStatus string) *titleData {
	d := &titleData{Title: t, Class: titleClass(t.Status), HolderLabel: "Held by"}
	holder := ""
	switch t.HolderKind {
	case HolderOwnerWallet:
		holder, d.HolderText = "the owner's wallet", "the owner's wallet"
	case HolderRegistryCustody:
		holder, d.HolderText = "the registry's custody account", "the registry's custody account, for an owner without a wallet"
	}
	if t.Status == TitleBurned {
		d.HolderLabel = "Was held by"
	}
	closed := !t.BurnRequestedAt.IsZero()
	switch t.Status {
	case TitleMinted:
		d.Word = "On chain"
		if holder != "" {
			d.Word += ", held by " + holder
		}
		d.Text = "The registry minted this land title on chain. It is soulbound: it cannot be transferred; only the registry can burn it."
		if closed {
			d.Class = titleClass(TitlePending)
			d.Text = "This version is closed: the registry has asked the chain to burn its title, which follows shortly."
		}
	case TitlePending:
		d.Word = "Being minted"
		d.Text = "The registry has queued the mint of this land title on chain; it follows shortly."
	case TitleBurned:
		switch certStatus {
		case StatusSuperseded:
			d.Word = "Burned (this version was superseded)"
		case StatusRevoked:
			d.Word = "Burned (this version was revoked)"
		default:
			d.Word = "Burned (this version was superseded or revoked)"
		}
		d.Text = "The registry burned this version's land title when the version closed."
		switch {
		case t.BurnTx != "":
		case t.Contract == "":
			d.Text = "This registry has no chain: it retired this version's title in its own record."
		default:
			d.Text = "This version closed before its title reached the chain: the registry retired it without a transaction."
		}
	case TitleFailed:
		d.Word = "Chain transaction failed"
		d.Text = "The registry could not mint or burn this land title on chain after its retries. The registry's signed record still stands."
	case TitleDisabled:
		d.Word = "Registry record only (no chain configured)"
		d.Text = "This registry records the title itself; it has no chain to mint it on."
	default:
		d.Class = "unknown"
		d.Word = "Status unknown"
		d.Text = "The registry could not say where this land title stands on chain."
	}
	d.StandardText = t.Standard
	if t.Standard != "" {
		d.StandardText += " (soulbound token, locked)"
	}
	d.MintedAtISO, d.MintedAtText = dates(t.MintedAt)
	d.BurnedAtISO, d.BurnedAtText = dates(t.BurnedAt)
	d.BurnRequestedAtISO, d.BurnRequestedAtText = dates(t.BurnRequestedAt)
	return d
}

// titleClass is the colour class of a land title's status.
func titleClass(status string) string {
	switch status {
	case TitleMinted:
		return "t-minted"
	case TitlePending:
		return "t-pending"
	case TitleBurned:
		return "t-burned"
	case TitleFailed:
		return "t-failed"
	case TitleDisabled:
		return "t-disabled"
	}
	return "unknown"
}

// titleShortWords names a land title's status in the version history.
func titleShortWords(status string) string {
	switch status {
	case TitleMinted:
		return "On chain"
	case TitlePending:
		return "Being minted"
	case TitleBurned:
		return "Burned"
	case TitleFailed:
		return "Chain failed"
	case TitleDisabled:
		return "Registry only"
	}
	return status
}

// short abbreviates a hash for the history table: 0x1234…abcd.
func short(h string) string {
	if len(h) <= 14 {
		return h
	}
	return h[:6] + "…" + h[len(h)-4:]
}

func dates(t time.Time) (iso, text string) {
	if t.IsZero() {
		return "", "unknown"
	}
	t = t.UTC()
	return t.Format(time.RFC3339), t.Format("2 January 2006, 15:04 UTC")
}

// mustHash returns the CSP source expression of the content of the only element
// delimited by open and close in doc; it panics when there is not exactly one (a
// broken embed is a build error, not a runtime condition).
func mustHash(doc, open, close string) string {
	h, err := htmlpage.ElementHash([]byte(doc), open, close)
	if err == nil && strings.Count(doc, close) != 1 {
		err = fmt.Errorf("the page must hold exactly one %s", close)
	}
	if err != nil {
		panic("registrypage: page.html: " + err.Error())
	}
	return h
}
