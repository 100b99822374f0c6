package pocketsphinx

import (
	"strings"
	"testing"
)

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

func TestWordErrorRate(t *testing.T) {
	tests := []struct {
		ref, hyp string
		errs     int
		wer      float64
	}{
		{"what is the status of my parcel", "what is the status of my parcel", 0, 0},
		{"what is the status of my parcel", "what is the status of my car sale", 2, 2.0 / 7},
		{"how do i transfer my land", "how do transfer my land", 1, 1.0 / 6},
		{"hello", "hello there", 1, 1},
		{"thank you", "", 2, 1},
		{"", "", 0, 0},
		{"Is My Attestation Valid", "is my attestation valid", 0, 0},
	}
	for _, tt := range tests {
		wer, errs, _ := wordErrorRate(tt.ref, tt.hyp)
		if errs != tt.errs || wer != tt.wer {
			t.Errorf("wordErrorRate(%q, %q) = %v (%d errors), want %v (%d)", tt.ref, tt.hyp, wer, errs, tt.wer, tt.errs)
		}
	}
}
