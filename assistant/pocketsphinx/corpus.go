package pocketsphinx

import "strings"

// The domain language model is trained on what people say to the assistant, not on
// general English: the stock en-us model hears "what is the status of my parcel" as
// "what is the status of my car sale" because "parcel" is rare in its training text.
// The sentences below are generated from templates, one group per intent of the
// assistant's router (parcel status, certificate check, transfer how-to, verification
// request status, attestation status, help and small talk), plus the spoken shapes of
// the entity ids the router extracts (prc_…, vrq_…, att_…, 0x…).

// corpusTemplate is one template: each slot is a list of alternatives, and the
// template expands to every combination (the cross product, in order).
type corpusTemplate [][]string

// domainTemplates are the assistant's phrases. Every word must be in the decoder's
// dictionary or in extraPronunciations; sentences with other words are dropped when the
// model is built (see Transcriber), so that a custom ModelDir cannot break start-up.
var domainTemplates = []corpusTemplate{
	// Parcel status.
	{{"what is", "what's", "tell me", "show me", "check", "i want to know"}, {"the status of"}, {"my", "the", "this", "our"}, {"parcel", "land", "plot", "property", "land parcel", "land title"}},
	{{"status of"}, {"my", "the", "this"}, {"parcel", "land", "property"}},
	{{"status of parcel", "parcel status", "check parcel", "status of land parcel"}, {"", "please"}},
	{{"is"}, {"my", "the", "this"}, {"parcel", "land", "property"}, {"registered", "pending", "approved"}},
	{{"has"}, {"my", "the"}, {"parcel", "land", "property"}, {"been"}, {"registered", "approved"}},
	{{"where is", "what happened to"}, {"my"}, {"parcel", "land", "property"}, {"registration", "certificate", "application"}},
	// Certificate check.
	{{"is"}, {"this", "the", "my"}, {"certificate", "land certificate", "parcel certificate"}, {"authentic", "valid", "genuine", "real", "revoked", "current", "still valid"}},
	{{"check", "verify", "validate"}, {"this", "the", "my"}, {"certificate", "certificate hash", "land certificate"}},
	{{"can you", "please"}, {"check", "verify"}, {"this", "my"}, {"certificate"}},
	{{"is this a"}, {"real", "genuine", "valid"}, {"certificate"}},
	// Transfer how-to.
	{{"how do i", "how can i", "how to", "i want to", "i would like to", "help me"}, {"transfer"}, {"my", "the", "this", "our"}, {"land", "parcel", "property", "ownership", "plot", "title"}},
	{{"how do i", "how can i"}, {"transfer ownership of", "sell", "give"}, {"my"}, {"land", "parcel", "property"}},
	{{"transfer ownership", "land transfer", "property transfer", "transfer of ownership"}},
	// Verification request status.
	{{"what is", "what's", "check", "tell me"}, {"the status of"}, {"my", "the", "this"}, {"verification request", "verification", "identity verification", "request"}},
	{{"status of"}, {"my", "the"}, {"verification request", "verification", "request"}},
	{{"is"}, {"my", "the"}, {"verification request", "verification", "request"}, {"approved", "complete", "done", "pending", "finished"}},
	// Attestation status.
	{{"is"}, {"my", "the", "this"}, {"attestation"}, {"valid", "revoked", "current", "still valid", "active", "authentic"}},
	{{"check", "verify", "what is the status of", "status of"}, {"my", "the", "this"}, {"attestation"}},
	{{"was"}, {"my", "the"}, {"attestation"}, {"revoked"}},
	// Help and small talk.
	{{"help", "help me", "i need help", "can you help me", "what can you do", "what do you do", "how does this work", "who are you", "what are you"}},
	{{"hello", "hi", "hey", "good morning", "good afternoon", "good evening"}, {"", "there"}},
	{{"thank you", "thanks", "thank you very much", "goodbye", "bye", "okay", "yes", "no"}},
}

// Entity shapes as people read them out: a prefix spelled letter by letter, then a few
// letters and digits; a certificate hash as "zero x" and hex digits. The router still
// needs the written id, so these sentences exist to keep the decoder on the right
// words ("parcel", "request") when an id is read aloud after them.
var entityLeads = []corpusTemplate{
	{{"what is the status of", "status of", "check"}, {"parcel p r c", "parcel"}},
	{{"what is the status of", "status of", "check"}, {"request v r q", "verification request v r q"}},
	{{"is", "check"}, {"attestation a t t"}},
	{{"is certificate zero x", "check certificate zero x", "verify certificate zero x"}},
}

// spokenSymbols are read after an entity lead: digits and the letters that appear in
// ids and hexadecimal hashes.
var spokenSymbols = []string{
	"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"a", "b", "c", "d", "e", "f",
}

// extraPronunciations are domain words that cmudict-en-us lacks, in the en-us phone
// set, added to every decoder's dictionary before the domain model is loaded.
var extraPronunciations = map[string]string{
	"attestation":  "AE T EH S T EY SH AH N",
	"attestations": "AE T EH S T EY SH AH N Z",
}

// domainCorpus returns the sentences the domain language model is trained on:
// lower-case words separated by single spaces, deterministic and without duplicates.
func domainCorpus() []string {
	seen := make(map[string]bool)
	var out []string
	add := func(s string) {
		s = strings.Join(strings.Fields(s), " ")
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, t := range domainTemplates {
		for _, s := range t.expand() {
			add(s)
		}
	}
	// Each entity lead is followed by a few short symbol sequences: enough for the
	// trigrams "symbol symbol" and "lead symbol" to exist, without letting spelled
	// symbols dominate the model.
	for _, t := range entityLeads {
		for i, lead := range t.expand() {
			for j := 0; j < 3; j++ {
				var b strings.Builder
				b.WriteString(lead)
				for k := 0; k < 4; k++ {
					b.WriteByte(' ')
					b.WriteString(spokenSymbols[(i*7+j*5+k*3)%len(spokenSymbols)])
				}
				add(b.String())
			}
		}
	}
	return out
}

// expand returns every sentence the template generates.
func (t corpusTemplate) expand() []string {
	out := []string{""}
	for _, slot := range t {
		next := make([]string, 0, len(out)*len(slot))
		for _, prefix := range out {
			for _, alt := range slot {
				next = append(next, strings.TrimSpace(prefix+" "+alt))
			}
		}
		out = next
	}
	return out
}

// domainSentences returns the sentences of the domain corpus and extra whose words
// are all known (in the decoder's dictionary).
func domainSentences(extra []string, known func(word string) bool) []string {
	var kept []string
	for _, s := range append(domainCorpus(), extra...) {
		ok := true
		for _, w := range strings.Fields(s) {
			ok = ok && known(w)
		}
		if ok {
			kept = append(kept, s)
		}
	}
	return kept
}
