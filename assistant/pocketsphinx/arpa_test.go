package pocketsphinx

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"
)

// Every conditional distribution of the back-off model must sum to one over the
// vocabulary plus </s>, for seen and unseen histories alike: that is what makes the
// back-off weights "normalised".
func TestTrigramModelNormalised(t *testing.T) {
	tests := []struct {
		name      string
		sentences []string
	}{
		{"tiny", []string{"a b", "a c", "b c a"}},
		{"repeated", []string{"help", "help", "help me", "thank you"}},
		{"domain corpus", domainCorpus()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := estimateTrigrams(tt.sentences)
			targets := append(m.vocabulary(), sentenceEnd)
			histories := [][2]string{{sentenceStart, sentenceStart}}
			for k := range m.bi {
				histories = append(histories, k)
				if len(histories) > 400 {
					break
				}
			}
			// An unseen history exercises the back-off path twice.
			histories = append(histories, [2]string{targets[0], targets[len(targets)-2]})
			for _, h := range histories {
				if h[1] == sentenceEnd {
					continue
				}
				sum := 0.0
				for _, w := range targets {
					sum += m.prob(h[0], h[1], w)
				}
				if math.Abs(sum-1) > 1e-9 {
					t.Errorf("p(· | %s %s) sums to %.12f", h[0], h[1], sum)
				}
			}
		})
	}
}

func TestTrigramModelARPA(t *testing.T) {
	m := estimateTrigrams([]string{"what is the status of my parcel", "is my attestation valid", "help"})
	text := m.arpa()
	sc := bufio.NewScanner(bytes.NewReader(text))
	counts := map[string]int{}
	section := ""
	declared := map[string]string{}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "ngram "):
			kv := strings.SplitN(strings.TrimPrefix(line, "ngram "), "=", 2)
			declared[kv[0]] = kv[1]
		case strings.HasPrefix(line, "\\") && strings.HasSuffix(line, "-grams:"):
			section = line[1:2]
		case line == "" || strings.HasPrefix(line, "\\"):
		default:
			f := strings.Fields(line)
			n := int(section[0] - '0')
			if len(f) != n+1 && len(f) != n+2 {
				t.Errorf("line %q has %d fields in the %s-grams", line, len(f), section)
			}
			counts[section]++
		}
	}
	for n, want := range declared {
		if got := counts[n]; want != strconv.Itoa(got) {
			t.Errorf("%s-grams: header says %s, file has %d", n, want, got)
		}
	}
	if !bytes.HasPrefix(text, []byte("\\data\\\n")) || !bytes.HasSuffix(text, []byte("\\end\\\n")) {
		t.Error("ARPA file lacks its \\data\\ header or \\end\\ trailer")
	}
	if !bytes.Contains(text, []byte("-99.000000 <s>")) {
		t.Error("<s> should carry the conventional -99 log probability")
	}
}
