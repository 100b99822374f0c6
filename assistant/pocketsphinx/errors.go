package pocketsphinx

import (
	"context"
	"errors"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant/audio"
)

// remoteHint tells the client how to get what the embedded transcriber cannot do.
const remoteHint = "configure an OpenAI-compatible transcriber (whisper.cpp server, faster-whisper, LocalAI) with -transcriber-url"

// checkLanguage refuses a language hint other than English: the embedded models are
// US English, and decoding French speech with them gives confident nonsense rather
// than an error. "" (no hint), "en" and regional tags such as "en-GB" pass.
func checkLanguage(hint string) error {
	tag := strings.ToLower(strings.TrimSpace(hint))
	primary, _, _ := strings.Cut(tag, "-")
	primary, _, _ = strings.Cut(primary, "_")
	if tag == "" || primary == "en" {
		return nil
	}
	return veriland.Invalid("/language",
		"the embedded transcriber (PocketSphinx) understands English only; for other languages %s", remoteHint).
		WithMeta("supportedLanguages", []string{"en"})
}

// audioError turns an error of audio.Decode into the *veriland.Error the assistant
// returns, with the pointer of the multipart member.
func audioError(err error) error {
	var e *veriland.Error
	switch {
	case errors.Is(err, audio.ErrTooLong):
		e = veriland.Errorf(veriland.CodeAudioTooLong, "the recording is longer than the transcriber accepts")
	case errors.Is(err, audio.ErrMalformed):
		e = veriland.Errorf(veriland.CodeInvalidAudio, "the recording's headers are broken")
	case errors.Is(err, audio.ErrCannotDecode), errors.Is(err, audio.ErrUnknownFormat):
		e = veriland.Errorf(veriland.CodeUnsupportedMediaType,
			"the embedded transcriber decodes WAV, FLAC and MP3; for other formats %s", remoteHint).
			WithMeta("supportedFormats", []string{string(audio.WAV), string(audio.FLAC), string(audio.MP3)})
	default:
		e = veriland.Errorf(veriland.CodeInvalidAudio, "the recording cannot be decoded")
	}
	e.Pointer = "/file"
	return e.WithCause(err)
}

// errClosed is returned by Transcribe after Close.
var errClosed = veriland.Errorf(veriland.CodeUnavailable, "the embedded transcriber has been shut down")

// decodeError keeps the caller's context errors as they are (the HTTP layer knows
// them) and hides sphinx's messages behind an internal error.
func decodeError(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return veriland.Errorf(veriland.CodeInternal, "the embedded transcriber failed").WithCause(err)
}
