//go:build pocketsphinx

package pocketsphinx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/audio"
)

// Transcriber is the embedded offline speech-to-text: PocketSphinx with the stock US
// English models, adapted to the assistant's phrases. It implements
// assistant.Transcriber and is safe for concurrent use; Config.Decoders recordings are
// decoded at once and further callers wait (as long as their context lets them).
type Transcriber struct {
	cfg      Config
	pool     chan *decoder
	decoders int
	closed   chan struct{}
	close    sync.Once
}

var _ assistant.Transcriber = (*Transcriber)(nil)

// New loads cfg.Decoders decoders and, unless cfg.GeneralOnly, the domain language
// model built from the assistant's phrases (and cfg.Phrases). It fails when the model
// files are missing or sphinx refuses them. Loading takes a few seconds per decoder
// (3.8 s measured for one), so a server calls New once at start-up.
func New(cfg Config) (*Transcriber, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	t := &Transcriber{cfg: cfg, pool: make(chan *decoder, cfg.Decoders), closed: make(chan struct{})}
	var arpaPath string
	defer func() {
		if arpaPath != "" {
			os.Remove(arpaPath)
		}
	}()
	for i := 0; i < cfg.Decoders; i++ {
		d, err := newDecoder(cfg.ModelDir)
		if err != nil {
			t.Close()
			return nil, err
		}
		t.pool <- d
		t.decoders++
		if cfg.GeneralOnly {
			continue
		}
		for w, phones := range extraPronunciations {
			if !d.hasWord(w) {
				if err := d.addWord(w, phones); err != nil {
					t.Close()
					return nil, err
				}
			}
		}
		if arpaPath == "" {
			// The model is the same for every decoder; it is built once, from the
			// first decoder's dictionary, and sphinx reads it from a file that lives
			// only until New returns.
			if arpaPath, err = writeDomainModel(d, cfg.Phrases); err != nil {
				t.Close()
				return nil, err
			}
		}
		if err := d.loadDomain(arpaPath); err != nil {
			t.Close()
			return nil, err
		}
	}
	return t, nil
}

// writeDomainModel estimates the domain trigram model from the sentences whose words
// are all in d's dictionary and writes it, in ARPA form, to a temporary file.
func writeDomainModel(d *decoder, extra []string) (string, error) {
	known := map[string]bool{}
	kept := domainSentences(extra, func(w string) bool {
		in, seen := known[w]
		if !seen {
			in = d.hasWord(w)
			known[w] = in
		}
		return in
	})
	if len(kept) == 0 {
		return "", errors.New("pocketsphinx: no domain sentence uses only dictionary words")
	}
	f, err := os.CreateTemp("", "veriland-domain-*.arpa")
	if err != nil {
		return "", fmt.Errorf("pocketsphinx: %w", err)
	}
	_, werr := f.Write(estimateTrigrams(kept).arpa())
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("pocketsphinx: writing the domain model: %w", err)
	}
	return f.Name(), nil
}

// Transcribe decodes in.Audio (WAV, FLAC or MP3), resamples it to 16 kHz mono and
// returns what was said, in English. Errors are *veriland.Error values:
// validation_failed at /language for a hint other than English,
// unsupported_media_type at /file for a format it cannot decode, audio_too_long and
// invalid_audio at /file, unavailable after Close; and ctx's error when the caller
// gives up while waiting for a decoder or during decoding.
func (t *Transcriber) Transcribe(ctx context.Context, in assistant.SpeechInput) (*assistant.Transcription, error) {
	if err := checkLanguage(in.Language); err != nil {
		return nil, err
	}
	if len(in.Audio) == 0 {
		return nil, veriland.Invalid("/file", "the recording is empty")
	}
	pcm, err := audio.Decode(in.Audio, t.cfg.MaxDuration)
	if err != nil {
		return nil, audioError(err)
	}
	samples := audio.Resample(pcm, sampleRate).Int16()
	r, err := t.recognize(ctx, samples)
	if err != nil {
		return nil, err
	}
	return &assistant.Transcription{Text: r.chosen.text, Language: "en", Provider: Provider}, nil
}

// recognize transcribes 16 kHz mono samples with a decoder from the pool.
func (t *Transcriber) recognize(ctx context.Context, samples []int16) (recognition, error) {
	var r recognition
	d, err := t.acquire(ctx)
	if err != nil {
		return r, err
	}
	defer func() { t.pool <- d }()
	if len(samples) == 0 {
		return r, nil
	}
	if r.general, err = d.decode(ctx, d.general, samples); err != nil {
		return r, decodeError(err)
	}
	if t.cfg.GeneralOnly {
		r.chosen, r.search = r.general, searchGeneral
		return r, nil
	}
	if r.domain, err = d.decode(ctx, domainSearch, samples); err != nil {
		return r, decodeError(err)
	}
	r.chosen, r.search = choose(r.domain, r.general)
	return r, nil
}

// acquire takes a decoder from the pool, waiting while all are busy.
func (t *Transcriber) acquire(ctx context.Context) (*decoder, error) {
	select {
	case <-t.closed:
		return nil, errClosed
	default:
	}
	select {
	case d := <-t.pool:
		select {
		case <-t.closed:
			t.pool <- d
			return nil, errClosed
		default:
			return d, nil
		}
	case <-t.closed:
		return nil, errClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close waits for the recordings being decoded, then frees the decoders. Later calls
// to Transcribe fail with unavailable. Close is idempotent.
func (t *Transcriber) Close() error {
	t.close.Do(func() {
		close(t.closed)
		for i := 0; i < t.decoders; i++ {
			(<-t.pool).close()
		}
	})
	return nil
}
