package assistant

import (
	"context"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant/audio"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// Limits of a voice upload (SPEC S11).
const (
	MaxAudioBytes    = 25 << 20
	MaxAudioDuration = 10 * time.Minute
)

// VoiceRequest is a voice upload (POST /v1/assistant/voice, multipart): the file and
// the optional sessionId and language fields.
type VoiceRequest struct {
	Audio []byte
	// SessionID, when set, sends the transcript to that session as a message and
	// returns the reply too.
	SessionID *string
	// Language is a hint for the transcriber and the language of the reply (a BCP 47
	// tag).
	Language *string
}

// VoiceResult is the answer to a voice upload.
type VoiceResult struct {
	ID string `json:"id"`
	// Transcript is what was said ("" when nothing was recognised).
	Transcript string `json:"transcript"`
	// Language is the transcript's language (ISO 639-1), "und" when unknown.
	Language string `json:"language"`
	// DurationMs is the recording's length in milliseconds.
	DurationMs int64 `json:"durationMs"`
	// Provider names the transcriber.
	Provider string `json:"provider"`
	// Format is the container the upload was recognised as.
	Format audio.Format `json:"format"`
	// Reply is the assistant's answer to the transcript, with a sessionId and a
	// non-empty transcript only.
	Reply *Message `json:"reply,omitempty"`
}

// Transcribe recognises the speech of an upload and, with a session, answers it.
// The format is recognised from the content; a recording over MaxAudioDuration is
// refused from its headers before anything is decoded where the format records its
// duration. Errors: validation_failed, not_found (a session that is not p's),
// unsupported_media_type (not audio of a supported format), invalid_audio (broken
// headers), audio_too_long, unavailable (no transcriber, or a remote one that
// failed), and the transcriber's own.
func (s *Service) Transcribe(ctx context.Context, p veriland.Principal, req VoiceRequest) (*VoiceResult, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	var errs veriland.Errors
	if req.Language != nil && !languageTag.MatchString(*req.Language) {
		errs = append(errs, veriland.Invalid("/language", "language must be a language tag such as \"en\" or \"pt-BR\""))
	}
	if req.SessionID != nil && !ids.Valid(*req.SessionID, "ses") {
		errs = append(errs, veriland.Invalid("/sessionId", "sessionId must be a session id (ses_…)"))
	}
	if len(req.Audio) == 0 {
		errs = append(errs, veriland.Invalid("/file", "file is required: the recording, as a multipart file"))
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if len(req.Audio) > MaxAudioBytes {
		return nil, veriland.Errorf(veriland.CodePayloadTooLarge, "the recording is larger than %d MiB", MaxAudioBytes>>20).
			WithMeta("maxBytes", MaxAudioBytes)
	}
	info, err := audio.Probe(req.Audio)
	if err != nil {
		return nil, audioError(err)
	}
	if info.DurationKnown && info.Duration > MaxAudioDuration {
		return nil, tooLong(info.Duration)
	}
	if req.SessionID != nil {
		err := s.Store.View(ctx, func(tx storage.Tx) error {
			_, err := repo(tx, p.Env).ownedSession(p, *req.SessionID)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if s.Transcriber == nil {
		hint := s.TranscriberHint
		if hint == "" {
			hint = "no speech-to-text is configured on this server"
		}
		return nil, veriland.Errorf(veriland.CodeUnavailable, "%s", hint)
	}
	in := SpeechInput{Audio: req.Audio, Info: info}
	if req.Language != nil {
		in.Language = primary(*req.Language)
	}
	tr, err := s.Transcriber.Transcribe(ctx, in)
	if err != nil {
		if errors.Is(err, audio.ErrTooLong) {
			return nil, tooLong(0)
		}
		var ve *veriland.Error
		if errors.As(err, &ve) || errors.As(err, new(veriland.Errors)) {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, veriland.Errorf(veriland.CodeUnavailable, "the transcriber failed; try again later").WithCause(err)
	}
	id, err := ids.New(s.rand(), "trn")
	if err != nil {
		return nil, err
	}
	out := &VoiceResult{ID: id, Transcript: tr.Text, Language: tr.Language, Provider: tr.Provider, Format: info.Format}
	switch {
	case info.DurationKnown:
		out.DurationMs = info.Duration.Milliseconds()
	case tr.Duration > 0:
		out.DurationMs = tr.Duration.Milliseconds()
	}
	if out.Language == "" {
		out.Language = in.Language
	}
	if out.Language == "" {
		out.Language = Undetermined
	}
	if req.SessionID != nil && tr.Text != "" {
		msg := MessageRequest{SessionID: req.SessionID, Text: truncateRunes(tr.Text, MaxTextLength), Language: req.Language}
		if msg.Language == nil && Supported(out.Language) {
			msg.Language = &out.Language
		}
		if out.Reply, err = s.send(ctx, p, msg, "voice"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func tooLong(d time.Duration) error {
	e := veriland.Errorf(veriland.CodeAudioTooLong, "the recording is longer than %d minutes", int(MaxAudioDuration/time.Minute)).
		WithMeta("maxDurationMs", MaxAudioDuration.Milliseconds())
	if d > 0 {
		e = e.WithMeta("durationMs", d.Milliseconds())
	}
	return e
}

// audioError maps the audio package's errors to the API's.
func audioError(err error) error {
	switch {
	case errors.Is(err, audio.ErrUnknownFormat):
		return &veriland.Error{Code: veriland.CodeUnsupportedMediaType, Pointer: "/file",
			Message: "the file is not a recording in a supported format (WAV, FLAC, OGG/Opus, WebM, MP3, M4A); the format is read from the content, not the name"}
	case errors.Is(err, audio.ErrMalformed):
		return &veriland.Error{Code: veriland.CodeInvalidAudio, Message: "the recording's headers are broken: " + err.Error(), Pointer: "/file"}
	case errors.Is(err, audio.ErrTooLong):
		return tooLong(0)
	}
	return err
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}
