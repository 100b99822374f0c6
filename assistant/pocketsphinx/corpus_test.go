package pocketsphinx

import (
	"strings"
	"testing"
)

func TestDomainCorpus(t *testing.T) {
	c := domainCorpus()
	if len(c) < 300 {
		t.Fatalf("corpus has %d sentences, want a few hundred", len(c))
	}
	seen := map[string]bool{}
	for _, s := range c {
		if seen[s] {
			t.Errorf("duplicate sentence %q", s)
		}
		seen[s] = true
		if s != strings.ToLower(s) || strings.Join(strings.Fields(s), " ") != s {
			t.Errorf("sentence %q is not lower-case single-spaced", s)
		}
	}
	for _, want := range []string{
		"what is the status of my parcel",
		"is this certificate authentic",
		"how do i transfer my land",
		"what is the status of my verification request",
		"is my attestation revoked",
		"what can you do",
		"thank you",
	} {
		if !seen[want] {
			t.Errorf("corpus lacks %q", want)
		}
	}
}
