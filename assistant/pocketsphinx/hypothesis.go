package pocketsphinx

import "strings"

// hypothesis is what one search produced for an utterance.
type hypothesis struct {
	text    string  // words, lower-case, single-spaced; "" for none
	minWord float64 // smallest lattice posterior of one word of text, 0..1
}

// recognition is the outcome of the searches over one recording.
type recognition struct {
	domain, general hypothesis
	grammar         hypothesis // a Command's search over the domain grammar
	chosen          hypothesis
	search          string // searchDomain or searchGeneral: which one chosen came from
}

// Thresholds of the choice between the domain and the general hypothesis, set on
// flite-synthesised speech (see transcriber_test.go, which logs both hypotheses and
// their word posteriors). When the domain model is forced onto speech it cannot
// express, the lattice doubts some of the words it produced (lowest word posterior
// 0.00–0.06 in the measurement; in-domain sentences it got right stayed at 0.15 or
// above, most above 0.5). And when the stock model is sure of every word of a
// different sentence (≥ 0.6; 0.83 for "please call me tomorrow morning" against the
// domain model's "please help me to my real morning"), the speaker said something
// the domain model cannot express.
const (
	minDomainWordPosterior  = 0.1
	minGeneralWordPosterior = 0.6
)

// choose picks the transcript: the domain hypothesis unless it is empty or doubtful,
// or the general model confidently heard something else. It reports which won.
func choose(domain, general hypothesis) (hypothesis, string) {
	switch {
	case domain.text == "":
		return general, searchGeneral
	case domain.minWord < minDomainWordPosterior:
		return general, searchGeneral
	case general.text != "" && general.text != domain.text && general.minWord >= minGeneralWordPosterior:
		return general, searchGeneral
	default:
		return domain, searchDomain
	}
}

// Names of the two searches, as choose reports them.
const (
	searchDomain  = "domain"
	searchGeneral = "general"
)

// cleanHypothesis drops fillers (<sil>, [NOISE], ++GARBAGE++) and alternate-
// pronunciation marks ("the(2)") from a decoder's hypothesis, and lower-cases it.
func cleanHypothesis(s string) string {
	var words []string
	for _, w := range strings.Fields(s) {
		if strings.HasPrefix(w, "<") || strings.HasPrefix(w, "[") || strings.HasPrefix(w, "++") {
			continue
		}
		if i := strings.IndexByte(w, '('); i > 0 {
			w = w[:i]
		} else if i == 0 {
			continue
		}
		words = append(words, strings.ToLower(w))
	}
	return strings.Join(words, " ")
}

// wordErrorRate is the word-level Levenshtein distance (substitutions, insertions,
// deletions) between hyp and ref, divided by the number of reference words; with
// errs and words returned too so that rates over several sentences can be pooled.
func wordErrorRate(ref, hyp string) (wer float64, errs, words int) {
	r, h := strings.Fields(strings.ToLower(ref)), strings.Fields(strings.ToLower(hyp))
	prev := make([]int, len(h)+1)
	cur := make([]int, len(h)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(r); i++ {
		cur[0] = i
		for j := 1; j <= len(h); j++ {
			sub := prev[j-1]
			if r[i-1] != h[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	errs, words = prev[len(h)], len(r)
	if words == 0 {
		if errs == 0 {
			return 0, 0, 0
		}
		return 1, errs, 0
	}
	return float64(errs) / float64(words), errs, words
}
