package pocketsphinx

import (
	"strings"
	"testing"
)

func TestCleanHypothesis(t *testing.T) {
	tests := []struct{ in, want string }{
		{"what is the status of my parcel", "what is the status of my parcel"},
		{"<s> what(2) is <sil> the [NOISE] status ++GARBAGE++ </s>", "what is the status"},
		{"  HELLO   there ", "hello there"},
		{"(2) hello", "hello"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := cleanHypothesis(tt.in); got != tt.want {
			t.Errorf("cleanHypothesis(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestChoose(t *testing.T) {
	domain := hypothesis{text: "what is the status of my parcel", minWord: 0.8}
	tests := []struct {
		name            string
		domain, general hypothesis
		want            string
	}{
		{"domain confident", domain, hypothesis{text: "while they lifted off my parcel", minWord: 0.01}, searchDomain},
		{"domain empty", hypothesis{}, hypothesis{text: "the weather is nice today", minWord: 0.1}, searchGeneral},
		{"domain doubtful", hypothesis{text: "where is my to there", minWord: 0.01}, hypothesis{text: "the weather is nice today", minWord: 0.07}, searchGeneral},
		{"general sure of something else", hypothesis{text: "please okay to my real morning", minWord: 0.88}, hypothesis{text: "please call me tomorrow morning", minWord: 0.82}, searchGeneral},
		{"domain short but plausible", hypothesis{text: "thank you", minWord: 0.15}, hypothesis{text: "and you", minWord: 0.32}, searchDomain},
		{"both agree", hypothesis{text: "hello", minWord: 0.94}, hypothesis{text: "hello", minWord: 0.94}, searchDomain},
		{"both empty", hypothesis{}, hypothesis{}, searchGeneral},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got := choose(tt.domain, tt.general); got != tt.want {
				t.Errorf("choose = %s, want %s", got, tt.want)
			}
		})
	}
}

// Hypotheses come from a C library: whatever it returns, cleaning must not panic
// and must give lower-case, single-spaced words without fillers.
func FuzzCleanHypothesis(f *testing.F) {
	for _, s := range []string{"", "what(2) is <sil> [NOISE]", "++GARBAGE++", "(", "a(", "((((", "\x00\xff", "THE(10) END"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := cleanHypothesis(s)
		if strings.Join(strings.Fields(got), " ") != got {
			t.Fatalf("cleanHypothesis(%q) = %q is not single-spaced", s, got)
		}
		for _, w := range strings.Fields(got) {
			if strings.HasPrefix(w, "<") || strings.HasPrefix(w, "[") || strings.HasPrefix(w, "++") {
				t.Fatalf("cleanHypothesis(%q) kept filler %q", s, w)
			}
		}
	})
}
