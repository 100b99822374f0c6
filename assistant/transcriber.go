package assistant

import (
	"context"
	"time"

	"github.com/veriland/veriland/assistant/audio"
)

// Transcriber turns speech into text. assistant/openai is the OpenAI-compatible
// /audio/transcriptions client (whisper.cpp server, faster-whisper, LocalAI);
// assistant/pocketsphinx is the embedded offline default (CMU PocketSphinx through
// cgo, build tag pocketsphinx).
type Transcriber interface {
	// Transcribe returns the text spoken in in.Audio. Errors are *veriland.Error
	// values: unsupported_media_type for a format the transcriber cannot decode,
	// unavailable when a remote transcriber cannot be reached, validation_failed
	// for audio the decoder refuses.
	Transcribe(ctx context.Context, in SpeechInput) (*Transcription, error)
}

// SpeechInput is one uploaded recording, already sniffed and measured.
type SpeechInput struct {
	// Audio is the file as uploaded.
	Audio []byte
	// Info is what audio.Probe read from the container (format, duration).
	Info audio.Info
	// Language is the caller's hint (an ISO 639-1 code), "" for none.
	Language string
}

// Transcription is a transcriber's result.
type Transcription struct {
	// Text is the transcript ("" when nothing was recognised).
	Text string
	// Language is the language of the transcript (ISO 639-1), "" when unknown.
	Language string
	// Provider names the transcriber ("pocketsphinx", "openai-compatible").
	Provider string
	// Duration is the length of the audio the transcriber heard, 0 when it does not
	// say (the container's duration is used then).
	Duration time.Duration
}
