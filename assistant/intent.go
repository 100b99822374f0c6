package assistant

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Intent is what a message asks for; the reply's intent member.
type Intent string

// The intents of the embedded router.
const (
	IntentParcelStatus        Intent = "parcel_status"               // a parcel's status (prc_…), or the caller's parcels
	IntentMyParcels           Intent = "my_parcels"                  // the parcels the caller owns with its wallet, and what awaits its signature
	IntentCertificateCheck    Intent = "certificate_check"           // is certificate 0x… authentic?
	IntentTransferHowTo       Intent = "transfer_howto"              // how to transfer land (with a prc_…: that parcel's readiness)
	IntentVerificationStatus  Intent = "verification_request_status" // a verification request's status (vrq_…)
	IntentAttestationStatus   Intent = "attestation_status"          // an attestation's status (att_…)
	IntentHelp                Intent = "help"                        // what the assistant can do, greetings
	IntentUnknown             Intent = "unknown"                     // not understood, no language model: the help text
	IntentModel               Intent = "model"                       // answered by the language model
	IntentUnsupportedLanguage Intent = "unsupported_language"        // a language the assistant does not speak
)

// Entities are the identifiers a message names, in order of appearance, without
// repeats.
type Entities struct {
	Parcels      []string // prc_…
	Requests     []string // vrq_…
	Attestations []string // att_…
	Hashes       []string // 0x followed by 64 hex digits, lower-cased
}

// Empty reports whether no entity was found.
func (e Entities) Empty() bool {
	return len(e.Parcels)+len(e.Requests)+len(e.Attestations)+len(e.Hashes) == 0
}

// maxEntities bounds the entities of one message the router answers.
const maxEntities = 5

var (
	// Ids are matched loosely (any length of letters and digits), so that a mistyped
	// id gets "not found" rather than the help text.
	entityID = regexp.MustCompile(`(?i)\b(prc|vrq|att)_[a-z0-9]{1,64}\b`)
	hash64   = regexp.MustCompile(`(?i)\b0x[0-9a-f]{64}\b`)
)

// ExtractEntities finds the ids and hashes text names (at most 5 of each kind).
func ExtractEntities(text string) Entities {
	var e Entities
	add := func(list *[]string, v string) {
		for _, x := range *list {
			if x == v {
				return
			}
		}
		if len(*list) < maxEntities {
			*list = append(*list, v)
		}
	}
	for _, m := range entityID.FindAllString(text, -1) {
		m = strings.ToLower(m)
		switch m[:3] {
		case "prc":
			add(&e.Parcels, m)
		case "vrq":
			add(&e.Requests, m)
		case "att":
			add(&e.Attestations, m)
		}
	}
	for _, m := range hash64.FindAllString(text, -1) {
		add(&e.Hashes, strings.ToLower(m))
	}
	return e
}

// Route is the embedded router: the intent of text and the entities it names.
// Entities decide first (a hash is a certificate check, a prc_ id a parcel status
// unless transfer words go with it); keywords of any supported language decide the
// rest. IntentUnknown means the router cannot place the message.
//
// IntentMyParcels is what an owner asks: the parcels it owns ("my parcels", "what do
// I own") or what waits for its signature ("my signature", "have to sign"); the latter is
// tried before the transfer words, so that "a transfer to sign" is the owner's own
// list rather than the how-to. Route reads text only: the service also answers a
// holder's parcel status question without an id ("the status of my land") as
// IntentMyParcels, since a holder owns parcels through its wallet.
func Route(text string) (Intent, Entities) {
	e := ExtractEntities(text)
	words := " " + strings.Join(wordsOf(fold(text)), " ") + " "
	has := func(topic string) bool {
		for _, k := range foldedKeywords[topic] {
			if strings.Contains(words, " "+k+" ") || (strings.HasSuffix(k, "*") && strings.Contains(words, " "+strings.TrimSuffix(k, "*"))) {
				return true
			}
		}
		return false
	}
	switch {
	case len(e.Hashes) > 0:
		return IntentCertificateCheck, e
	case len(e.Parcels) > 0 && has("transfer"):
		return IntentTransferHowTo, e
	case len(e.Parcels) > 0:
		return IntentParcelStatus, e
	case len(e.Requests) > 0:
		return IntentVerificationStatus, e
	case len(e.Attestations) > 0:
		return IntentAttestationStatus, e
	case has("sign"):
		return IntentMyParcels, e
	case has("transfer"):
		return IntentTransferHowTo, e
	case has("certificate"):
		return IntentCertificateCheck, e
	case has("request"):
		return IntentVerificationStatus, e
	case has("attestation"):
		return IntentAttestationStatus, e
	case has("mine"):
		return IntentMyParcels, e
	case has("parcel"):
		return IntentParcelStatus, e
	case has("help"):
		return IntentHelp, e
	}
	return IntentUnknown, e
}

// fold lower-cases text and strips diacritics, so that "transférer", "Transferer"
// and "TRANSFÉRER" match one keyword. Arabic letters are kept; their short vowel
// marks (harakat) are dropped like any other combining mark.
func fold(text string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, text)
	if err != nil {
		out = text
	}
	return strings.ToLower(out)
}

// foldedKeywords is keywords folded like the text they are matched against.
var foldedKeywords = func() map[string][]string {
	out := make(map[string][]string, len(keywords))
	for topic, ks := range keywords {
		for _, k := range ks {
			out[topic] = append(out[topic], fold(k))
		}
	}
	return out
}()
