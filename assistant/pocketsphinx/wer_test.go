package pocketsphinx

import "testing"

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
