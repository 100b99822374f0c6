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
// where the parcel is (its GPS point and area in words, and the parcel drawn by
// package parcel/plan: its surveyed boundary, or a circle of its area around the GPS
// point, north up, with a scale bar, as an inline SVG of numbers and escaped labels
// only), its land title on chain (SPEC S14: the ERC-5192 token's status in words and
// colour, who holds it, the contract, the chain and the full mint and burn
// transaction hashes) and its version history, each version with its title's status.
//
// The page is written in the seven languages of the message catalogue
// (internal/catalogue, table "registry"; View.Lang, chosen by the caller with
// catalogue.Negotiate from ?lang= and Accept-Language): every word of it, with dates
// and numbers as the language writes them, Arabic right to left (the layout uses
// logical CSS properties only, and hashes, addresses and ids stay left to right in
// isolated code elements). A language switcher without script links to ?lang= for
// each language, named in itself. Write sends the page's language as
// Content-Language.
//
// Besides a known and an unknown hash (404, still a page), the page has a third
// form: a malformed hash (View.Malformed, 400), which says what a certificate hash
// looks like.
//
// What it never does: show the owner's name or identity document. View has no field
// for them, so a caller cannot pass them by mistake.
package registrypage

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/internal/htmlpage"
	"github.com/veriland/veriland/parcel/plan"
)

//go:embed page.html
var source string

// MediaType is the content type the page is served with.
const MediaType = htmlpage.MediaType

// Page is the name of the page's table in the message catalogue.
const Page = "registry"

// Certificate statuses, as the registry reports them.
const (
	StatusCurrent    = "CURRENT"
	StatusSuperseded = "SUPERSEDED"
	StatusRevoked    = "REVOKED"
)

// The drawing's box, in CSS pixels: about a phone's width, so that its 13 px labels
// print near their size; it scales with the page (width 100 %, height auto).
const (
	planWidth  = 360
	planHeight = 270
)

// maxShown is the most characters of a malformed hash the page repeats.
const maxShown = 100

var (
	tmpl = template.Must(template.New("page").Funcs(template.FuncMap{"t": text, "phrase": split}).Parse(source))
	csp  = "default-src 'none'; style-src '" + mustHash(source, "<style>", "</style>") + "'; img-src data:; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

// View is what the page shows about one hash. The zero value (Found false) is the
// page of a hash the registry does not know, in English.
type View struct {
	// Lang is the page's language: one of catalogue.Languages (another reads as
	// catalogue.Default).
	Lang string
	// Hash is the certificate hash looked up (0x + 64 hex), or, with Malformed, what
	// the address held instead.
	Hash string
	// Malformed reports that Hash is not a certificate hash at all (status 400).
	Malformed bool
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
	// AnchorStatus is where the token's anchoring stands (ANCHORED, PENDING,
	// DISABLED, FAILED; "" for not anchored) and AnchorTx its transaction. The page
	// shows them only when Title is nil: a land title's transactions say more.
	AnchorStatus, AnchorTx string
	// Lat and Lon are the parcel's GPS point (WGS84 degrees) and AreaM2 its area in
	// square metres; Ring is its surveyed boundary's exterior ring as [lon, lat]
	// positions (GeoJSON order), nil without one. The page draws the boundary, or a
	// circle of the area around the GPS point; without an area or a boundary it has
	// no drawing and no "where" section.
	Lat, Lon, AreaM2 float64
	Ring             [][2]float64
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

// phrase is a message with one value set apart (a hash in a code element, a date in
// a time element): Before, the value, After.
type phrase struct{ Before, Value, After string }

// when is a moment as the page prints it: ISO for the datetime attribute, Text for
// the reader.
type when struct{ ISO, Text string }

// pageData is View with its words, colour classes and formatted dates.
type pageData struct {
	View
	Dir       string
	Languages []htmlpage.Language
	// DocTitle is the document's title; Title, Word and Explanation the verdict.
	DocTitle, Title, Word, Explanation, Class string
	// StatusText is the certificate's status in words.
	StatusText  string
	CertifiedAt when
	BindingText string
	Anchor      phrase
	// Shown is what the page repeats of a malformed hash (at most maxShown
	// characters).
	Shown   string
	History []row
	// Where is the parcel's place and drawing (nil without an area or a boundary).
	Where *whereData
	// Land is the land title in words (nil without one).
	Land *titleData
}

// whereData is where the parcel is, in words and drawn.
type whereData struct {
	Lat, Lon, Area, Boundary string
	// SVG is the drawing (plan.Plan.SVG: numbers and escaped labels only); "" when
	// it could not be drawn.
	SVG template.HTML
	// Shape is "boundary" or "circle", what the drawing shows.
	Shape string
}

// titleData is Title with its words, colour class and formatted dates.
type titleData struct {
	Title
	Word, Text, Class, HolderLabel, HolderText string
	StandardText                               string
	Block                                      string
	MintedAt, BurnedAt                         when
	// Burn says when the registry closed the version (asked for the burn, or
	// retired the title itself), without a burn transaction; BurnISO is that moment
	// for the datetime attribute.
	Burn    phrase
	BurnISO string
}

// row is one line of the history table.
type row struct {
	Number                    uint64
	Here                      bool
	Status, StatusText, Class string
	ShortHash                 string
	CertifiedAt               when
	ShortWallet, ConsentText  string
	TokenStatus, TokenClass   string
	TokenLabel                phrase
}

// Render returns the page for v.
func Render(v View) ([]byte, error) {
	lang := catalogue.Lang(v.Lang)
	v.Lang = lang
	t := func(key string) string { return msg(lang, key) }
	d := pageData{View: v, Dir: catalogue.Dir(lang),
		Languages: htmlpage.Switcher(catalogue.Languages, lang, catalogue.Name, catalogue.Dir)}
	d.Class = class(v.Status)
	verdict := ""
	switch {
	case v.Malformed:
		verdict, d.Class = "malformed", "unknown"
		d.Shown = v.Hash
		if utf8.RuneCountInString(d.Shown) > maxShown {
			d.Shown = string([]rune(d.Shown)[:maxShown]) + "…"
		}
	case !v.Found:
		verdict, d.Class = "notFound", "unknown"
	case !v.Authentic:
		verdict, d.Class = "notAuthentic", "unknown"
	case v.Status == StatusCurrent:
		verdict = "current"
	case v.Status == StatusSuperseded:
		verdict = "superseded"
	case v.Status == StatusRevoked:
		verdict = "revoked"
	default:
		verdict, d.Class = "unknown", "unknown"
	}
	d.Title, d.Word, d.Explanation = t("verdict."+verdict+".title"), t("verdict."+verdict+".word"), t("verdict."+verdict+".text")
	d.DocTitle = catalogue.Fill(t("docTitle"), map[string]string{"title": d.Title})
	d.StatusText = statusWords(lang, v.Status)
	d.CertifiedAt = dates(lang, v.CertifiedAt)
	switch v.OwnerBinding {
	case "IDENTITY_VERIFIED", "NOTARY_VERIFIED":
		d.BindingText = t("binding." + v.OwnerBinding)
	}
	switch v.AnchorStatus {
	case "":
		d.Anchor = phrase{Before: t("anchor.none")}
	case "ANCHORED":
		d.Anchor = phrase{Before: t("anchor.ANCHORED")}
		if v.AnchorTx != "" {
			d.Anchor = split(lang, "anchor.ANCHOREDtx", "tx", v.AnchorTx)
		}
	case "PENDING", "DISABLED", "FAILED":
		d.Anchor = phrase{Before: t("anchor." + v.AnchorStatus)}
	default:
		d.Anchor = split(lang, "anchor.other", "status", v.AnchorStatus)
	}
	for _, h := range v.History {
		r := row{Number: h.Version, Here: h.Hash == v.Hash, Status: h.Status, StatusText: statusWords(lang, h.Status),
			Class: class(h.Status), ShortHash: short(h.Hash), ShortWallet: short(h.OwnerWallet), CertifiedAt: dates(lang, h.CertifiedAt)}
		if !h.CertifiedAt.IsZero() {
			r.CertifiedAt.Text = catalogue.Date(lang, h.CertifiedAt) // the day is enough in the table
		}
		switch h.OwnerConsent {
		case "OWNER_SIGNATURE", "NOTARY_WITNESSED":
			r.ConsentText = t("consent." + h.OwnerConsent)
		}
		if h.TokenStatus != "" {
			r.TokenStatus, r.TokenClass = h.TokenStatus, titleClass(h.TokenStatus)
			r.TokenLabel = split(lang, "history.token", "status", titleShortWords(lang, h.TokenStatus))
		}
		d.History = append(d.History, r)
	}
	if v.Found && !v.Malformed {
		d.Where = where(lang, v)
	}
	if v.Title != nil {
		d.Land = describeTitle(lang, *v.Title, v.Status)
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("registrypage: %w", err)
	}
	return buf.Bytes(), nil
}

// Write answers with the page for v and its security headers, and its language as
// Content-Language: 200 when the hash is known, 404 when it is not, 400 when it is
// malformed. The caller sets Vary (Accept, Accept-Language).
func Write(w http.ResponseWriter, v View) error {
	body, err := Render(v)
	if err != nil {
		return err
	}
	status := http.StatusOK
	switch {
	case v.Malformed:
		status = http.StatusBadRequest
	case !v.Found:
		status = http.StatusNotFound
	}
	w.Header().Set("Content-Language", catalogue.Lang(v.Lang))
	return htmlpage.Write(w, status, csp, body)
}

// ContentSecurityPolicy returns the policy the page is served with: no script at
// all, its own inline style by hash, no base URI, no form targets, no framing.
func ContentSecurityPolicy() string { return csp }

// Text returns the page's message key in lang ("" for a key it has not), for tests
// and callers that quote the page.
func Text(lang, key string) string { return catalogue.Page(Page).Text(lang, key) }

// msg returns the message key in lang; a key the catalogue lacks prints as itself
// (the template's t refuses it, so tests catch it).
func msg(lang, key string) string {
	if s := Text(lang, key); s != "" {
		return s
	}
	return key
}

// text is the template's t: the message key in lang, an error for a key the
// catalogue lacks (a typo fails the render, and every test).
func text(lang, key string) (string, error) {
	s := Text(lang, key)
	if s == "" {
		return "", fmt.Errorf("the catalogue's %s table has no message %q", Page, key)
	}
	return s, nil
}

// split returns the message key in lang cut around its placeholder {name}, with
// value in its place.
func split(lang, key, name, value string) phrase {
	before, after, ok := strings.Cut(msg(lang, key), "{"+name+"}")
	if !ok {
		return phrase{Before: before}
	}
	return phrase{Before: before, Value: value, After: after}
}

// where puts the parcel's place into words and draws it: the boundary when it has
// one that can be drawn, else a circle of its area around its GPS point.
func where(lang string, v View) *whereData {
	if !(v.AreaM2 > 0) && len(v.Ring) < 3 {
		return nil
	}
	w := &whereData{Lat: degrees(lang, v.Lat), Lon: degrees(lang, v.Lon)}
	if v.AreaM2 > 0 {
		w.Area = plan.AreaText(lang, v.AreaM2)
	}
	in := plan.Input{Lat: v.Lat, Lon: v.Lon, AreaM2: v.AreaM2, Boundary: v.Ring}
	p, err := plan.Draw(in, planWidth, planHeight)
	if err != nil && len(v.Ring) > 0 {
		in.Boundary = nil // a boundary that cannot be drawn: the circle
		p, err = plan.Draw(in, planWidth, planHeight)
	}
	if len(in.Boundary) > 0 {
		w.Boundary = catalogue.Fill(msg(lang, "boundary.surveyed"), map[string]string{"n": strconv.Itoa(corners(in.Boundary))})
	} else {
		w.Boundary = msg(lang, "boundary.none")
	}
	if err == nil {
		w.SVG = template.HTML(p.SVG(p.LabelsFor(lang, v.AreaM2))) // numbers and escaped labels only
		w.Shape = "circle"
		if len(p.Outline) > 0 {
			w.Shape = "boundary"
		}
	}
	return w
}

// corners counts a ring's distinct vertices (without the closing repeat).
func corners(ring [][2]float64) int {
	if n := len(ring); n > 1 && ring[0] == ring[n-1] {
		return n - 1
	}
	return len(ring)
}

// degrees prints a coordinate in lang with as many decimals as it has, up to 6
// (about 10 cm), and a degree sign.
func degrees(lang string, v float64) string {
	dec := 0
	for dec < 6 && math.Abs(v*math.Pow(10, float64(dec))-math.Round(v*math.Pow(10, float64(dec)))) > 1e-6 {
		dec++
	}
	return catalogue.Number(lang, v, dec) + "°"
}

// statusWords names a certificate status in lang.
func statusWords(lang, status string) string {
	switch status {
	case StatusCurrent, StatusSuperseded, StatusRevoked:
		return msg(lang, "status."+status)
	}
	return msg(lang, "status.unknown")
}

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
func describeTitle(lang string, t Title, certStatus string) *titleData {
	m := func(key string) string { return msg(lang, key) }
	d := &titleData{Title: t, Class: titleClass(t.Status), HolderLabel: m("dt.heldBy")}
	holder := ""
	switch t.HolderKind {
	case HolderOwnerWallet, HolderRegistryCustody:
		holder, d.HolderText = m("holder."+t.HolderKind), m("holderKind."+t.HolderKind)
	}
	if t.Status == TitleBurned {
		d.HolderLabel = m("dt.wasHeldBy")
	}
	closed := !t.BurnRequestedAt.IsZero()
	switch t.Status {
	case TitleMinted:
		d.Word = m("title.word.minted")
		if holder != "" {
			d.Word = catalogue.Fill(m("title.word.mintedHeld"), map[string]string{"holder": holder})
		}
		d.Text = m("title.text.minted")
		if closed {
			d.Class = titleClass(TitlePending)
			d.Text = m("title.text.closing")
		}
	case TitlePending:
		d.Word, d.Text = m("title.word.pending"), m("title.text.pending")
	case TitleBurned:
		switch certStatus {
		case StatusSuperseded:
			d.Word = m("title.word.burnedSuperseded")
		case StatusRevoked:
			d.Word = m("title.word.burnedRevoked")
		default:
			d.Word = m("title.word.burned")
		}
		switch {
		case t.BurnTx != "":
			d.Text = m("title.text.burned")
		case t.Contract == "":
			d.Text = m("title.text.retiredNoChain")
		default:
			d.Text = m("title.text.retiredNoTx")
		}
	case TitleFailed:
		d.Word, d.Text = m("title.word.failed"), m("title.text.failed")
	case TitleDisabled:
		d.Word, d.Text = m("title.word.disabled"), m("title.text.disabled")
	default:
		d.Class = "unknown"
		d.Word, d.Text = m("title.word.unknown"), m("title.text.unknown")
	}
	if t.Standard != "" {
		d.StandardText = catalogue.Fill(m("standard.locked"), map[string]string{"standard": t.Standard})
	}
	if t.MintBlock != 0 {
		d.Block = catalogue.Fill(m("block"), map[string]string{"n": strconv.FormatUint(t.MintBlock, 10)})
	}
	d.MintedAt, d.BurnedAt = dates(lang, t.MintedAt), dates(lang, t.BurnedAt)
	if closed {
		key := "burn.requested"
		if t.Status == TitleBurned {
			key = "burn.retired"
		}
		at := dates(lang, t.BurnRequestedAt)
		d.Burn, d.BurnISO = split(lang, key, "date", at.Text), at.ISO
	}
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
func titleShortWords(lang, status string) string {
	switch status {
	case TitleMinted, TitlePending, TitleBurned, TitleFailed, TitleDisabled:
		return msg(lang, "titleShort."+status)
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

// dates returns t for the page: ISO 8601 and, in lang, to the minute ("unknown"
// for the zero time).
func dates(lang string, t time.Time) when {
	if t.IsZero() {
		return when{Text: msg(lang, "date.unknown")}
	}
	return when{ISO: t.UTC().Format(time.RFC3339), Text: catalogue.DateTime(lang, t)}
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
