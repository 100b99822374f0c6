//go:build !pocketsphinx

// The Command's tests run in the default build only: the tagged run (-tags
// pocketsphinx) is for the cgo Transcriber, and both together take too long.

package pocketsphinx

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/internal/testenv"
)

// A voice is an offline speech synthesiser the tests speak with.
type voice struct {
	name, install string
	args          func(text, out string) []string
	// maxWER bounds the pooled word error rate over commandQuestions, set from a
	// measurement on Debian bookworm (flite 0.029: "thank you" heard as "and you";
	// espeak-ng 0.371: "the plot" for "my land", "the request" for "my verification
	// request", and two questions the grammar missed and the stock model heard
	// badly).
	maxWER float64
}

// voices are two unrelated synthesisers (Debian packages flite and espeak-ng): a
// domain model tuned to one voice only would fail the other.
var voices = []voice{
	{"flite", "apt-get install flite", func(text, out string) []string { return []string{"-t", text, "-o", out} }, 0.15},
	{"espeak-ng", "apt-get install espeak-ng", func(text, out string) []string { return []string{"-w", out, "-s", "140", text} }, 0.50},
}

// speak synthesises text as a WAV file (flite: 8 kHz, espeak-ng: 22.05 kHz; the
// transcriber resamples), or skips (fails under CI=true) without the synthesiser.
func speak(t testing.TB, v voice, text string) []byte {
	t.Helper()
	if _, err := exec.LookPath(v.name); err != nil {
		testenv.Require(t, v.name, v.install)
	}
	p := filepath.Join(t.TempDir(), "speech.wav")
	if out, err := exec.Command(v.name, v.args(text, p)...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", v.name, err, out)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newCommand starts a Command, or skips (fails under CI=true) when Debian's
// pocketsphinx or pocketsphinx-en-us package is missing.
func newCommand(t testing.TB, cfg Config) *Command {
	t.Helper()
	c, err := NewCommand(cfg)
	if errors.Is(err, ErrNotInstalled) {
		testenv.Require(t, "PocketSphinx ("+err.Error()+")", InstallHint)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// commandQuestions are more of the assistant's questions, for the pooled word error
// rate of each voice.
var commandQuestions = []string{
	"how do i transfer my land",
	"what is the status of my verification request",
	"is my attestation revoked",
	"check the certificate",
	"what can you do",
	"thank you",
	"how can i transfer ownership of my property",
}

// The parcel-status question comes back word for word from both voices, and the
// other questions with a bounded word error rate. Runs without a build tag.
func TestCommandTranscribesBothVoices(t *testing.T) {
	c := newCommand(t, Config{Decoders: 2})
	const parcel = "what is the status of my parcel"
	for _, v := range voices {
		t.Run(v.name, func(t *testing.T) {
			start := time.Now()
			got, err := c.Transcribe(context.Background(), assistant.SpeechInput{Audio: speak(t, v, parcel), Language: "en"})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%q -> %q in %v", parcel, got.Text, time.Since(start).Round(time.Millisecond))
			if got.Text != parcel || got.Provider != Provider || got.Language != "en" {
				t.Errorf("got %+v, want %q from provider %q in en", got, parcel, Provider)
			}
			var errs, words int
			for _, q := range commandQuestions {
				start := time.Now()
				got, err := c.Transcribe(context.Background(), assistant.SpeechInput{Audio: speak(t, v, q)})
				if err != nil {
					t.Fatal(err)
				}
				w, e, n := wordErrorRate(q, got.Text)
				errs, words = errs+e, words+n
				t.Logf("%-48q WER %.2f %q in %v", q, w, got.Text, time.Since(start).Round(time.Millisecond))
			}
			if rate := float64(errs) / float64(words); rate > v.maxWER {
				t.Errorf("pooled WER %.3f (%d/%d words) is above %.2f", rate, errs, words, v.maxWER)
			} else {
				t.Logf("pooled WER %.3f (%d/%d words)", rate, errs, words)
			}
		})
	}
}

func TestCommandFailsCleanly(t *testing.T) {
	_, err := NewCommand(Config{Program: "veriland-no-such-pocketsphinx"})
	if !errors.Is(err, ErrNotInstalled) {
		t.Errorf("missing program: got %v, want ErrNotInstalled", err)
	}
	_, err = NewCommand(Config{ModelDir: t.TempDir(), Program: os.Args[0]})
	if !errors.Is(err, ErrNotInstalled) {
		t.Errorf("missing models: got %v, want ErrNotInstalled", err)
	}
	c := newCommand(t, Config{})
	c.Close()
	_, err = c.Transcribe(context.Background(), assistant.SpeechInput{Audio: speak(t, voices[0], "hello")})
	var e *veriland.Error
	if !errors.As(err, &e) || e.Code != veriland.CodeUnavailable {
		t.Errorf("after Close: got %v, want unavailable", err)
	}
	c = newCommand(t, Config{})
	_, err = c.Transcribe(context.Background(), assistant.SpeechInput{Audio: []byte("%PDF-1.7 not audio")})
	if !errors.As(err, &e) || e.Code != veriland.CodeUnsupportedMediaType {
		t.Errorf("not audio: got %v, want unsupported_media_type", err)
	}
	_, err = c.Transcribe(context.Background(), assistant.SpeechInput{Audio: speak(t, voices[0], "hello"), Language: "fr"})
	if !errors.As(err, &e) || e.Code != veriland.CodeValidationFailed {
		t.Errorf("French: got %v, want validation_failed", err)
	}
}

// The program's result files and the choice between the grammar and the language
// model, without the program.
func TestCommandParsing(t *testing.T) {
	h, ok := parseHyp([]byte("what is the(2) status of my parcel <sil> (utt -8490)\n"))
	if !ok || h.text != "what is the status of my parcel" {
		t.Errorf("parseHyp = %q, %v", h.text, ok)
	}
	if _, ok := parseHyp([]byte("hello (other -1)\n")); ok {
		t.Error("parseHyp took another utterance's line")
	}
	if h, ok := parseHyp([]byte(" (utt 0)\n")); !ok || h.text != "" {
		t.Errorf("parseHyp of silence = %q, %v", h.text, ok)
	}
	ctm := []byte("utt 1 0.09 0.22 what 0.883\nutt 1 0.30 0.10 <sil> 0.010\nutt 1 0.44 0.15 parcel 0.458\n")
	if got := minPosterior(ctm); got != 0.458 {
		t.Errorf("minPosterior = %v, want 0.458", got)
	}
	if got := minPosterior(nil); got != 0 {
		t.Errorf("minPosterior of nothing = %v, want 0", got)
	}
	grammar := hypothesis{text: "what is the status of my parcel", minWord: 1}
	tests := []struct {
		domain hypothesis
		want   string
		ok     bool
	}{
		{hypothesis{"what is the status of my parcel", 0.8}, grammar.text, true},
		{hypothesis{"what is the parcel", 0.05}, grammar.text, true},                      // agrees on most words
		{hypothesis{"is the status of the bye", 0.38}, grammar.text, true},                // sure of other words
		{hypothesis{"the weather is nice today", 0.2}, "the weather is nice today", true}, // the language model's own
		{hypothesis{"the whether is nice", 0.02}, "", false},                              // neither: the stock model
	}
	for _, tt := range tests {
		got, ok := chooseDomain(grammar, tt.domain)
		if got.text != tt.want || ok != tt.ok {
			t.Errorf("chooseDomain(%q, %+v) = %q, %v; want %q, %v", grammar.text, tt.domain, got.text, ok, tt.want, tt.ok)
		}
	}
	if got, ok := chooseDomain(hypothesis{}, hypothesis{"hello", 0.9}); !ok || got.text != "hello" {
		t.Errorf("no grammar sentence: got %q, %v", got.text, ok)
	}
}
