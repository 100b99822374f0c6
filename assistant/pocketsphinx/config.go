package pocketsphinx

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// DefaultModelDir is where Debian's pocketsphinx-en-us package installs the US English
// acoustic model (en-us/), language model (en-us.lm.bin) and dictionary
// (cmudict-en-us.dict).
const DefaultModelDir = "/usr/share/pocketsphinx/model/en-us"

// DefaultMaxDuration is the longest recording decoded, the limit of SPEC S11.
const DefaultMaxDuration = 10 * time.Minute

// maxDecoders bounds the pool: each decoder holds its own copy of the models
// (about 60 MB), so a typo such as 1000 must not exhaust memory.
const maxDecoders = 64

// Config configures a Transcriber. The zero value is usable.
type Config struct {
	// ModelDir holds en-us/, en-us.lm.bin and cmudict-en-us.dict; DefaultModelDir
	// when empty.
	ModelDir string
	// Decoders is the number of recordings decoded at the same time (one decoder,
	// with its own copy of the models, each); 1 when zero.
	Decoders int
	// MaxDuration is the longest recording decoded; DefaultMaxDuration when zero.
	MaxDuration time.Duration
	// Phrases are more English sentences for the domain language model, added to the
	// assistant's own (lower-case words; words missing from the dictionary make the
	// sentence be left out).
	Phrases []string
	// GeneralOnly turns the domain adaptation off: every recording is decoded with the
	// stock en-us language model alone (for comparison; the default is better on the
	// assistant's questions).
	GeneralOnly bool
}

// withDefaults returns c with its zero fields filled and checks the rest.
func (c Config) withDefaults() (Config, error) {
	if c.ModelDir == "" {
		c.ModelDir = DefaultModelDir
	}
	if c.Decoders == 0 {
		c.Decoders = 1
	}
	if c.Decoders < 0 || c.Decoders > maxDecoders {
		return c, fmt.Errorf("pocketsphinx: Decoders must be between 1 and %d, not %d", maxDecoders, c.Decoders)
	}
	if c.MaxDuration == 0 {
		c.MaxDuration = DefaultMaxDuration
	}
	if c.MaxDuration < 0 {
		return c, errors.New("pocketsphinx: MaxDuration must not be negative")
	}
	for i, p := range c.Phrases {
		c.Phrases[i] = strings.ToLower(strings.Join(strings.Fields(p), " "))
	}
	return c, nil
}
