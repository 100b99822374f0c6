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

// sampleRate is the rate of the en-us acoustic model. Audio is resampled to it in Go
// (audio.Resample), never by sphinxbase.
const sampleRate = 16000

// Provider is the name a Transcription carries.
const Provider = "pocketsphinx"

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
	// Program is the decoder a Command runs, a name looked up in PATH or a path;
	// DefaultProgram when empty. The cgo Transcriber ignores it.
	Program string
	// Timeout bounds one run of a Command's program; when zero, a minute plus twice
	// the recording's duration. The cgo Transcriber ignores it.
	Timeout time.Duration

	// extraArgs are more options for a Command's program (tests, tuning).
	extraArgs []string
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
	if c.MaxDuration < 0 || c.Timeout < 0 {
		return c, errors.New("pocketsphinx: MaxDuration and Timeout must not be negative")
	}
	for i, p := range c.Phrases {
		c.Phrases[i] = strings.ToLower(strings.Join(strings.Fields(p), " "))
	}
	return c, nil
}
