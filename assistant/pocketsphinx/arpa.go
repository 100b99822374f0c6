package pocketsphinx

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Sentence boundary tokens of the ARPA format.
const (
	sentenceStart = "<s>"
	sentenceEnd   = "</s>"
)

// trigramModel is a back-off trigram language model estimated by interpolated
// absolute discounting (Ney, Essen and Kneser 1994). It is written in ARPA form, which
// stores for every seen n-gram its interpolated probability and for every history its
// back-off weight; with interpolation that weight is exactly the mass the discount
// freed, D·N1+(h)/c(h), so every conditional distribution sums to one.
type trigramModel struct {
	uni map[string]float64 // p(w)
	bi  map[[2]string]float64
	tri map[[3]string]float64
	bo1 map[string]float64    // back-off weight of a one-word history
	bo2 map[[2]string]float64 // back-off weight of a two-word history
}

// estimateTrigrams builds the model from sentences of space-separated words.
func estimateTrigrams(sentences []string) *trigramModel {
	c1 := map[string]int{}
	c2 := map[[2]string]int{}
	c3 := map[[3]string]int{}
	for _, s := range sentences {
		words := strings.Fields(s)
		if len(words) == 0 {
			continue
		}
		toks := append(append([]string{sentenceStart}, words...), sentenceEnd)
		for i := 1; i < len(toks); i++ {
			c1[toks[i]]++
			c2[[2]string{toks[i-1], toks[i]}]++
			if i >= 2 {
				c3[[3]string{toks[i-2], toks[i-1], toks[i]}]++
			}
		}
	}
	m := &trigramModel{
		uni: map[string]float64{},
		bi:  map[[2]string]float64{},
		tri: map[[3]string]float64{},
		bo1: map[string]float64{},
		bo2: map[[2]string]float64{},
	}
	// Unigrams: maximum likelihood over the tokens that can be predicted (</s>
	// included, <s> never predicted).
	total := 0
	for _, n := range c1 {
		total += n
	}
	for w, n := range c1 {
		m.uni[w] = float64(n) / float64(total)
	}

	// Bigrams.
	d2 := discount(c2)
	hist1 := map[string][2]int{} // history → (count, distinct followers)
	for k, n := range c2 {
		h := hist1[k[0]]
		hist1[k[0]] = [2]int{h[0] + n, h[1] + 1}
	}
	for h, cn := range hist1 {
		m.bo1[h] = d2 * float64(cn[1]) / float64(cn[0])
	}
	for k, n := range c2 {
		cn := hist1[k[0]]
		m.bi[k] = (float64(n)-d2)/float64(cn[0]) + m.bo1[k[0]]*m.uni[k[1]]
	}

	// Trigrams, interpolated with the full bigram distribution.
	d3 := discount(c3)
	hist2 := map[[2]string][2]int{}
	for k, n := range c3 {
		h := [2]string{k[0], k[1]}
		c := hist2[h]
		hist2[h] = [2]int{c[0] + n, c[1] + 1}
	}
	for h, cn := range hist2 {
		m.bo2[h] = d3 * float64(cn[1]) / float64(cn[0])
	}
	for k, n := range c3 {
		h := [2]string{k[0], k[1]}
		cn := hist2[h]
		m.tri[k] = (float64(n)-d3)/float64(cn[0]) + m.bo2[h]*m.bigram(k[1], k[2])
	}
	return m
}

// discount is the absolute discount for one order, D = n1/(n1+2·n2) from the counts
// of n-grams seen once and twice, kept inside (0.1, 0.9) so that a tiny or
// perfectly uniform corpus still leaves mass for unseen continuations.
func discount[K comparable](counts map[K]int) float64 {
	var n1, n2 int
	for _, n := range counts {
		switch n {
		case 1:
			n1++
		case 2:
			n2++
		}
	}
	d := 0.5
	if n1+2*n2 > 0 {
		d = float64(n1) / float64(n1+2*n2)
	}
	return math.Min(0.9, math.Max(0.1, d))
}

// bigram returns p(w | v) with back-off to the unigram.
func (m *trigramModel) bigram(v, w string) float64 {
	if p, ok := m.bi[[2]string{v, w}]; ok {
		return p
	}
	bo, ok := m.bo1[v]
	if !ok {
		bo = 1
	}
	return bo * m.uni[w]
}

// prob returns p(w | u v) with back-off, as a decoder reading the ARPA file computes it.
func (m *trigramModel) prob(u, v, w string) float64 {
	if p, ok := m.tri[[3]string{u, v, w}]; ok {
		return p
	}
	bo, ok := m.bo2[[2]string{u, v}]
	if !ok {
		bo = 1
	}
	return bo * m.bigram(v, w)
}

// vocabulary returns the words the model predicts, sorted, without the boundary tokens.
func (m *trigramModel) vocabulary() []string {
	var out []string
	for w := range m.uni {
		if w != sentenceEnd {
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// arpa writes the model in the ARPA text format that sphinxbase's ngram_model_read
// loads. Log probabilities are base 10; <s> gets the conventional -99.
func (m *trigramModel) arpa() []byte {
	var b bytes.Buffer
	unis := append([]string{sentenceStart}, m.vocabulary()...)
	unis = append(unis, sentenceEnd)
	bis := make([][2]string, 0, len(m.bi))
	for k := range m.bi {
		bis = append(bis, k)
	}
	sort.Slice(bis, func(i, j int) bool { return less(bis[i][:], bis[j][:]) })
	tris := make([][3]string, 0, len(m.tri))
	for k := range m.tri {
		tris = append(tris, k)
	}
	sort.Slice(tris, func(i, j int) bool { return less(tris[i][:], tris[j][:]) })

	fmt.Fprintf(&b, "\\data\\\nngram 1=%d\nngram 2=%d\nngram 3=%d\n\n", len(unis), len(bis), len(tris))
	b.WriteString("\\1-grams:\n")
	for _, w := range unis {
		lp := -99.0
		if w != sentenceStart {
			lp = math.Log10(m.uni[w])
		}
		if bo, ok := m.bo1[w]; ok {
			fmt.Fprintf(&b, "%.6f %s %.6f\n", lp, w, math.Log10(bo))
		} else {
			fmt.Fprintf(&b, "%.6f %s\n", lp, w)
		}
	}
	b.WriteString("\n\\2-grams:\n")
	for _, k := range bis {
		if bo, ok := m.bo2[k]; ok {
			fmt.Fprintf(&b, "%.6f %s %s %.6f\n", math.Log10(m.bi[k]), k[0], k[1], math.Log10(bo))
		} else {
			fmt.Fprintf(&b, "%.6f %s %s\n", math.Log10(m.bi[k]), k[0], k[1])
		}
	}
	b.WriteString("\n\\3-grams:\n")
	for _, k := range tris {
		fmt.Fprintf(&b, "%.6f %s %s %s\n", math.Log10(m.tri[k]), k[0], k[1], k[2])
	}
	b.WriteString("\n\\end\\\n")
	return b.Bytes()
}

// less orders n-grams word by word.
func less(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
